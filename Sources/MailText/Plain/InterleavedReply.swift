/// A `>` block the stripper would remove, with the attribution above it.
struct QuoteBlock: Sendable {
    var lines: Range<Int>
    var introduction: AttributionMatch?
}

/// Tells an inline reply from a reply above or below a quote, and which of its quotes are answered.
///
/// An inline reply answers quotes one by one; shown without them, its answers ("Yes, room 4.", "Next week.")
/// read as non sequiturs, so the quotes it answers stay, with their `>`. Their attribution goes, and so does a
/// quote left unanswered at the end. A reply is inline when two or more quotes are answered, or when one is and
/// new text also stands above it; a reply above or below one quote is not, and loses the quote.
///
/// Text answers a quote when it comes after it, unless it is a signature, a footer, or a greeting or sign-off
/// ("Hi Ann,", "Cheers, Gene"); a sentence, however short ("Yes, room 4."), answers.
enum InterleavedReply {
    /// Indices into `blocks` of the quotes to keep: none unless the reply is inline.
    static func answeredQuotes(_ blocks: [QuoteBlock], in lines: [Substring], upTo end: Int) -> Set<Int> {
        guard !blocks.isEmpty else { return [] }
        var removed = [Bool](repeating: false, count: end)
        for block in blocks {
            for index in block.lines { removed[index] = true }
            if let introduction = block.introduction {
                for index in introduction.lines where index < end { removed[index] = true }
            }
        }
        // Where the answers are: the first line of each segment of new text that answers.
        var answers: [Int] = []
        var index = 0
        var inSignature = false
        while index < end {
            if removed[index] {
                if blocks.contains(where: { $0.lines.contains(index) }) { inSignature = false }
                index += 1
                continue
            }
            if lines[index].isBlankLine {
                index += 1
                continue
            }
            var segmentEnd = index
            while segmentEnd < end && !removed[segmentEnd] && !lines[segmentEnd].isBlankLine { segmentEnd += 1 }
            // A signature delimiter ends the new text; what follows it, up to the next quote, is signature.
            let signature =
                SignatureStripper.isFooter(lines[index])
                ? index : lines[index..<segmentEnd].firstIndex(where: startsSignature) ?? segmentEnd
            let segment = lines[index..<signature]
            if !inSignature && !segment.isEmpty && !isFormality(segment) { answers.append(index) }
            inSignature = inSignature || signature < segmentEnd
            index = segmentEnd
        }
        let answered = blocks.indices.filter { block in answers.contains { $0 >= blocks[block].lines.upperBound } }
        guard let first = answered.first else { return [] }
        let textAbove = answers.contains { $0 < blocks[first].lines.lowerBound }
        return answered.count >= 2 || textAbove ? Set(answered) : []
    }

    /// A signature delimiter, or a rule or dashed note (a mailing list's footer, an archive's "next part").
    /// (A client footer is looked for on a segment's first line only: it stands alone.)
    private static func startsSignature(_ line: Substring) -> Bool {
        let body = line.trimmed.utf8
        guard let first = body.first, [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "=")].contains(first) else {
            return false
        }
        if body.elementsEqual("--".utf8) || dashedPhrase(line) != nil { return true }
        return body.count >= 3 && body.allSatisfy { $0 == first }
    }

    /// At most two short lines that greet or sign off: "Hi Ann,", "Cheers,\nGene", "Thanks!". A sentence
    /// ("Still waiting for a quote.") or a question is not one.
    static func isFormality(_ segment: ArraySlice<Substring>) -> Bool {
        guard segment.count <= 2 else { return false }
        return segment.allSatisfy { line in
            let body = line.trimmed
            guard body.count <= 30, let last = body.last, last != "?" else { return false }
            if last == "," { return true }
            let words = body.split(separator: " ").count
            return words <= 3 && last != "."
        }
    }
}
