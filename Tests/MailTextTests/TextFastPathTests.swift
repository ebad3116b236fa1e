import Foundation
import Testing
import TextSafety

@testable import MailText

/// The fast paths of the text pipeline against the slower code they stand in for, which is kept here as
/// the reference: on the whole corpus and on strings chosen to sit on each fast path's edges, both must
/// give the same result.
@Suite struct TextFastPathTests {
    /// Each ASCII scalar alone and at either end, whitespace of every kind, and line breaks next to
    /// combining marks (where Foundation's non-literal search may differ from a byte replacement).
    static let edges: [String] = {
        var strings = [
            "", " ", "\n", "\r\n", "a", " a ", "\t\u{0B}\u{0C}x\r", "\u{A0}x", "x\u{A0}", "\u{3000}日本\u{3000}",
            "\u{200B}x\u{200B}", "\u{85}x", "x\u{2028}", "é ", " é", "e\u{301}", "\r\u{301}", "a\r\n\u{301}b",
            "a\r\u{300}", "a\rb", "a\r\r\nb\r", "\u{1C}x\u{1F}", "x\r", "\r", "ü\r\nü\r", "a\u{34F}b\u{200B}",
            "é\u{34F}\n\u{1B}[31m", "日本\nüber\r\n", "x\u{2029}y", "\u{FEFF}text", "e\u{301}\u{202E}x",
        ]
        for value in 0..<0x80 {
            let scalar = String(Unicode.Scalar(UInt8(value)))
            strings += [scalar, scalar + "x", "x" + scalar, "é" + scalar, scalar + "é"]
        }
        return strings
    }()

    /// The decoded plain and HTML bodies of every corpus message.
    static let corpusTexts: [String] = Corpus.emlFiles().flatMap { file -> [String] in
        guard let bytes = try? Data(contentsOf: file) else { return [] }  // a missing file fails emlFiles
        let parsed = ParsedMessage(raw: [UInt8](bytes))
        return [parsed.plainPart?.text, parsed.htmlPart?.text].compactMap { $0 }
    }

    /// The header names of every corpus message.
    static let corpusHeaderNames: Set<String> = Set(
        Corpus.emlFiles().flatMap { file -> [String] in
            guard let bytes = try? Data(contentsOf: file) else { return [] }
            return ParsedMessage(raw: [UInt8](bytes)).root.headers.fields.map(\.name)
        })

    @Test("trimming on bytes gives Foundation's whitespacesAndNewlines trim")
    func trimmed() {
        for text in Self.edges + Self.corpusTexts {
            let expected = text.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(TextPipeline.trimmed(text).utf8.elementsEqual(expected.utf8), "\(text.debugDescription)")
        }
    }

