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
        let lines = splitLines(text)
        let infos = lines.map(WrappedLine.init)
        guard let width = wrapWidth(infos) else { return text }
        let shortLimit = Int(Double(width) * shortLineRatio)

        var output: [String] = []
        output.reserveCapacity(lines.count)
        var current: String?
        var inListItem = false

        for (index, info) in infos.enumerated() {
            let line = lines[index]
            if info.startsPatch {
                // A patch is code to the end: its context lines start with a space, "+" or "-".
                if let finished = current { output.append(finished) }
                current = nil
                output.append(contentsOf: lines[index...].map(String.init))
                break
            }
            if let joined = current, index > 0,
                canJoin(infos[index - 1], info, inListItem: inListItem, width: width, shortLimit: shortLimit)
            {
                current = joined.hasSuffix("-") && joinsWithoutSpace(lines[index - 1], line)
                    ? joined + line.trimmedLeading
                    : joined + " " + line.trimmedLeading
                continue
            }
            if let finished = current { output.append(finished) }
            current = String(line)
            switch info.kind {
            case .listItem: inListItem = true
            case .blank, .quote, .code, .url, .structural: inListItem = false
            case .prose: inListItem = inListItem && info.indent > 0
            }
        }
        if let finished = current { output.append(finished) }
        return output.joined(separator: "\n")
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
