/// Re-joins paragraphs that a mail client hard-wrapped at 72–80 columns, so a bubble can wrap them itself.
///
/// The test is the one a greedy wrapper applies: a line was broken softly when the next line's first word would
/// not have fit on it. The wrap width is the longest prose line of the message. Punctuation alone is never used:
/// "Thanks." at the end of a long line is as likely to be wrapped as anything else.
///
/// Left alone: blank lines (paragraphs), list items (each starts a line; its indented continuation lines join it),
/// short lines (under 60% of the width: greetings, sign-offs, names), code (indented 4+ columns, symbol-heavy,
/// shell prompts, tables, and everything from the start of a patch on), `>` lines, lines ending in ":", URL-only
/// lines, "Key: value" field lines (trailers, headers), rules and forward markers. A message
/// with a prose line longer than ``maximumWrapWidth`` was not hard-wrapped and is returned unchanged.
public enum Unwrapper {
    /// Narrowest width treated as hard wrapping; narrower text is poetry, addresses or lists.
    static let minimumWrapWidth = 50
    /// Widest width treated as hard wrapping; a longer prose line means the client did not wrap.
    static let maximumWrapWidth = 100
    /// Lines shorter than this share of the width are intentional breaks.
    static let shortLineRatio = 0.6
    /// Slack for wrappers that count bytes or leave a trailing space: a line counts as full this close to the width.
    static let tolerance = 2

    /// Joins soft-wrapped lines; see the type's documentation for the rules.
    public static func unwrap(_ text: String) -> String {
        unwrapLines(splitLines(text)).joined(separator: "\n")
    }

    /// The line-array form ``PlainTextCleaner`` uses, saving a join and a split per message. Lines that are not
    /// joined are returned as the caller's own slices; only joined paragraphs allocate.
    static func unwrapLines(_ lines: [Substring]) -> [Substring] {
        let infos = lines.map(WrappedLine.init)
        guard let width = wrapWidth(infos) else { return lines }
        let shortLimit = Int(Double(width) * shortLineRatio)

        var output: [Substring] = []
        output.reserveCapacity(lines.count)
        var pending: Substring?  // the logical line being built, as long as nothing was joined to it
        var joined = ""  // its text once something was
        var isJoined = false
        var inListItem = false

        func flush() {
            if isJoined {
                output.append(Substring(joined))
            } else if let pending {
                output.append(pending)
            }
            pending = nil
            isJoined = false
        }

        for (index, info) in infos.enumerated() {
            let line = lines[index]
            if info.startsPatch {
                // A patch is code to the end: its context lines start with a space, "+" or "-".
                flush()
                output.append(contentsOf: lines[index...])
                return output
            }
            if let start = pending, index > 0,
                canJoin(infos[index - 1], info, inListItem: inListItem, width: width, shortLimit: shortLimit)
            {
                if !isJoined {
                    joined = String(start)
                    isJoined = true
                }
                // A wrapper that leaves the breaking space at the end of the line must not get two spaces.
                while let last = joined.last, last == " " || last == "\t" { joined.removeLast() }
                if !(joined.hasSuffix("-") && joinsWithoutSpace(lines[index - 1], line)) { joined += " " }
                joined += line.trimmedLeading
                continue
            }
            flush()
            pending = line
            switch info.kind {
            case .listItem: inListItem = true
            case .blank, .quote, .code, .url, .structural: inListItem = false
            case .prose: inListItem = inListItem && info.indent > 0
            }
        }
        flush()
        return output
    }

    /// The wrap width: the longest prose or list line, or nil when the text does not look hard-wrapped.
    static func wrapWidth(_ infos: [WrappedLine]) -> Int? {
        var width = 0
        for info in infos {
            switch info.kind {
            case .prose, .listItem:
                if info.length > maximumWrapWidth && info.hasInnerSpace { return nil }
                if info.length <= maximumWrapWidth { width = max(width, info.length) }
            case .blank, .quote, .code, .url, .structural:
                continue
            }
        }
        return width >= minimumWrapWidth ? width : nil
    }

    /// True when `next` continues the logical line that `previous` ends.
    static func canJoin(_ previous: WrappedLine, _ next: WrappedLine, inListItem: Bool, width: Int, shortLimit: Int)
        -> Bool
    {
        switch previous.kind {
        case .prose, .listItem: break
        case .blank, .quote, .code, .url, .structural: return false
        }
        switch next.kind {
        case .prose: break
        case .code where inListItem && next.indent <= 8: break  // "    continuation" of a nested list item
        case .listItem, .blank, .quote, .code, .url, .structural: return false
        }
        if next.indent > 0 && !inListItem { return false }  // an indented line outside a list is deliberate
        if previous.endsWithColon || next.isField { return false }
        if previous.length < shortLimit { return false }
        // "…the plan.\nThanks,\nAnn": a sign-off after a full line is where a short next line is not the tail of
        // the paragraph; a real tail continues the sentence the full line left open.
        if next.isFewWords && (next.endsWithComma || previous.endsSentence) {
            return false
        }
        return previous.length + 1 + next.firstWordLength > width - tolerance
    }

    /// "well-" + "known" joins as "well-known"; "foo -" + "bar" keeps its space.
    private static func joinsWithoutSpace(_ previous: Substring, _ next: Substring) -> Bool {
        let end = previous.trimmedTrailing.dropLast()  // drop the "-"
        guard let beforeHyphen = end.last, beforeHyphen.isLetter else { return false }
        return next.trimmedLeading.first?.isLowercase ?? false
    }
}
