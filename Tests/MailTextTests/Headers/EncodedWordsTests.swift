import MailText
import Testing

@Suite struct EncodedWordsTests {
    @Test(
        "Decodes RFC 2047 words the way mail readers must",
        arguments: [
            // Plain text passes through.
            ("Hello world", "Hello world"),
            // B encoding, UTF-8.
            ("=?UTF-8?B?Q2Fmw6k=?=", "Café"),
            // Q encoding: underscore is a space, =XX a byte.
            ("=?iso-8859-1?q?caf=E9_au_lait?=", "café au lait"),
            // Lowercase b and charset case do not matter.
            ("=?utf-8?b?Q2Fmw6k=?=", "Café"),
            // Whitespace between adjacent words is removed (RFC 2047 §6.2).
            ("=?UTF-8?Q?a?= =?UTF-8?Q?b?=", "ab"),
            // Folding whitespace between adjacent words is removed too.
            ("=?UTF-8?Q?a?=\r\n\t=?UTF-8?Q?b?=", "ab"),
            // Whitespace between a word and text is kept.
            ("=?UTF-8?Q?a?= b =?UTF-8?Q?c?=", "a b c"),
            // A UTF-8 character split across two words (é = C3 A9).
            ("=?UTF-8?Q?caf=C3?= =?UTF-8?Q?=A9?=", "café"),
            // A split across B words: "日本" = E6 97 A5 E6 9C AC, split after 4 bytes.
            ("=?UTF-8?B?5pel5g==?= =?UTF-8?B?nKw=?=", "日本"),
            // RFC 2231 language suffix on the charset is dropped.
            ("=?UTF-8*en?Q?Hello?=", "Hello"),
            // Missing padding is tolerated.
            ("=?UTF-8?B?Q2Fmw6k?=", "Café"),
            // Bad base64 stays literal.
            ("=?UTF-8?B?!!!?=", "=?UTF-8?B?!!!?="),
            // Missing ?= stays literal.
            ("=?UTF-8?Q?abc", "=?UTF-8?Q?abc"),
            // Unknown encoding letter stays literal.
            ("=?UTF-8?X?abc?=", "=?UTF-8?X?abc?="),
            // Unknown charset: bytes decoded by fallback rather than dropped.
            ("=?x-unknown?Q?caf=C3=A9?=", "café"),
            // A word glued to text (not RFC-conformant) is still decoded, as Thunderbird and Gmail do.
            ("Re:=?UTF-8?Q?caf=C3=A9?=", "Re:café"),
            // Different charsets in adjacent words are decoded separately.
            ("=?iso-8859-1?Q?=E9?= =?koi8-r?B?8NLJ18XU?=", "éПривет"),
            // ISO-2022-JP in B (stateful encoding in one word).
            ("=?ISO-2022-JP?B?GyRCJDMkcyRLJEEkTxsoQg==?=", "こんにちは"),
            // A literal "=?" that is not a word.
            ("1+1 =? 2", "1+1 =? 2"),
            // Controls inside a decoded word are dropped; CR/LF become spaces; tab stays.
            ("=?UTF-8?Q?a=07b=0Dc=09d=7Fe=C2=85f?=", "ab c\tdef"),
        ])
    func decodes(raw: String, expected: String) {
        #expect(EncodedWords.decode(raw) == expected)
    }

    @Test(
        "Raw 8-bit bytes outside words decode as UTF-8, else windows-1252",
        arguments: [
            // Valid UTF-8.
            (Array("Grüße".utf8), "Grüße"),
            // Latin-1 bytes (invalid UTF-8).
            ([0x47, 0x72, 0xFC, 0xDF, 0x65], "Grüße"),
            // Mixed: raw UTF-8 next to an encoded word.
            (Array("Grüße =?UTF-8?Q?caf=C3=A9?=".utf8), "Grüße café"),
            // Windows-1252 smart quotes in raw bytes.
            ([0x93, 0x41, 0x94], "\u{201C}A\u{201D}"),
            // CR LF and NUL in raw bytes.
            ([0x41, 0x0D, 0x0A, 0x42, 0x00, 0x43], "A  BC"),
        ] as [([UInt8], String)])
    func rawBytes(raw: [UInt8], expected: String) {
        #expect(EncodedWords.decode(raw) == expected)
    }

    @Test("Output never contains controls, whatever the input")
    func noControls() {
        var generator = SplitMix64(seed: 2047)
        for _ in 0..<500 {
            let length = Int(generator.next() % 64)
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            bytes.insert(contentsOf: Array("=?utf-8?q?=01=C2=9F?=".utf8), at: bytes.count / 2)
            let text = EncodedWords.decode(bytes)
            #expect(
                !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) })
        }
    }
}

/// A tiny deterministic generator so fuzz-style tests repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
