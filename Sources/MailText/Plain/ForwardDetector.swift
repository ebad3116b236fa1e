/// Recognizes forwarded messages and condenses their header block into one marker line.
///
/// A forward is content the sender wants read, so unlike a quote it is shown. Only its header lines
/// (From/Date/Subject/To) are replaced by "↪ Forwarded message from <From>", which reads well in a bubble.
enum ForwardDetector {
    /// The prefix every condensed marker line starts with; later stages leave such lines alone.
    static let markerPrefix = "↪ Forwarded message"

    /// True when the line introduces a forwarded message.
    static func isMarker(_ line: Substring) -> Bool {
        if let phrase = dashedPhrase(line) {
            return HeaderTables.forwardedMessage.contains { phrase.hasPrefix($0) }
        }
        var body = line.trimmed
        let last = body.lastScalar
        guard last == ":" || last == "：", body.utf8.count <= 120 else { return false }
        if body.utf8.first == UInt8(ascii: ">") { body = body.removingOneQuoteLevel.trimmed }
        let phrase = body.dropLast().trimmed.lowercased()
        return HeaderTables.forwardIntroductions.contains(phrase)
    }

    /// Rewrites everything from a forward marker on: each marker plus its header lines become one marker line;
    /// the forwarded body is kept (with one level of `>` removed when the headers were `>`-quoted, as Apple Mail
    /// writes them in plain text).
    static func condense(_ lines: ArraySlice<Substring>) -> [Substring] {
        var output: [Substring] = []
        var index = lines.startIndex
        var dequote = false
        while index < lines.endIndex {
            let line = lines[index]
            guard isMarker(line) else {
                output.append(dequote && line.isQuotedLine ? line.removingOneQuoteLevel : line)
                index += 1
                continue
            }
            var cursor = index + 1
            // Headers may follow after a blank line (Apple) or a bare ">" line.
            while cursor < lines.endIndex && cursor - index <= 2 && isEmptyOrBareQuote(lines[cursor]) { cursor += 1 }
            var from: Substring?
            var headerQuoted = false
            var sawHeader = false
            while cursor < lines.endIndex, let header = HeaderLine(lines[cursor]) {
                if header.key == .from && from == nil { from = header.value }
                headerQuoted = headerQuoted || lines[cursor].isQuotedLine
                sawHeader = true
                cursor += 1
            }
            if !sawHeader { cursor = index + 1 }
            dequote = headerQuoted
            if let from, !from.isEmpty {
                output.append(Substring(markerPrefix + " from " + from))
            } else {
                output.append(Substring(markerPrefix))
            }
            index = cursor
        }
        return output
    }

    private static func isEmptyOrBareQuote(_ line: Substring) -> Bool {
        line.isBlankLine || line.trimmed == ">"
    }
}
