/// Removes quoted replies from a plain-text message, working on raw lines before any unwrapping: unwrapping first
/// would merge `>` lines, attributions and header blocks into the prose around them.
///
/// Works on `[Substring]` so the scanners slice the caller's text without copying; the only new strings are the
/// forward marker lines.
public enum QuoteStripper {
    /// Removes quotes, attributions, Outlook header blocks and "Original Message" tails; condenses forwards.
    ///
    /// In order:
    /// 1. The first of these on an unquoted line below some reply text cuts the message there, because everything
    ///    after it is the original, `>`-quoted or not: a "-----Original Message-----" separator, an Outlook header
    ///    block, or an attribution with a date or address ("On … wrote:", see ``AttributionStrength/strong``)
    ///    followed by unquoted text (Outlook, Apple Mail and phones send the original that way). An attribution
    ///    that starts inside the reply's last line ("Thanks. On … wrote:") is split off it.
    /// 2. The first forward marker ("---------- Forwarded message ---------", "Begin forwarded message:") ends the
    ///    reply too, but the forwarded content is kept, its headers condensed into "↪ Forwarded message from …".
    /// 3. Above that point, `>` blocks are removed when they hold 2+ quoted lines (blank lines inside a block do
    ///    not split it, nor does a wrapped tail that lost its `>`) or when an attribution introduces them; a single
    ///    `>` line inside prose stays, unless it opens a paragraph below an attribution's block (the next question
    ///    of an inline reply). Reply text between blocks stays; an inline reply also keeps the quotes it answers
    ///    (see ``InterleavedReply``).
    /// 4. An attribution directly above a quote block is removed with it; an anchored one at the very end of the
    ///    reply is removed alone.
    ///
    /// When nothing visible would remain, the input is returned unchanged with both flags false: a message that is
    /// only a quote still gets a bubble.
    /// - Parameter isForward: the message's subject marks a forward ("Fwd:", "WG:"…): a header block or "Original
    ///   Message" separator then introduces the forwarded message (Outlook forwards the way it replies), which is
    ///   shown, not cut.
    /// - Returns: the kept lines, whether a quote was removed, and whether a forward was found.
    public static func strip(_ lines: [Substring], isForward: Bool = false)
        -> (kept: [Substring], removed: Bool, forwarded: Bool)
    {
        var replyEnd = lines.count
        var forwardStart: Int?
        var forwardOpensWithHeaders = false
        var cutHead: Substring?
        for index in lines.indices where !lines[index].isBlankLine {
            let line = lines[index]
            // A patch is code to the end: its header lines and "From:"/"Date:" trailers are not a reply's.
            if line.startsWithBytes("diff --git ") || line.startsWithBytes("--- a/") || line.startsWithBytes("Index: ")
            {
                break
            }
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
                if isForward { (forwardStart, forwardOpensWithHeaders) = (index, true) }
                break
            }
            if let start = OutlookHeaderBlock.start(at: index, in: lines) {
                replyEnd = start
                if isForward { (forwardStart, forwardOpensWithHeaders) = (start, true) }
                break
            }
            if let attribution = unquotedOriginal(endingAt: index, in: lines),
                attribution.head != nil || lines[..<attribution.lines.lowerBound].hasUnquotedText
            {
                replyEnd = attribution.lines.lowerBound
                cutHead = attribution.head
                break
            }
            if opensFlattenedOriginal(line), lines[..<index].hasUnquotedText {
                replyEnd = index
                break
            }
        }

        var keep = [Bool](repeating: true, count: replyEnd)
        var heads: [Int: Substring] = [:]
        removeQuoteBlocks(lines, upTo: replyEnd, keep: &keep, heads: &heads)
        var removed = (replyEnd < lines.count && forwardStart == nil) || keep.contains(false)

        // An anchored attribution left at the end of the reply introduced a quote that is gone already.
        if cutHead == nil, let last = keep.indices.last(where: { keep[$0] && !lines[$0].isBlankLine }),
            let match = AttributionFinder.attribution(endingAt: last, in: lines, lowerBound: 0, keep: keep),
            match.strength >= .anchored
        {
            for index in match.lines { keep[index] = false }
            if let head = match.head { heads[match.lines.lowerBound] = head }
            removed = true
        }

        var kept: [Substring] = []
        kept.reserveCapacity(lines.count)
        for index in 0..<replyEnd {
            if let head = heads[index] {
                kept.append(head)
            } else if keep[index] {
                kept.append(lines[index])
            }
        }
        if let cutHead { kept.append(cutHead) }
        if let forwardStart {
            kept += ForwardDetector.condense(lines[forwardStart...], opensWithHeaders: forwardOpensWithHeaders)
        }

