/// A one-time code found in a verification mail.
public struct VerificationCode: Sendable, Equatable {
    /// The code as shown, with the dashes or space the service put in it ("123-456", "G-482913").
    public var code: String
    /// The code without separators, for copying into a form.
    public var normalized: String
    /// A best guess at who sent it ("GitHub"), from the sender's display name or domain.
    public var service: String?

    public init(code: String, normalized: String, service: String?) {
        self.code = code
        self.normalized = normalized
        self.service = service
    }
}

/// Finds the one-time code in a verification mail, or says there is none.
///
/// Precision comes first: a wrong code shown as "your code" is worse than none. A code must have the
/// shape of one (see ``CodeCandidates``) and sit near a phrase that announces it (see ``CodePhrases``),
/// with no word between them that makes it an order, a booking or a phone number, and not in a meeting
/// invitation or a promotion. How close the phrase must be depends on how code-like the run is, because
/// model names ("X310", "RFC822") and capitalised words are common: digits count on the phrase's line or
/// alone on a later line; letters mixed with digits only right after the phrase ("code: F7QKT"), alone on
/// their line, or opening a line the phrase ends; letters alone (6–8, or dashed groups) only right after
/// the phrase ("Your code: KQWZPT"). Mail without any phrase costs one pass over its scalars.
public enum VerificationCodeDetector {
    /// How far before a candidate its phrase may end ("Your code is:\n\n482913"), in scalars.
    static let reachBefore = 160
    /// How far after a candidate its phrase may start, on the same line ("482913 is your code").
    static let reachAfter = 50
    /// How far before a digit code its phrase may end on the same line ("Your passcode for the payment of
    /// GBP 12.50 to SHOP LTD with card ending 1234 is 09817364"); farther phrases need the code on its own line.
    static let sameLineReach = 100

    /// The code in a message, given its subject, its bubble text (quotes and signatures removed) and sender.
    public static func detect(subject: String, text: String, from: MailAddress?) -> VerificationCode? {
        let scalars = Array((subject + "\n\n" + text).unicodeScalars)
        let lower = scalars.map(lowercased)
        let phrases = phraseHits(scalars, lower)
        guard !phrases.isEmpty else { return nil }
        var best: (score: Int, candidate: CodeCandidate)?
        for candidate in CodeCandidates.find(in: scalars) {
            guard let score = score(candidate, phrases: phrases, lower) else { continue }
            if best == nil || score < best!.score { best = (score, candidate) }
        }
        guard let best else { return nil }
        return VerificationCode(
            code: best.candidate.code, normalized: best.candidate.normalized, service: ServiceName.guess(from: from))
    }

    /// Where each phrase occurs, as scalar ranges; a "code" noun made into a promo code, a postcode or
    /// source code by its own word or its neighbours is left out.
    static func phraseHits(_ scalars: [Unicode.Scalar], _ lower: [Unicode.Scalar]) -> [Range<Int>] {
        var hits: [Range<Int>] = []
        let startsPhraseByASCII = CodePhrases.startsPhraseByASCII
        let startsPhraseByASCIIPair = CodePhrases.startsPhraseByASCIIPair
        for index in lower.indices {
            let value = lower[index].value
            if value < 0x80 {
                guard startsPhraseByASCII[Int(value)] else { continue }
                if index + 1 < lower.count, lower[index + 1].value < 0x80,
                    !startsPhraseByASCIIPair[Int(value) << 7 | Int(lower[index + 1].value)]
                {
                    continue
                }
            }
            guard let phrases = CodePhrases.byFirstScalar[lower[index]] else { continue }
            for phrase in phrases where matches(phrase, at: index, scalars, lower) {
                let range = index..<(index + phrase.scalars.count)
                if phrase.isGenericNoun && isOtherKindOfCode(range, lower) { continue }
                hits.append(range)
            }
        }
        return hits
    }

    static func matches(_ phrase: CodePhrase, at index: Int, _ scalars: [Unicode.Scalar], _ lower: [Unicode.Scalar])
        -> Bool
    {
        let end = index + phrase.scalars.count
        guard end <= lower.count, lower[index..<end].elementsEqual(phrase.scalars) else { return false }
        if phrase.wordStart, index > 0, isWordScalar(lower[index - 1]) { return false }
        if phrase.wordEnd, end < lower.count, isWordScalar(lower[end]) { return false }
        if phrase.uppercase, scalars[index..<end].contains(where: { $0.properties.isLowercase }) { return false }
        return true
    }

    /// Whether the word holding a "code" noun, or the word on either side, names another kind of code.
    static func isOtherKindOfCode(_ range: Range<Int>, _ lower: [Unicode.Scalar]) -> Bool {
        var start = range.lowerBound
        while start > 0, isWordScalar(lower[start - 1]) { start -= 1 }
        var end = range.upperBound
        while end < lower.count, isWordScalar(lower[end]) { end += 1 }
        // One word each side, across spaces and hyphens ("promo code", "code promo", "QR-Code").
        var before = start
        while before > 0, before > start - 3, !isWordScalar(lower[before - 1]) { before -= 1 }
        while before > 0, isWordScalar(lower[before - 1]) { before -= 1 }
        // Two words after, for Romance constructions ("código de seguimiento", "code de réduction").
        var after = end
        for _ in 0..<2 {
            let limit = after + 3
            while after < lower.count, after < limit, !isWordScalar(lower[after]) { after += 1 }
            while after < lower.count, isWordScalar(lower[after]) { after += 1 }
        }
        return hasNounVeto(String(String.UnicodeScalarView(lower[before..<after])))
    }

