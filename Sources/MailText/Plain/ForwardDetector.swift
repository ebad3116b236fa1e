import Foundation

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

    /// True for a subject that a forward gets ("Fwd: …", "WG: …", "TR: …"): its first prefix, before any "Re:",
    /// is a forward's. The prefix is read as ``ReplySubject`` reads it, the one reader of subject prefixes.
    static func isForwardSubject(_ subject: String) -> Bool {
        ReplySubject.afterForwardPrefix(Substring(subject).drop(while: \.isWhitespace)) != nil
    }

    /// Rewrites everything from a forward marker on: each marker plus its header lines become one marker line;
    /// the forwarded body is kept (with one level of `>` removed when the headers were `>`-quoted, as Apple Mail
    /// writes them in plain text).
    /// - Parameter opensWithHeaders: the lines start with a header block (maybe under a rule or an "Original
    ///   Message" separator) instead of a marker: Outlook forwards the way it replies.
    static func condense(_ lines: ArraySlice<Substring>, opensWithHeaders: Bool = false) -> [Substring] {
        var output: [Substring] = []
        var index = lines.startIndex
        var dequote = false
        var implicitMarker = opensWithHeaders
        while index < lines.endIndex {
            let line = lines[index]
            var cursor: Int
            if implicitMarker {
                // The rule or separator goes; the header block below it is the marker.
                cursor = lines[index...].prefix(4).firstIndex { HeaderLine($0) != nil } ?? index
                implicitMarker = false
            } else if isMarker(line) {
                cursor = index + 1
                // Headers may follow after a blank line (Apple) or a bare ">" line.
                while cursor < lines.endIndex && cursor - index <= 2 && isEmptyOrBareQuote(lines[cursor]) {
                    cursor += 1
                }
            } else {
                output.append(dequote && line.isQuotedLine ? line.removingOneQuoteLevel : line)
                index += 1
                continue
            }
            var from: String?
            var lastKey: HeaderKey?
            var headerQuoted = false
            while cursor < lines.endIndex {
                if let header = HeaderLine(lines[cursor]) {
                    if header.key == .from && from == nil { from = String(header.value) }
                    lastKey = header.key
                } else if lastKey != nil && isWrappedValue(cursor, in: lines) {
                    // "From: Ann Smith <\nann@x.org>", "Subject: Two\nline subject": the value goes on.
                    if lastKey == .from, var value = from {
                        let tail = lines[cursor].removingOneQuoteLevel.trimmed
                        if !value.isEmpty && !value.hasSuffix("<") { value += " " }
                        from = value + tail
                    }
                } else {
                    break
                }
                headerQuoted = headerQuoted || lines[cursor].isQuotedLine
                cursor += 1
            }
            if lastKey == nil { cursor = index + 1 }
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

    /// A line inside the header block that is not a header: the wrapped rest of the value above, when it is
    /// indented (folded) or another header follows before the block ends.
    private static func isWrappedValue(_ index: Int, in lines: ArraySlice<Substring>) -> Bool {
        let line = lines[index]
        guard !isEmptyOrBareQuote(line), !isMarker(line) else { return false }
        if let first = line.removingOneQuoteLevel.first, first == " " || first == "\t" { return true }
        var next = index + 1
        while next < lines.endIndex && next <= index + 2 && !isEmptyOrBareQuote(lines[next]) {
            if HeaderLine(lines[next]) != nil { return true }
            next += 1
        }
        return false
    }

    private static func isEmptyOrBareQuote(_ line: Substring) -> Bool {
        line.isBlankLine || line.trimmed == ">"
    }
}
