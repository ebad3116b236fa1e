/// Removes quoted replies from a plain-text message, working on raw lines before any unwrapping (lesson 11 in
/// `lessons-from-the-ios-app.md`: unwrapping first merges `>` lines and header blocks into prose).
///
/// Works on `[Substring]` so the scanners slice the caller's text without copying; the only new strings are the
/// forward marker lines.
public enum QuoteStripper {
    /// Removes quotes, attributions, Outlook header blocks and "Original Message" tails; condenses forwards.
    ///
    /// In order:
    /// 1. The first "-----Original Message-----" separator or Outlook header block on an unquoted line cuts the
    ///    message there: everything after it is the quoted original.
    /// 2. The first forward marker ("---------- Forwarded message ---------", "Begin forwarded message:") ends the
    ///    reply too, but the forwarded content is kept, its headers condensed into "↪ Forwarded message from …".
    /// 3. Above that point, `>` blocks are removed when they hold 2+ quoted lines (blank lines inside a block do
    ///    not split it) or when an attribution line introduces them; a single `>` line inside prose stays. Reply
    ///    text between blocks (inline replies) stays.
    /// 4. An attribution ("On … wrote:", anchored at line start, 1–3 lines) directly above a removed block is
    ///    removed with it; an anchored one at the very end of the reply is removed alone.
    ///
    /// When nothing visible would remain, the input is returned unchanged with both flags false: a message that is
    /// only a quote still gets a bubble.
    /// - Returns: the kept lines, whether a quote was removed, and whether a forward was found.
    public static func strip(_ lines: [Substring]) -> (kept: [Substring], removed: Bool, forwarded: Bool) {
        var replyEnd = lines.count
        var forwardStart: Int?
        for index in lines.indices where !lines[index].isBlankLine {
            let line = lines[index]
            if line.isQuotedLine {
                // Apple Mail quotes a whole forward, "> Begin forwarded message:" included; a quoted forward
                // under an attribution is an old forward inside a reply and stays a quote.
                guard isQuotedForwardStart(index, in: lines) else { continue }
                forwardStart = index
                replyEnd = index
                break
            }
            if ForwardDetector.isMarker(line) {
                forwardStart = index
                replyEnd = index
                break
            }
            if OriginalMessageSeparator.matches(line) {
                replyEnd = index
                break
            }
            if let start = OutlookHeaderBlock.start(at: index, in: lines) {
                replyEnd = start
                break
            }
        }

        var keep = [Bool](repeating: true, count: replyEnd)
        removeQuoteBlocks(lines, upTo: replyEnd, keep: &keep)
        var removed = (replyEnd < lines.count && forwardStart == nil) || keep.contains(false)

        // An anchored attribution left at the end of the reply introduced a quote that is gone already.
        if let last = keep.indices.last(where: { keep[$0] && !lines[$0].isBlankLine }),
            let range = attribution(endingAt: last, in: lines, lowerBound: 0, keep: keep), range.strength == .anchored
        {
            for index in range.lines { keep[index] = false }
            removed = true
        }

        var kept: [Substring] = []
        kept.reserveCapacity(lines.count)
        for index in 0..<replyEnd where keep[index] { kept.append(lines[index]) }
        if let forwardStart { kept += ForwardDetector.condense(lines[forwardStart...]) }

        guard kept.hasVisibleText else { return (lines, false, false) }
        return (kept, removed, forwardStart != nil)
    }

    /// Marks `>` blocks (and the attributions introducing them) in `0..<end` as removed.
    private static func removeQuoteBlocks(_ lines: [Substring], upTo end: Int, keep: inout [Bool]) {
        var index = 0
        var lowerBound = 0  // attributions never reach back across an earlier block
        while index < end {
            guard lines[index].isQuotedLine else {
                index += 1
                continue
            }
            var cursor = index
            var lastQuoted = index
            var quotedCount = 0
            while cursor < end {
                if lines[cursor].isQuotedLine {
                    lastQuoted = cursor
                    quotedCount += 1
                } else if !lines[cursor].isBlankLine {
                    break
                }
                cursor += 1
            }
            let blockEnd = lastQuoted + 1
            var intro: Int?
            if let above = lines[lowerBound..<index].lastIndex(where: { !$0.isBlankLine }) {
                intro = above
            }
            let introduction = intro.flatMap { attribution(endingAt: $0, in: lines, lowerBound: lowerBound, keep: keep) }
            if quotedCount >= 2 || introduction != nil || isStandaloneQuote(index, blockEnd, in: lines, end: end) {
                for removed in index..<blockEnd { keep[removed] = false }
                if let introduction {
                    for removed in introduction.lines { keep[removed] = false }
                }
            }
            index = blockEnd
            lowerBound = blockEnd
        }
    }

    /// A single `>` line is a quote when it ends the reply or stands alone between blank lines; touching prose it
    /// is more likely a code sample or a prompt, and stays.
    private static func isStandaloneQuote(_ index: Int, _ blockEnd: Int, in lines: [Substring], end: Int) -> Bool {
        let trailing = !lines[blockEnd..<end].hasVisibleText
        if trailing { return true }
        let touchesAbove = index > 0 && !lines[index - 1].isBlankLine
        let touchesBelow = blockEnd < end && !lines[blockEnd].isBlankLine
        return !touchesAbove && !touchesBelow
    }

    /// A quoted forward intro that opens its `>` block and has no attribution above it.
    private static func isQuotedForwardStart(_ index: Int, in lines: [Substring]) -> Bool {
        guard ForwardDetector.isMarker(lines[index]) else { return false }
        guard let above = lines[..<index].lastIndex(where: { !$0.isBlankLine }) else { return true }
        if lines[above].isQuotedLine { return false }
        let keep = [Bool](repeating: true, count: lines.count)
        return attribution(endingAt: above, in: lines, lowerBound: 0, keep: keep) == nil
    }

    /// The attribution whose last line is `last`, trying 1, 2 then 3 lines (a long name or address wraps).
    ///
    /// An anchored match wins at any length. An ending-only match grows upward only while the line above its
    /// first line is a wrapped fragment (the first line starts in lowercase, a digit, "<" or a caseless script),
    /// so "Sounds good.\nAnn wrote:" never takes "Sounds good." with it. No joined line but the last may end a
    /// sentence: "On Friday we ship.\nAnn wrote:" is prose plus an attribution, not one attribution.
    static func attribution(
        endingAt last: Int,
        in lines: [Substring],
        lowerBound: Int,
        keep: [Bool]
    ) -> (lines: ClosedRange<Int>, strength: AttributionStrength)? {
        var best: (lines: ClosedRange<Int>, strength: AttributionStrength)?
        var canGrowWeak = true
        for count in 1...3 {
            let first = last - count + 1
            guard first >= lowerBound else { break }
            let line = lines[first]
            if keep.indices.contains(first) && !keep[first] { break }
            if line.isBlankLine || line.isQuotedLine { break }
            if count > 1 && endsSentence(line) { break }
            switch AttributionPatterns.match(lines[first...last]) {
            case .anchored?:
                return (first...last, .anchored)
            case .needsQuote?:
                if canGrowWeak { best = (first...last, .needsQuote) }
            case nil:
                break
            }
            canGrowWeak = canGrowWeak && startsAsFragment(line)
        }
        return best
    }

    private static func startsAsFragment(_ line: Substring) -> Bool {
        guard let first = line.trimmedLeading.first else { return false }
        return !first.isUppercase
    }

    private static func endsSentence(_ line: Substring) -> Bool {
        guard let last = line.trimmedTrailing.last else { return false }
        return last == "." || last == "!" || last == "?" || last == "。"
    }
}
