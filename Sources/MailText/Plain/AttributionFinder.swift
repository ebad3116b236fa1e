/// An attribution found in the lines of a message.
struct AttributionMatch: Sendable {
    /// The lines it covers.
    var lines: ClosedRange<Int>
    var strength: AttributionStrength
    /// When it starts inside its first line ("…see you then. On Mon, … wrote:"), the reply text before it, which
    /// stays.
    var head: Substring?
}

/// Finds the attribution that ends on a given line: one line, or two or three when a long name or address
/// wrapped, or the tail of the reply's last line.
enum AttributionFinder {
    /// The attribution whose last line is `last`, trying 1, 2 then 3 lines.
    ///
    /// Once some lines match, the match grows upward only while its first line continues the line above (it
    /// starts in lowercase, a digit, "<" or a caseless script), so "Sounds good\nAnn wrote:" never takes "Sounds
    /// good" with it. No joined line but the last may end a sentence ("On Friday we ship.\nAnn wrote:" is prose
    /// and then an attribution), unless it ends in a date's number or abbreviation ("schrieb am Fr., 28.\nApr.
    /// 2017 um 11:53 Uhr:", "Den tirs. 5. mar. 2024 kl.\n10.00 skrev …").
    ///
    /// `last` may be a quoted closing line (">:", "> wrote:") when the line above broke inside "<address>".
    /// - Parameters:
    ///   - lowerBound: the attribution never starts above this line.
    ///   - keep: lines already removed (false) are never part of it.
    ///   - allowMissingColon: accept "… wrote" without a colon, one level weaker.
    static func attribution(
        endingAt last: Int,
        in lines: [Substring],
        lowerBound: Int,
        keep: [Bool],
        allowMissingColon: Bool = false
    ) -> AttributionMatch? {
        let closing = isClosingLine(last, in: lines)
        var best: AttributionMatch?
        var canGrow = true
        var digitStart = false
        for count in 1...3 {
            let first = last - count + 1
            guard first >= lowerBound else { break }
            if keep.indices.contains(first) && !keep[first] { break }
            let line = lines[first]
            if line.isBlankLine || (line.isQuotedLine && !(closing && first == last)) { break }
            let allowingDates = best == nil || canGrow || opensWithLead(line)
            if count > 1 && endsSentence(line, before: lines[first + 1], allowingDates: allowingDates) { break }
            if closing && count == 1 { continue }  // ">:" alone is not an attribution

            let slice = lines[first...last]
            let whole = AttributionPatterns.match(slice, allowMissingColon: allowMissingColon)
            // A lead line joins a complete attribution below it only when it carries the date ("On Mon, 1 Jan
            // 2024 at 10:00\nAnn <ann@x.org> wrote:") or breaks inside it ("Am Di., 5.\nMärz 2024 …"; a sentence
            // end was ruled out above); "On Friday we ship\nAnn wrote:" is prose above one.
            let carriesDate = lineHasDate(line) || line.trimmedTrailing.last == "."
            if let whole, opensWithLead(line), best == nil || canGrow || carriesDate {
                return AttributionMatch(lines: first...last, strength: whole, head: nil)
            }
            if let inline = inlineAttribution(first: first, last: last, in: lines, allowMissingColon: allowMissingColon)
            {
                return inline
            }
            // A match that starts with a digit grows into a line above that names an address or a date:
            // "Zhang San <zhang@x.cn> 于2024年1月1日周一\n10:00写道：", but not "Replying ok\n2011/4/7 Ann <…>".
            if let whole, best == nil || canGrow || (digitStart && Evidence(Array(line.utf8)).isStrong) {
                best = AttributionMatch(lines: first...last, strength: whole, head: nil)
            }
            // Grow past a complete attribution only while its first line continues the line above.
            digitStart = whole != nil && line.trimmedLeading.first?.isNumber == true
            canGrow = canGrow && (whole == nil || startsAsFragment(line))
        }
        return best
    }

