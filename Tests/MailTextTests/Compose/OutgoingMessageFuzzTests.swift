import Foundation
import MailText
import Testing

/// Random subjects, names and bodies built from the characters that make mail encoding hard, written and
/// read back: whatever the mix, the reader gets what was written.
@Suite struct OutgoingMessageFuzzTests {
    static let pieces = [
        "a", "Z", "9", " ", "  ", "\t", "=", "?", "_", "\"", "\\", ",", ".", ";", ":", "<", ">", "@", "(", ")",
        "é", "Ü", "ß", "日", "本", "語", "Ж", "🎉", "👩‍👩‍👧‍👦", "=?", "?=", "=?UTF-8?Q?x?=", "From ", "word",
        String(repeating: "long", count: 25),
    ]
    static let lineBreaks = ["\r\n", "\n", "\r"]

    static func text(_ generator: inout SplitMix64, count: Int, breaks: Bool) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...count, using: &generator) {
            if breaks, Int.random(in: 0..<8, using: &generator) == 0 {
                text += lineBreaks.randomElement(using: &generator)!
            } else {
                text += pieces.randomElement(using: &generator)!
            }
        }
        return text
    }

    /// Header text as the writer cleans it: controls and whitespace runs become one space, ends trimmed.
    static func cleaned(_ text: String) -> String {
        let spaced = String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x21 ? " " : $0 }))
        return spaced.split(separator: " ").joined(separator: " ")
    }

    @Test("300 random messages read back as written")
    func randomRoundTrips() throws {
        var generator = SplitMix64(seed: 5322)
        for _ in 0..<300 {
            let subject = Self.text(&generator, count: 30, breaks: true)
            let name = Self.text(&generator, count: 12, breaks: true)
            let body = Self.text(&generator, count: 200, breaks: true)
            let to = [MailAddress(name: name, address: "bob@example.net"), MailAddress(address: "c@x.org")]
            let raw = try outgoing(to: to, subject: subject, body: body).rfc5322()
            let parsed = ParsedMessage(raw: raw)
            #expect(parsed.subject == Self.cleaned(subject), "\(subject.debugDescription)")
            let expectedName = Self.cleaned(name)
            #expect(
                parsed.to.map(\.name) == [expectedName.isEmpty ? nil : expectedName, nil], "\(name.debugDescription)")
            #expect(parsed.to.map(\.address) == to.map(\.address))
            #expect(parsed.plainPart?.text == OutgoingMessageRoundTripTests.canonical(body), "\(body.debugDescription)")
            let lines = String(decoding: raw, as: UTF8.self).components(separatedBy: "\r\n")
            #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        }
    }
}