        guard kept.hasVisibleText else { return (lines, false, false) }
        return (kept, removed, forwardStart != nil)
    }

    /// A strong attribution ending on line `index` with unquoted text below it: the original, sent unquoted.
    private static func unquotedOriginal(endingAt index: Int, in lines: [Substring]) -> AttributionMatch? {
        guard let end = lines[index].attributionTerminator, end == ":" || end == "：" || end == "-" else { return nil }
        // Cheap before the table: a strong attribution has a digit (date, time) or an "@" in its lines.
        let window = lines[max(0, index - 2)...index]
        guard window.contains(where: { $0.utf8.contains(where: { isDigit($0) || $0 == UInt8(ascii: "@") }) }) else {
            return nil
        }
        guard let match = AttributionFinder.attribution(endingAt: index, in: lines, lowerBound: 0, keep: []),
            match.strength == .strong,
            let next = lines[(index + 1)...].firstIndex(where: { !$0.isBlankLine })
        else { return nil }
        // The paragraph below must be unquoted: "<snip>\n> …" is a `>` quote with a note in it.
        let paragraph = lines[next...].prefix { !$0.isBlankLine }
        return paragraph.contains(where: \.isQuotedLine) ? nil : match
    }

    /// "On …, Ann <ann@x.org> wrote:   Hi Bob, …": Yahoo Mail puts the original on the attribution's own line,
    /// after a few spaces.
    private static func opensFlattenedOriginal(_ line: Substring) -> Bool {
        guard AttributionFinder.opensWithLead(line), let colon = line.indexOfColonBeforeGap else { return false }
        let attribution = line[...colon]
        return AttributionPatterns.match([attribution][...]) == .strong
    }

    /// Marks `>` blocks (and the attributions introducing them) in `0..<end` as removed, except the quotes an
    /// inline reply answers (see ``InterleavedReply``).
    private static func removeQuoteBlocks(
        _ lines: [Substring], upTo end: Int, keep: inout [Bool], heads: inout [Int: Substring]
    ) {
        var index = 0
        var lowerBound = 0  // attributions never reach back across an earlier block
        var answering = false  // an attribution introduced an earlier block: this is an inline reply
        var blocks: [QuoteBlock] = []
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
                } else if isWrappedTail(cursor, in: lines, end: end) {
                    lastQuoted = cursor
                } else if !lines[cursor].isBlankLine {
                    break
                }
                cursor += 1
            }
            let blockEnd = lastQuoted + 1
            let introduction: AttributionMatch?
            if AttributionFinder.isClosingLine(index, in: lines) {
                introduction = AttributionFinder.attribution(
                    endingAt: index, in: lines, lowerBound: lowerBound, keep: keep)
            } else if let above = lines[lowerBound..<index].lastIndex(where: { !$0.isBlankLine }) {
                introduction = AttributionFinder.attribution(
                    endingAt: above, in: lines, lowerBound: lowerBound, keep: keep, allowMissingColon: true)
            } else {
                introduction = nil
            }
            let asked = answering && (index == 0 || lines[index - 1].isBlankLine)
            let standalone = isStandaloneQuote(index, blockEnd, in: lines, end: end)
            if quotedCount >= 2 || introduction != nil || asked || standalone {
                blocks.append(QuoteBlock(lines: index..<blockEnd, introduction: introduction))
                if introduction != nil { answering = true }
            }
            index = blockEnd
            lowerBound = blockEnd
        }

        let answered = InterleavedReply.answeredQuotes(blocks, in: lines, upTo: end)
        for (number, block) in blocks.enumerated() {
            if !answered.contains(number) {
                for removed in block.lines { keep[removed] = false }
            }
            if let introduction = block.introduction {
                for removed in introduction.lines { keep[removed] = false }
                if let head = introduction.head { heads[introduction.lines.lowerBound] = head }
            }
        }
    }

    /// A short unquoted line between two `>` lines that finishes the quoted sentence above it: the quote was
    /// re-wrapped after quoting and the tail lost its `>` ("> … for 76\ncolumns and\n> …"). The line above must be
    /// long (it was full) and open (no closing punctuation), and the tail must not start a sentence of its own:
    /// "Yes." or "Agreed" between quotes is an inline reply and stays. A lone link between quote lines is the
    /// quote's too.
    private static func isWrappedTail(_ index: Int, in lines: [Substring], end: Int) -> Bool {
        guard index > 0, index + 1 < end, lines[index - 1].isQuotedLine, lines[index + 1].isQuotedLine else {
            return false
        }
        let line = lines[index].trimmed
        // A link the quoting broke out of its line: " (http://example.com/c/YzMmE) >".
        if line.count <= 80 && (line.hasPrefix("(http") || line.hasPrefix("<http") || line.hasPrefix("http")) {
            return true
        }
        guard !line.isEmpty, line.unicodeScalars.count <= 40, let first = line.first, !first.isUppercase else {
            return false
        }
        let above = lines[index - 1].trimmedTrailing
        guard above.unicodeScalars.count >= 60, let last = above.last else { return false }
        return !".!?:;。".contains(last)
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
        return AttributionFinder.attribution(endingAt: above, in: lines, lowerBound: 0, keep: []) == nil
    }
}

extension Substring {
    /// The first ":" followed by two spaces, found byte by byte (this runs on every line).
    fileprivate var indexOfColonBeforeGap: Index? {
        var spaces = -1  // -1: no colon yet
        var colon = utf8.startIndex
        for index in utf8.indices {
            let byte = utf8[index]
            if byte == UInt8(ascii: ":") {
                spaces = 0
                colon = index
            } else if byte == UInt8(ascii: " ") && spaces >= 0 {
                spaces += 1
                if spaces == 2 { return colon }
            } else {
                spaces = -1
            }
        }
        return nil
    }
}

extension Collection where Element == Substring {
    /// True when a line has visible text and is not `>`-quoted.
    var hasUnquotedText: Bool {
        contains { !$0.isBlankLine && !$0.isQuotedLine }
    }
}