    @Test("line breaks replaced on bytes give what Foundation's replacement gives")
    func lineBreaks() {
        func reference(_ text: String) -> String {
            var text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            text = text.replacingOccurrences(of: "\u{2028}", with: "\n").replacingOccurrences(
                of: "\u{2029}", with: "\n")
            return text
        }
        for text in Self.edges + Self.corpusTexts {
            #expect(
                TextPipeline.normalizeLineBreaks(text).utf8.elementsEqual(reference(text).utf8),
                "\(text.debugDescription)")
        }
    }

    @Test("non-whitespace counted with an ASCII fast path is the White_Space property's count")
    func nonWhitespace() {
        func reference(_ text: String) -> Int { text.unicodeScalars.lazy.filter { !$0.properties.isWhitespace }.count }
        let everyBMPScalar = String(String.UnicodeScalarView((0..<0x1_0000).compactMap(Unicode.Scalar.init)))
        for text in Self.edges + Self.corpusTexts + [everyBMPScalar] {
            #expect(TextPipeline.nonWhitespaceCount(text) == reference(text), "\(text.debugDescription)")
        }
    }

    @Test("the scalar whitespace test is the White_Space property for every scalar")
    func scalarWhitespace() {
        let mismatches = (0...0x10_FFFF).compactMap(Unicode.Scalar.init).filter {
            $0.isWhitespace != $0.properties.isWhitespace
        }
        #expect(mismatches.isEmpty)
    }

    @Test("header names compared on ASCII bytes match as the lowercased comparison does")
    func headerNames() {
        func reference(_ name: String, _ other: String) -> Bool {
            name.count == other.count && name.lowercased() == other.lowercased()
        }
        let lookups = [
            "From", "to", "CC", "Subject", "Content-Type", "content-transfer-encoding", "List-Id", "X-Gmail-Labels",
            "References", "In-Reply-To", "Message-ID", "Date", "kelvin", "\u{212A}elvin", "straße", "STRASSE", "İd",
            "id", "", "From ", "Fromm", "Fro",
        ]
        for name in Self.corpusHeaderNames.union(lookups) {
            for lookup in lookups {
                #expect(
                    HeaderField(name: name, value: []).matches(lookup) == reference(name, lookup), "\(name) / \(lookup)"
                )
            }
        }
    }

    @Test("the code nouns' vetoes found with a byte prefilter are the vetoes a character search finds")
    func nounVetoes() {
        var samples = [
            "promo-code", "qr-code", "código de réduction", "gutscheincode", "promocode", "pro\u{301}mo code",
            "re\u{301}duc code", "réduc code", "ｐｒｏｍｏ code", "\u{212A}ode", "post\u{300}code", "скидка код",
        ]
        // Every window of the corpus around a "code", lowercased scalar by scalar as the detector does.
        for text in Self.corpusTexts {
            let lower = text.unicodeScalars.map(VerificationCodeDetector.lowercased)
            for index in lower.indices where lower[index...].starts(with: "code".unicodeScalars) {
                let window = lower[max(0, index - 24)..<min(lower.count, index + 28)]
                samples.append(String(String.UnicodeScalarView(window)))
            }
        }
        #expect(samples.count > 100)
        for words in samples {
            #expect(
                VerificationCodeDetector.hasNounVeto(words) == referenceHasNounVeto(words), "\(words.debugDescription)")
        }
    }

    @Test("code phrases found past the ASCII first-scalar and pair tables are those a lookup of every scalar finds")
    func phraseHits() {
        func reference(_ scalars: [Unicode.Scalar], _ lower: [Unicode.Scalar]) -> [Range<Int>] {
            var hits: [Range<Int>] = []
            for index in lower.indices {
                guard let phrases = CodePhrases.byFirstScalar[lower[index]] else { continue }
                for phrase in phrases where VerificationCodeDetector.matches(phrase, at: index, scalars, lower) {
                    let range = index..<(index + phrase.scalars.count)
                    if phrase.isGenericNoun && VerificationCodeDetector.isOtherKindOfCode(range, lower) { continue }
                    hits.append(range)
                }
            }
            return hits
        }
        let samples = [
            "Your verification code is 482913", "Ihr Bestätigungscode: 4821", "PIN 1234, OTP 998877, TAN 55",
            "mã xác minh 123456", "验证码是123456", "인증 코드 123456", "one-time passcode", "c", "co", "cod",
        ]
        for text in samples + Self.corpusTexts {
            let scalars = Array(text.unicodeScalars)
            let lower = scalars.map(VerificationCodeDetector.lowercased)
            #expect(
                VerificationCodeDetector.phraseHits(scalars, lower) == reference(scalars, lower), "\(text.prefix(80))")
        }
    }

    @Test("windows-1252 written as UTF-8 decodes every byte to the scalar its table gives")
    func windows1252() {
        let high: [UInt32?] = [
            0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil,
            0x017D, nil, nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
            0x0153, nil, 0x017E, 0x0178,
        ]
        let every = (0...255).map { UInt8($0) }
        let expected = every.map { byte -> Unicode.Scalar in
            guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
            return high[Int(byte) - 0x80].flatMap(Unicode.Scalar.init) ?? "\u{FFFD}"
        }
        #expect(Array(Windows1252.decode(every + every.reversed()).unicodeScalars) == expected + expected.reversed())
    }

    @Test("neutralizing keeps the safe prefix in one piece and changes exactly what the scalar loop changes")
    func neutralize() {
        func reference(_ text: String) -> String {
            var output = String.UnicodeScalarView()
            var previousWasCR = false
            for scalar in text.unicodeScalars {
                defer { previousWasCR = scalar == "\r" }
                switch UnsafeScalars.disposition(of: scalar) {
                case .keep: output.append(scalar)
                case .drop: continue
                case .replace(let replacement): output.append(replacement)
                case .newline: output.append("\n")
                case .newlineUnlessAfterCR: if !previousWasCR { output.append("\n") }
                }
            }
            return String(output)
        }
        for text in Self.edges + Self.corpusTexts {
            #expect(UnsafeScalars.neutralize(text).utf8.elementsEqual(reference(text).utf8), "\(text.debugDescription)")
        }
    }
}
