import Foundation

/// How much an attribution proves on its own, weakest first.
enum AttributionStrength: Int, Comparable, Sendable {
    /// Only a verb ("Ann wrote:", "… пишет:"): an attribution only when a `>` quote follows directly.
    case weak
    /// Opens with a lead ("On Friday, Ann wrote:"): also removed at the very end of the reply, where the quote it
    /// introduced is already gone.
    case anchored
    /// Has a date, a time or an address as well ("On Mon, 1 Jan 2024 at 10:00, Ann <ann@x.org> wrote:"): it also
    /// introduces an original that is not `>`-quoted, so everything below it can go.
    case strong

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// One level down, for an attribution that lost its colon.
    var weakened: Self? {
        switch self {
        case .strong: .anchored
        case .anchored: .weak
        case .weak: nil
        }
    }
}

/// Matches attribution lines against ``AttributionTable`` and the "<date> <name> <address>:" shape.
///
/// Works on the UTF-8 bytes of a normalized candidate: the table's fixed words are compared byte for byte, and
/// the date, name and address between them are never parsed, only checked for digits and "@".
enum AttributionPatterns {
    /// Longest normalized candidate tried, in Unicode scalars; longer text is prose, not an attribution.
    static let maximumLength = 320
    /// Longest text before the verb of a template without a lead (a name, an address, maybe a date).
    static let maximumHeadBytes = 300

    /// A candidate ready for matching: lines joined, spacing and colons normalized, the final colon removed.
    struct Candidate {
        var bytes: [UInt8]
        /// Ended with a colon, or with the dashes of a "---- Ann wrote ----" line.
        var terminated: Bool
        var length: Int
    }

    /// The strongest reading of 1–3 consecutive lines as one attribution, or nil.
    ///
    /// The last line may be a quoted closing line (">:", "> wrote:") when the line above broke inside an address.
    /// - Parameter allowMissingColon: accept "… wrote" without its colon, one level weaker (for a line directly
    ///   above a `>` quote, where the quote is the proof).
    static func match(_ lines: ArraySlice<Substring>, allowMissingColon: Bool = false) -> AttributionStrength? {
        guard let last = lines.last else { return nil }
        // "---" under a "Signed-off-by: Ann <ann@x.org>" line is a rule, not the dashes of "---- Ann wrote ----".
        guard last.contains(where: { $0 != "-" && !$0.isWhitespace }) else { return nil }
        let end = last.attributionTerminator
        if end != ":" && end != "：" && end != "-" {
            // Without its colon an attribution still has a date, an address or a lead to show for itself.
            guard allowMissingColon,
                lines.contains(where: { line in
                    line.utf8.contains { isDigit($0) || $0 == UInt8(ascii: "@") }
                        || AttributionFinder.opensWithLead(line)
                })
            else { return nil }
        }
        return match(normalize(lines), allowMissingColon: allowMissingColon)
    }

    static func match(_ candidate: Candidate, allowMissingColon: Bool) -> AttributionStrength? {
        guard candidate.length <= maximumLength, !candidate.bytes.isEmpty else { return nil }
        guard candidate.terminated || allowMissingColon else { return nil }
        let evidence = Evidence(candidate.bytes)
        var best = addressShape(candidate.bytes, evidence: evidence)
        for template in AttributionTable.templates where best != .strong {
            guard let strength = match(template, candidate.bytes, evidence: evidence) else { continue }
            best = max(best ?? strength, strength)
        }
        return candidate.terminated ? best : best?.weakened
    }

