/// Removes the sender's signature: the block after a "-- " separator, or a trailing mobile-client footer.
///
/// Runs after ``QuoteStripper``, so "the end of the message" is the end of the reply, and stops at a forwarded
/// message marker: a signature above a forward never swallows the forwarded content.
public enum SignatureStripper {
    /// Lines after a bare "--" (no trailing space) that still count as a signature.
    static let maximumBareSeparatorLines = 10
    /// A line longer than this after a bare "--" means it was not a signature separator…
    static let maximumBareSeparatorLineLength = 72
    /// …unless the block starts with a name-like line this short (a long company footer may follow it).
    static let maximumNameLineLength = 40
    /// Lines after a bare "--" that opens with a name; more is not a signature.
    static let maximumSignatureLines = 30
    /// Visible lines at the end of the reply searched for a mobile footer.
    static let footerWindow = 4
    /// Longest line taken for a footer.
    static let maximumFooterLength = 100

    /// Removes the signature from the lines.
    ///
    /// A signature is kept when removing it would leave no visible text: a message that is only a signature
    /// (or only "Sent from my iPhone") still shows something.
    /// - Returns: the remaining lines and whether anything was removed.
    public static func strip(_ lines: [Substring]) -> (kept: [Substring], removed: Bool) {
        let end = lines.firstIndex { $0.startsWithBytes(ForwardDetector.markerPrefix) } ?? lines.count
        var kept = Array(lines[..<end])
        var removed = false

        if let footer = listFooterStart(in: kept) {
            let candidate = Array(kept[..<footer])
            if candidate.hasVisibleText {
                kept = candidate
                removed = true
            }
        }
        if let separator = separatorIndex(in: kept) {
            let candidate = Array(kept[..<separator])
            if candidate.hasVisibleText {
                kept = candidate
                removed = true
            }
        }
        if let footer = footerStart(in: kept) {
            let candidate = Array(kept[..<footer])
            if candidate.hasVisibleText {
                kept = candidate
                removed = true
            }
        }
        return (kept + lines[end...], removed)
    }

    /// The first "-- " separator, or the first bare "--" that a signature follows: a few short lines, a name-like
    /// line (a company footer may come after it), or only client footers.
    static func separatorIndex(in lines: [Substring]) -> Int? {
        if let standard = lines.firstIndex(where: { $0 == "-- " }) { return standard }
        for bare in lines.indices where lines[bare].trimmedTrailing == "--" {
            let after = lines[(bare + 1)...].filter { !$0.isBlankLine }
            guard let first = after.first, !after.contains(where: \.isQuotedLine) else { continue }
            if after.count <= maximumBareSeparatorLines
                && after.allSatisfy({ $0.count <= maximumBareSeparatorLineLength })
            {
                return bare
            }
            if after.count <= maximumSignatureLines && isNameLike(first) { return bare }
            if after.allSatisfy(isFooter) { return bare }
        }
        return nil
    }

    /// Where a mailing list's footer starts: a rule (`____`, `---`) above a few lines that link to the list or
    /// tell how to unsubscribe (Mailman, which most lists run, appends exactly that), or the archive's
    /// "-------------- next part --------------" note about a scrubbed attachment.
    static func listFooterStart(in lines: [Substring]) -> Int? {
        guard let last = lines.lastIndex(where: { !$0.isBlankLine }) else { return nil }
        var index = last + 1
        var seen = 0
        var start: Int?
        while index > 0 && seen < 12 {
            index -= 1
            if lines[index].isBlankLine { continue }
            seen += 1
            if dashedPhrase(lines[index]) == "next part" {
                start = index
                continue
            }
            guard seen > 1, seen <= 7, isListRule(lines[index]) else { continue }
            let footer = Array(lines[(index + 1)...last].joined(separator: "\n").lowercased().utf8)
            let contains = { (word: String) in
                AttributionPatterns.firstRange(of: Array(word.utf8), in: footer, from: 0) != nil
            }
            let linked = contains("http") || contains("@") || contains(" at ")
            if linked && FooterTable.listFooterWords.contains(where: contains) { start = index }
        }
        return start
    }

    /// Three or more `_`, `-` or `=`, alone on the line.
    private static func isListRule(_ line: Substring) -> Bool {
        let body = line.trimmed.utf8
        guard body.count >= 3, let first = body.first,
            first == UInt8(ascii: "_") || first == UInt8(ascii: "-") || first == UInt8(ascii: "=")
        else { return false }
        return body.allSatisfy { $0 == first }
    }

    /// A short line that does not read as a sentence: "Bob Smith", "ACME Corp | Sales".
    private static func isNameLike(_ line: Substring) -> Bool {
        let body = line.trimmed
        guard body.count <= maximumNameLineLength, let last = body.last else { return false }
        return !".!?:;".contains(last)
    }

    /// Where the trailing footer starts: the topmost footer line among the last few visible lines, with only
    /// footers (a BlackBerry footer has two, one per language) or their wrapped tails and links below it.
    static func footerStart(in lines: [Substring]) -> Int? {
        var start: Int?
        var seen = 0
        var index = lines.count - 1
        while index >= 0 && seen < footerWindow {
            defer { index -= 1 }
            if lines[index].isBlankLine { continue }
            seen += 1
            if isFooter(lines[index]) {
                start = index
            } else if !isFooterTail(index, in: lines) {
                break
            }
        }
        return start
    }

    /// A link or a short lowercase line directly under a footer line: its wrapped tail
    /// ("Get Outlook for Android\n<https://aka.ms/ghei36>").
    private static func isFooterTail(_ index: Int, in lines: [Substring]) -> Bool {
        guard index > 0, !lines[index - 1].isBlankLine, isFooter(lines[index - 1]) else { return false }
        let body = lines[index].trimmed
        guard body.count <= 60, let first = body.first else { return false }
        return first.isLowercase || first == "<" || body.hasPrefix("http") || body.hasPrefix("[")
    }

    /// True for a mobile or web client footer line: a footer phrase that names a device or an app.
    static func isFooter(_ line: Substring) -> Bool {
        let body = line.trimmed
        guard let first = body.utf8.first, first != UInt8(ascii: ">"), body.utf8.count <= 4 * maximumFooterLength else {
            return false
        }
        // Cheap before lowercasing: the first byte could open a footer phrase, or the line ends like one.
        let opening = first < 0x80 ? first | 0x20 : first
        guard
            FooterTable.prefixFirstBytes.contains(opening)
                || FooterTable.suffixes.contains(where: { suffix in
                    body.utf8.count >= suffix.utf8.count
                        && body.utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
                })
        else { return false }
        guard body.count <= maximumFooterLength else { return false }
        // The rest compares bytes: String's hasPrefix and contains walk Characters (or go through Foundation).
        var lowered = Array(body.lowercased().utf8)[...]
        while let last = lowered.last, last == UInt8(ascii: ".") || last == UInt8(ascii: "!") { lowered.removeLast() }
        let frame: [UInt8] = [UInt8(ascii: "("), UInt8(ascii: "<"), UInt8(ascii: "["), UInt8(ascii: "*")]
        while let head = lowered.first, frame.contains(head) { lowered.removeFirst() }
        guard
            FooterTable.prefixBytes.contains(where: { lowered.starts(with: $0) })
                || FooterTable.suffixBytes.contains(where: { lowered.reversed().starts(with: $0.reversed()) })
        else { return false }
        guard lowered.split(separator: UInt8(ascii: " ")).count <= 14 else { return false }
        let bytes = Array(lowered)
        return FooterTable.deviceBytes.contains { AttributionPatterns.firstRange(of: $0, in: bytes, from: 0) != nil }
    }
}
