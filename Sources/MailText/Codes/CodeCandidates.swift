/// A run of text that has the shape of a one-time code, before its context is judged.
struct CodeCandidate: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// Digits only ("482913", "123-456", "123 456").
        case digits
        /// Uppercase letters and at least one digit ("G-482913", "X7K2-9PQM").
        case mixed
        /// Uppercase letters only ("KQWZPT", "ABCD-EFGH"): accepted only right after a code phrase.
        case letters
    }

    /// Scalar offsets of the candidate in the scanned text (end exclusive).
    var start: Int
    var end: Int
    var code: String
    var normalized: String
    var kind: Kind
}

/// Finds code-shaped runs. A run is a maximal stretch of scalars between whitespace, brackets, quotes
/// and CJK text (which glues digits to words without spaces: "验证码是123456，5分钟内有效"), so a date,
/// a time, an amount, a URL or an address stays one run and fails the shape test as a whole.
enum CodeCandidates {
    static func find(in scalars: [Unicode.Scalar]) -> [CodeCandidate] {
        let chunks = self.chunks(scalars)
        var result: [CodeCandidate] = []
        var index = 0
        while index < chunks.count {
            let chunk = chunks[index]
            // Most runs are words: a scalar that is neither a digit, an uppercase letter nor a dash fails
            // both the digit-group test and the shape test, so the run is passed over without its string.
            guard scalars[chunk].allSatisfy({ isDigit($0) || isUpper($0) || $0 == "-" }) else {
                index += 1
                continue
            }
            let text = String(String.UnicodeScalarView(scalars[chunk]))
            var candidate: CodeCandidate?
            var last = index
            // "123 456": two equal groups of digits joined by one space.
            if index + 1 < chunks.count, isDigitGroup(text), chunks[index + 1].lowerBound == chunk.upperBound + 1,
                isSpace(scalars[chunk.upperBound])
            {
                let next = String(String.UnicodeScalarView(scalars[chunks[index + 1]]))
                if isDigitGroup(next), next.count == text.count {
                    candidate = CodeCandidate(
                        start: chunk.lowerBound, end: chunks[index + 1].upperBound,
                        code: text + String(scalars[chunk.upperBound]) + next, normalized: text + next,
                        kind: .digits)
                    last = index + 1
                }
            }
            if candidate == nil, let shaped = shape(text) {
                candidate = CodeCandidate(
                    start: chunk.lowerBound, end: chunk.upperBound, code: text, normalized: shaped.normalized,
                    kind: shaped.kind)
            }
            if let candidate,
                !hasNumericNeighbour(scalars, chunks, before: index, after: last)
            {
                result.append(candidate)
            }
            index = last + 1
        }
        return result
    }

    /// The runs of the text, trimmed of the punctuation that closes a sentence or marks emphasis.
    static func chunks(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start: Int?
        for index in 0...scalars.count {
            let breaks = index == scalars.count || isBreak(scalars[index])
            if breaks, let begin = start {
                var lower = begin
                var upper = index
                while lower < upper, "*_~".unicodeScalars.contains(scalars[lower]) { lower += 1 }
                while upper > lower, ".,;:!?*_~".unicodeScalars.contains(scalars[upper - 1]) { upper -= 1 }
                if lower < upper { result.append(lower..<upper) }
                start = nil
            } else if !breaks, start == nil {
                start = index
            }
        }
        return result
    }

    static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isWhitespace { return true }
        switch scalar.value {
        case 0x2E80...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x2010...0x201F: return true
        default: return "()[]{}<>\"'«»|".unicodeScalars.contains(scalar)
        }
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\u{A0}" || scalar == "\u{202F}" || scalar == "\u{2009}"
    }

    static func isDigitGroup(_ text: String) -> Bool {
        (3...4).contains(text.count) && text.unicodeScalars.allSatisfy(isDigit)
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    static func isUpper(_ scalar: Unicode.Scalar) -> Bool { ("A"..."Z").contains(scalar) }

    /// A phone number's other groups, a second date part or a long reference next to the run (on the same
    /// line, across at most a space and a bracket) mean the run is one piece of something longer.
    static func hasNumericNeighbour(_ scalars: [Unicode.Scalar], _ chunks: [Range<Int>], before: Int, after: Int)
        -> Bool
    {
        func isNumericish(_ range: Range<Int>) -> Bool {
            let slice = scalars[range]
            return slice.contains(where: isDigit)
                && slice.allSatisfy { isDigit($0) || "+-./()".unicodeScalars.contains($0) }
        }
        func joined(_ gap: Range<Int>) -> Bool {
            gap.count <= 3 && scalars[gap].allSatisfy { isSpace($0) || "()[]-".unicodeScalars.contains($0) }
        }
        if before > 0, joined(chunks[before - 1].upperBound..<chunks[before].lowerBound),
            isNumericish(chunks[before - 1])
        {
            return true
        }
        if after + 1 < chunks.count, joined(chunks[after].upperBound..<chunks[after + 1].lowerBound),
            isNumericish(chunks[after + 1])
        {
            return true
        }
        return false
    }

    /// The code shape of one run, or `nil`. Digits: 4–10, not a year. Dashed: equal groups of 3–5
    /// ("123-456", "ABCD-EFGH") or a 1–3 letter prefix before 4–8 digits ("G-482913"). Letters must be
    /// uppercase (lowercase mixed runs are hashes and ids), and an 8+ run of hex digits with both letters
    /// and digits is an id, not a code.
    static func shape(_ text: String) -> (normalized: String, kind: CodeCandidate.Kind)? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.allSatisfy({ isDigit($0) || isUpper($0) || $0 == "-" }) else { return nil }
        let groups = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let normalized = groups.joined()
        guard (4...10).contains(normalized.count), groups.allSatisfy({ !$0.isEmpty }), groups.count <= 3 else {
            return nil
        }
        let digits = normalized.unicodeScalars.filter(isDigit).count
        let kind: CodeCandidate.Kind =
            digits == normalized.count ? .digits : digits == 0 ? .letters : .mixed
        if groups.count > 1 {
            let prefixed =
                groups.count == 2 && (1...3).contains(groups[0].count)
                && groups[0].unicodeScalars.allSatisfy(isUpper) && (4...8).contains(groups[1].count)
                && groups[1].unicodeScalars.allSatisfy(isDigit)
            let equal = Set(groups.map(\.count)).count == 1 && (3...5).contains(groups[0].count)
            guard prefixed || equal else { return nil }
        }
        switch kind {
        case .digits:
            if normalized.count == 4, let year = Int(normalized), (1900...2099).contains(year) { return nil }
        case .mixed:
            let hex = normalized.unicodeScalars.allSatisfy { isDigit($0) || ("A"..."F").contains($0) }
            if hex && normalized.count >= 8 { return nil }
        case .letters:
            if groups.count == 1 && !(6...8).contains(normalized.count) { return nil }
        }
        return (normalized, kind)
    }
}