    /// Whether one of ``CodePhrases/nounVetoes`` occurs in `words` (as characters).
    static func hasNounVeto(_ words: String) -> Bool {
        let wordBytes = Array(words.utf8)
        return CodePhrases.nounVetoBytes.contains { veto in
            // No character but itself is canonically equivalent to a lowercase ASCII letter, so an ASCII
            // veto can only match where its bytes occur; the byte search rules most vetoes out cheaply.
            if let bytes = veto.asciiBytes, !Self.contains(bytes, in: wordBytes) { return false }
            return words.contains(veto.text)
        }
    }

    /// How well a phrase announces the candidate (lower is better), or `nil` when nothing does.
    static func score(
        _ candidate: CodeCandidate, phrases: [Range<Int>], _ lower: [Unicode.Scalar]
    ) -> Int? {
        let before = phrases.last { $0.upperBound <= candidate.start && candidate.start - $0.upperBound <= reachBefore }
        let after = phrases.first {
            $0.lowerBound >= candidate.end && $0.lowerBound - candidate.end <= reachAfter
                && !lower[candidate.end..<$0.lowerBound].contains("\n")
        }
        let lineStart = lower[..<candidate.start].lastIndex(of: "\n").map { $0 + 1 } ?? 0
        let previous = String(String.UnicodeScalarView(lower[lineStart..<candidate.start]))
            .split(whereSeparator: { $0.isWhitespace || ":#.".contains($0) }).suffix(2)
        if previous.contains(where: { CodePhrases.nearVetoes.contains(String($0)) }) { return nil }
        let lineEnd = lower[candidate.end...].firstIndex(of: "\n") ?? lower.count
        let sceneStart = min(lineStart, max(0, candidate.start - 120))
        if contains(CodePhrases.sceneVetoes, in: lower[sceneStart..<lineEnd]) { return nil }
        let standsAlone = isAlone(candidate, lower[lineStart..<lineEnd])
        if let before {
            let gap = lower[before.upperBound..<candidate.start]
            let direct = isDirect(gap)
            let sameLine = !gap.contains("\n") && gap.count <= sameLineReach
            let accepted: Bool
            switch candidate.kind {
            case .digits: accepted = direct || standsAlone || sameLine
            case .mixed: accepted = direct || standsAlone
            case .letters: accepted = direct
            }
            if accepted && !contains(CodePhrases.contextVetoes, in: gap.suffix(40)) { return gap.count }
        }
        // "482913 is your code": the phrase follows on the same line; a mixed code must open the line.
        guard let after, candidate.kind != .letters else { return nil }
        if candidate.kind == .mixed && !lower[lineStart..<candidate.start].allSatisfy(\.isWhitespace) {
            return nil
        }
        let gap = lower[max(lineStart, candidate.start - 40)..<candidate.start]
        if contains(CodePhrases.contextVetoes, in: gap) { return nil }
        return lower.distance(from: candidate.end, to: after.lowerBound) + 20
    }

    /// Whether the candidate is the only thing on its line, apart from emphasis and brackets.
    static func isAlone(_ candidate: CodeCandidate, _ line: ArraySlice<Unicode.Scalar>) -> Bool {
        line.indices.allSatisfy { index in
            (candidate.start..<candidate.end).contains(index) || line[index].isWhitespace
                || "*_[]()".unicodeScalars.contains(line[index])
        }
    }

    /// Whether only separators and a connector word or two stand between a phrase and a letter code.
    static func isDirect(_ gap: ArraySlice<Unicode.Scalar>) -> Bool {
        let words = String(String.UnicodeScalarView(gap)).split { $0.isWhitespace || ":：-–—=".contains($0) }
        return words.count <= 2 && words.allSatisfy { CodePhrases.connectors.contains(String($0)) }
    }

    /// Whether any of `words` starts a word inside `slice`.
    static func contains(_ words: [String], in slice: ArraySlice<Unicode.Scalar>) -> Bool {
        guard !slice.isEmpty else { return false }
        for word in words {
            let target = Array(word.unicodeScalars)
            guard target.count <= slice.count else { continue }
            var index = slice.startIndex
            while index + target.count <= slice.endIndex {
                if slice[index] == target[0], index == slice.startIndex || !isWordScalar(slice[index - 1]),
                    slice[index..<(index + target.count)].elementsEqual(target)
                {
                    return true
                }
                index += 1
            }
        }
        return false
    }

    /// Whether `needle` occurs in `haystack`, byte for byte.
    static func contains(_ needle: [UInt8], in haystack: [UInt8]) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        var index = 0
        while index + needle.count <= haystack.count {
            if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return true
            }
            index += 1
        }
        return false
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || CodeCandidates.isDigit(scalar)
    }

    /// A one-to-one lowercase mapping, so offsets in the lowercased copy are offsets in the text.
    static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }
        let mapping = scalar.properties.lowercaseMapping.unicodeScalars
        return mapping.count == 1 ? mapping.first! : scalar
    }
}