    /// "<date> <name> <address>:" as Gmail writes it in Japanese, Russian, Hebrew, Arabic and more, or mutt's
    /// "* Ann <ann@x.org> [2024-03-05 10:02:41 +0000]:". No verb is needed, so it takes a date or time as well as
    /// the address (also written "ann at x.org", as list archives do), and nothing may follow the address: "On 5
    /// March 2024, Bob <bob@x.org> asked:" is a sentence.
    private static func addressShape(_ bytes: [UInt8], evidence: Evidence) -> AttributionStrength? {
        guard evidence.hasTime || evidence.hasYear, let close = bytes.last,
            close == UInt8(ascii: ">") || close == UInt8(ascii: ")") || close == UInt8(ascii: "]")
        else { return nil }
        if evidence.hasAddress { return .strong }
        // "<jgb at example.com>": the bracket closing the address ends the line.
        let end = bytes.count - 1
        guard close == UInt8(ascii: ">"), let open = bytes[..<end].lastIndex(of: UInt8(ascii: "<")),
            firstRange(of: Array(" at ".utf8), in: Array(bytes[open..<end]), from: 0) != nil
        else { return nil }
        return .strong
    }

    private static func match(_ template: AttributionTemplate, _ bytes: [UInt8], evidence: Evidence)
        -> AttributionStrength?
    {
        var start = 0
        if let lead = template.leadBytes {
            guard bytes.starts(with: lead) else { return nil }
            start = lead.count
        }
        guard let verb = template.verbBytes else {
            // A lead and then the author: "נכתב על ידי Ann:".
            let rest = bytes.count - start
            guard rest > 0 && rest <= maximumHeadBytes else { return nil }
            return evidence.isStrong ? .strong : .weak
        }
        // Most verbs end the line: a suffix test then does instead of a search.
        if template.tails == .none && !bytes.endsWith(verb.drop { $0 == UInt8(ascii: " ") }) { return nil }
        guard let position = verbRange(verb, in: bytes, from: start) else { return nil }
        let head = bytes[start..<position.lowerBound]
        let tail = bytes[position.upperBound...]
        guard tailFits(tail, head: head, tails: template.tails) else { return nil }
        if template.lead == nil {
            guard head.count <= maximumHeadBytes, !containsSentenceBreak(head) else { return nil }
        }
        if evidence.isStrong { return .strong }
        return template.lead == nil ? .weak : .anchored
    }

    private static func tailFits(_ tail: ArraySlice<UInt8>, head: ArraySlice<UInt8>, tails: AttributionTail) -> Bool {
        guard let first = tail.first else { return tails.contains(.none) }
        // The verb must end a word: " schrieb am …", " escreveu (segunda, …)".
        guard first == UInt8(ascii: " ") || first == UInt8(ascii: "(") || first == UInt8(ascii: ",") else {
            return false
        }
        if tails.contains(.date) && tail.count <= 120 && tail.contains(where: isDigit) { return true }
        if tails.contains(.name) && tail.count <= maximumHeadBytes { return true }
        if tails.contains(.nameAfterDate) && tail.count <= maximumHeadBytes && head.contains(where: isDigit) {
            return true
        }
        return false
    }

    /// ". " or "! " before a capital inside the text before a verb: "Thanks. Ann wrote:" is a sentence and then an
    /// attribution, not a name. Abbreviations ("Mrs. Ann", "1. Jan.") are not breaks.
    static func containsSentenceBreak(_ bytes: ArraySlice<UInt8>) -> Bool {
        lastSentenceStart(bytes) != nil
    }

    /// Where the last sentence starts after a break (see ``containsSentenceBreak(_:)``), or nil.
    static func lastSentenceStart(_ bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.endIndex - 1
        while index >= bytes.startIndex {
            defer { index -= 1 }
            let byte = bytes[index]
            if byte == 0x82 && index >= bytes.startIndex + 2 && bytes[index - 1] == 0x80 && bytes[index - 2] == 0xE3 {
                return index + 1  // "。"
            }
            let isStop = byte == UInt8(ascii: ".") || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
            guard isStop, index + 2 < bytes.endIndex, bytes[index + 1] == UInt8(ascii: " ") else { continue }
            guard startsWithCapital(bytes[(index + 2)...]) else { continue }
            if byte != UInt8(ascii: ".") || endsSentenceWord(bytes[bytes.startIndex..<index]) { return index + 2 }
        }
        return nil
    }