    /// An attribution that opens mid-line, after reply text: "Thanks. On Mon, 1 Jan 2024 at 10:00, Ann <ann@x.org>
    /// wrote:", "reply--- On …", "Thanks. Ann <ann@x.org> wrote:". Only a lead followed by a date, or a new
    /// sentence with an address, counts: a capitalized "On" inside a sentence is otherwise too common.
    private static func inlineAttribution(
        first: Int, last: Int, in lines: [Substring], allowMissingColon: Bool
    ) -> AttributionMatch? {
        let body = lines[first].trimmedLeading
        let bytes = Array(body.utf8)
        // Where a lead could start: after a space, "-" or "*", on a byte some lead starts with.
        var starts: [Int] = []
        for index in bytes.indices.dropFirst() where AttributionTable.leadFirstBytes.contains(bytes[index]) {
            let before = bytes[index - 1]
            if before == UInt8(ascii: " ") || before == UInt8(ascii: "-") || before == UInt8(ascii: "*") {
                starts.append(index)
            }
        }
        for position in starts {
            for lead in AttributionTable.leads where bytes[position...].starts(with: lead) {
                let split = body.utf8.index(body.utf8.startIndex, offsetBy: position)
                let head = body[..<split].trimmingAttributionFrame
                guard !head.isBlankLine else { continue }
                var candidate: [Substring] = [body[split...]]
                candidate += lines[(first + 1)..<(last + 1)]
                let normalized = AttributionPatterns.normalize(candidate[...])
                guard AttributionPatterns.match(normalized, allowMissingColon: allowMissingColon) == .strong,
                    Evidence(normalized.bytes).hasDate
                else { continue }
                return AttributionMatch(lines: first...last, strength: .strong, head: head)
            }
        }
        // "…thanks. Ann Smith <ann@x.org> wrote:": a sentence, then an attribution that names an address.
        if let start = AttributionPatterns.lastSentenceStart(bytes[...]) {
            let split = body.utf8.index(body.utf8.startIndex, offsetBy: start)
            var candidate: [Substring] = [body[split...]]
            candidate += lines[(first + 1)..<(last + 1)]
            let normalized = AttributionPatterns.normalize(candidate[...])
            if AttributionPatterns.match(normalized, allowMissingColon: allowMissingColon) == .strong,
                Evidence(normalized.bytes).hasAddress
            {
                let head = body[..<split].trimmingAttributionFrame
                return AttributionMatch(lines: first...last, strength: .strong, head: head)
            }
        }
        return nil
    }

    /// A `>` line that only closes the attribution above it: the line above broke inside "<ann@x.org" and the
    /// wrapper put the ">" of the address at the start of the next line (">:", "> wrote:").
    static func isClosingLine(_ index: Int, in lines: [Substring]) -> Bool {
        guard index > 0, lines[index].isQuotedLine else { return false }
        let body = lines[index].trimmedLeading.dropFirst().trimmed
        guard let end = body.last, end == ":" || end == "：", body.count <= 40, body.first != ">" else { return false }
        let above = lines[index - 1]
        guard !above.isQuotedLine, let open = above.lastIndex(of: "<") else { return false }
        return !above[open...].contains(">")
    }

    /// True when the line, after dashes and `*`, starts with a lead of ``AttributionTable``.
    static func opensWithLead(_ line: Substring) -> Bool {
        var body = line.trimmedLeading.utf8
        while let first = body.first, [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: " ")].contains(first) {
            body = body.dropFirst()
        }
        guard let first = body.first, AttributionTable.leadFirstBytes.contains(first) else { return false }
        return AttributionTable.leads.contains { body.starts(with: $0) }
    }

    /// Starts in lowercase, with "<" or "(", or in a caseless script: the line continues the one above. A digit
    /// does not: a date opens an attribution of its own ("Replying ok\n2011/4/7 Ann <ann@x.org>").
    private static func startsAsFragment(_ line: Substring) -> Bool {
        guard let first = line.trimmedLeading.first else { return false }
        if first == "<" || first == "(" || first.isLowercase { return true }
        return first.isLetter && !first.isUppercase
    }

    /// A line that ends a sentence. With `allowingDates`, a line that ends in a day number ("28.") or in a short
    /// abbreviation before a digit or lowercase ("kl.\n10.00", "mar.\n5 mars") does not.
    static func endsSentence(_ line: Substring, before next: Substring, allowingDates: Bool) -> Bool {
        let body = line.trimmedTrailing
        guard let last = body.last, last == "." || last == "!" || last == "?" || last == "。" else { return false }
        guard last == ".", allowingDates else { return true }
        let word = body.dropLast().reversed().prefix { !$0.isWhitespace && $0 != "," }
        if !word.isEmpty && word.count <= 2 && word.allSatisfy(\.isNumber) { return false }
        let isAbbreviation = word.count <= 5 && word.allSatisfy { $0.isLetter || $0.isNumber }
        guard isAbbreviation, let nextFirst = next.trimmedLeading.first else { return true }
        return !(nextFirst.isNumber || nextFirst.isLowercase)
    }

    private static func lineHasDate(_ line: Substring) -> Bool {
        Evidence(Array(line.utf8)).hasDate
    }
}

extension Substring {
    /// The text without the spaces, dashes and `*` that frame an attribution.
    var trimmingAttributionFrame: Substring {
        var text = self
        while let last = text.last, last == " " || last == "-" || last == "*" || last == "\t" { text = text.dropLast() }
        return text
    }
}