    /// True when the text starts with an uppercase letter, in any script.
    private static func startsWithCapital(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first else { return false }
        if first < 0x80 { return first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") }
        let scalar = String(decoding: bytes.prefix(4), as: UTF8.self).unicodeScalars.first
        return scalar?.properties.isUppercase ?? false
    }

    /// True when the word before a period ends a sentence: two or more letters that are not an honorific, a time
    /// ("10:00.") or a year; a day number ("1.") or an initial ("J.") does not.
    private static func endsSentenceWord(_ bytes: ArraySlice<UInt8>) -> Bool {
        var start = bytes.endIndex
        while start > bytes.startIndex && bytes[start - 1] != UInt8(ascii: " ") { start -= 1 }
        let word = bytes[start..<bytes.endIndex]
        if word.contains(UInt8(ascii: ":")) { return true }
        let letters = word.filter { ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z")) || $0 >= 0xC0 }
        if letters.isEmpty { return word.count >= 3 && word.allSatisfy(isDigit) }
        guard letters.count >= 2 else { return false }
        let lowered = String(decoding: letters.map { $0 < 0x80 ? $0 | 0x20 : $0 }, as: UTF8.self)
        return !AttributionTable.honorifics.contains(lowered)
    }

    /// Joins the lines with single spaces and irons out the differences between clients and locales: non-breaking
    /// and ideographic spaces, full-width colons, the space French puts before a colon, bidirectional marks around
    /// Hebrew and Arabic headers, `*bold*` markers, and the dashes of "---- Ann wrote ----".
    static func normalize(_ lines: ArraySlice<Substring>) -> Candidate {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        var unclosedAngle = false
        var hasCombiningMarks = false
        for line in lines {
            // A closing "> wrote:" line finishes an address the line above left open: no space before the ">".
            if !scalars.isEmpty { pendingSpace = !(unclosedAngle && line.trimmedLeading.first == ">") }
            for scalar in line.unicodeScalars {
                switch scalar {
                case " ", "\t", "\u{00A0}", "\u{202F}", "\u{2009}", "\u{3000}":
                    pendingSpace = !scalars.isEmpty
                case ":", "：":
                    pendingSpace = false  // French "a écrit :" and full-width colons read as "a écrit:"
                    scalars.append(":")
                case "\u{200B}", "\u{200E}", "\u{200F}", "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}", "\u{FEFF}":
                    continue
                default:
                    if pendingSpace { scalars.append(" ") }
                    pendingSpace = false
                    if scalar == "<" { unclosedAngle = true } else if scalar == ">" { unclosedAngle = false }
                    if scalar.value >= 0x300 && scalar.value <= 0x36F { hasCombiningMarks = true }
                    scalars.append(scalar)
                }
            }
        }
        var text = String(scalars)
        if hasCombiningMarks { text = text.precomposedStringWithCanonicalMapping }  // "e\u{301}crit" is "écrit"
        return trimmedCandidate(Array(text.utf8))
    }

    /// Strips the dashes and `*` around the candidate and its final colon.
    private static func trimmedCandidate(_ bytes: [UInt8]) -> Candidate {
        var start = bytes.startIndex
        var end = bytes.endIndex
        let frame: Set<UInt8> = [UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: " "), UInt8(ascii: "_")]
        while start < end && frame.contains(bytes[start]) { start += 1 }
        var dashed = false
        while end > start && frame.contains(bytes[end - 1]) {
            if bytes[end - 1] == UInt8(ascii: "-") { dashed = true }
            end -= 1
        }
        var terminated = dashed
        if end > start && bytes[end - 1] == UInt8(ascii: ":") {
            terminated = true
            end -= 1
            while end > start && bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        }
        let body = Array(bytes[start..<end])
        let length = body.reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return Candidate(bytes: body, terminated: terminated, length: length)
    }

    /// The last occurrence of the verb. A verb that starts with a space may also follow an address or a quoted
    /// name directly: "<ann@x.org>wrote:", "\"Ann\"schrieb:".
    private static func verbRange(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard needle.first == UInt8(ascii: " ") else { return lastRange(of: needle[...], in: bytes, from: start) }
        guard let found = lastRange(of: needle.dropFirst(), in: bytes, from: start), found.lowerBound > start
        else { return nil }
        let before = bytes[found.lowerBound - 1]
        guard
            before == UInt8(ascii: " ") || before == UInt8(ascii: ">") || before == UInt8(ascii: ")")
                || before == UInt8(ascii: "\"")
        else { return nil }
        return (found.lowerBound - 1)..<found.upperBound
    }

    /// The last occurrence of `needle` in `haystack[from...]`.
    static func lastRange(of needle: ArraySlice<UInt8>, in haystack: [UInt8], from: Int) -> Range<Int>? {
        let count = needle.count
        guard count > 0, from >= 0, haystack.count - from >= count else { return nil }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var index = hay.count - count
                while index >= from {
                    var matched = 0
                    while matched < count && hay[index + matched] == pin[matched] { matched += 1 }
                    if matched == count { return index..<(index + count) }
                    index -= 1
                }
                return nil
            }
        }
    }

    /// The first occurrence of `needle` in `haystack[from...]`.
    static func firstRange(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Range<Int>? {
        let count = needle.count
        guard count > 0, from >= 0, haystack.count - from >= count else { return nil }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                var index = from
                while index <= hay.count - count {
                    var matched = 0
                    while matched < count && hay[index + matched] == pin[matched] { matched += 1 }
                    if matched == count { return index..<(index + count) }
                    index += 1
                }
                return nil
            }
        }
    }
}

/// What in a candidate shows it is a real reply header and not a sentence: a date, a time or an address.
struct Evidence {
    var hasAddress = false
    var hasTime = false
    var hasYear = false

    var isStrong: Bool { hasAddress || hasTime || hasYear }
    var hasDate: Bool { hasTime || hasYear }

    init(_ bytes: [UInt8]) {
        var digitRun = 0
        for (index, byte) in bytes.enumerated() {
            if isDigit(byte) {
                digitRun += 1
                continue
            }
            if digitRun == 4 && Self.isYear(bytes[(index - 4)..<index]) { hasYear = true }
            // "10:00", "10.00": one or two digits, a separator, two digits.
            if (byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")) && digitRun > 0 && digitRun <= 2
                && index + 2 < bytes.count && isDigit(bytes[index + 1]) && isDigit(bytes[index + 2])
            {
                hasTime = true
            }
            if byte == UInt8(ascii: "@") { hasAddress = true }
            digitRun = 0
        }
        if digitRun == 4 && Self.isYear(bytes[(bytes.count - 4)...]) { hasYear = true }
    }

    /// 19xx or 20xx.
    private static func isYear(_ digits: ArraySlice<UInt8>) -> Bool {
        let first = digits[digits.startIndex]
        let second = digits[digits.startIndex + 1]
        return (first == UInt8(ascii: "1") && second == UInt8(ascii: "9"))
            || (first == UInt8(ascii: "2") && second == UInt8(ascii: "0"))
    }
}

@inline(__always)
func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

extension Substring {
    /// The last visible scalar, past trailing spaces and the bidirectional marks Gmail puts around Hebrew and
    /// Arabic headers: the cheap first test for "could this line end an attribution".
    var attributionTerminator: Unicode.Scalar? {
        for scalar in unicodeScalars.reversed() {
            switch scalar {
            case " ", "\t", "\r", "\u{00A0}", "\u{200E}", "\u{200F}", "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}":
                continue
            default:
                return scalar
            }
        }
        return nil
    }
}

extension Array where Element == UInt8 {
    /// True when the bytes end with `suffix`.
    func endsWith(_ suffix: ArraySlice<UInt8>) -> Bool {
        count >= suffix.count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
