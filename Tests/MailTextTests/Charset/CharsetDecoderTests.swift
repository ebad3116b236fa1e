import Foundation
import MailText
import Testing

@Suite struct CharsetDecoderTests {
    @Test(
        "Decodes a sample of every charset family to the exact text",
        arguments: [
            // KOI8-R: Cyrillic in a single-byte table iconv must know.
            ([0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "koi8-r", "Привет"),
            // ISO-2022-JP: stateful; ESC $ B switches to JIS X 0208, ESC ( B back to ASCII.
            (
                [0x1B, 0x24, 0x42, 0x24, 0x33, 0x24, 0x73, 0x24, 0x4B, 0x24, 0x41, 0x24, 0x4F, 0x1B, 0x28, 0x42],
                "iso-2022-jp",
                "こんにちは"
            ),
            // ISO-2022-JP with NEC row 13 (① = 0x2D21) and half-width katakana (ESC ( I): via CP932, not strict JIS.
            ([0x1B, 0x24, 0x42, 0x2D, 0x21, 0x1B, 0x28, 0x49, 0x31, 0x1B, 0x28, 0x42, 0x41], "iso-2022-jp", "①ｱA"),
            // GB2312 label, bytes decoded through the GB18030 superset.
            ([0xC4, 0xE3, 0xBA, 0xC3], "gb2312", "你好"),
            // GB18030 label: € is the two-byte 0xA2E3 in GB18030 (GB2312 lacks it).
            ([0xC4, 0xE3, 0xBA, 0xC3, 0xA2, 0xE3], "gb18030", "你好€"),
            // Big5, read through BIG5-HKSCS.
            ([0xA4, 0xA4, 0xA4, 0xE5], "big5", "中文"),
            // TIS-620 Thai, read through CP874.
            ([0xCA, 0xC7, 0xD1, 0xCA, 0xB4, 0xD5], "tis-620", "สวัสดี"),
            // windows-874 is the same table plus punctuation in 0x80–0x9F.
            ([0xCA, 0xC7, 0xD1, 0xCA, 0xB4, 0xD5, 0x85], "windows-874", "สวัสดี…"),
            // windows-1252 smart quotes live in 0x80–0x9F, where ISO-8859-1 has controls.
            ([0x93, 0x48, 0x69, 0x94], "windows-1252", "\u{201C}Hi\u{201D}"),
            // iso-8859-1 labels are read as windows-1252 (WHATWG): senders mean the smart quotes.
            ([0x93, 0x48, 0x69, 0x94, 0x20, 0xE9], "iso-8859-1", "\u{201C}Hi\u{201D} é"),
            // UTF-16LE with a BOM: the BOM must not reach the text.
            ([0xFF, 0xFE, 0x48, 0x00, 0x69, 0x00], "utf-16le", "Hi"),
            // UTF-16 with a big-endian BOM picks the byte order from the BOM.
            ([0xFE, 0xFF, 0x00, 0x48, 0x00, 0x69], "utf-16", "Hi"),
            // EUC-KR label is read through CP949 (the superset Korean mail really uses).
            ([0xC7, 0xD1, 0xB1, 0xB9], "euc-kr", "한국"),
            // ks_c_5601-1987 is Outlook's name for the same thing.
            ([0xC7, 0xD1, 0xB1, 0xB9], "ks_c_5601-1987", "한국"),
            // EUC-JP.
            ([0xC6, 0xFC, 0xCB, 0xDC], "euc-jp", "日本"),
            // Shift_JIS, read through CP932.
            ([0x93, 0xFA, 0x96, 0x7B], "shift_jis", "日本"),
            // ISO-8859-2 Central European.
            ([0xB1, 0xE6, 0xEA], "iso-8859-2", "ąćę"),
            // ISO-8859-15 differs from Latin-1 at 0xA4 (euro sign).
            ([0xA4], "iso-8859-15", "€"),
            // windows-1251 Cyrillic.
            ([0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "windows-1251", "Привет"),
            // windows-1256 Arabic.
            ([0xE3, 0xD1, 0xCD, 0xC8, 0xC7], "windows-1256", "مرحبا"),
            // x-mac-cyrillic (0x8F = П in Mac Cyrillic).
            ([0x8F, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2], "x-mac-cyrillic", "Привет"),
            // UTF-7 as Outlook labels it.
            (Array("Hi +AOk-".utf8), "unicode-1-1-utf-7", "Hi é"),
            // KOI8-U adds Ukrainian letters (0xA4 = є).
            ([0xA4], "koi8-u", "є"),
        ] as [([UInt8], String, String)])
    func decodesCharsetFamilies(bytes: [UInt8], charset: String, expected: String) {
        #expect(CharsetDecoder.decode(bytes, charset: charset) == expected)
    }

    @Test(
        "Falls back sensibly when the label is missing, unknown or lying",
        arguments: [
            // No label, valid UTF-8: UTF-8.
            (Array("café".utf8), nil, "café"),
            // No label, invalid UTF-8 but clean windows-1252: windows-1252.
            ([0x63, 0x61, 0x66, 0xE9], nil, "café"),
            // us-ascii label with 8-bit bytes: a lie, decoded as UTF-8 when valid.
            (Array("naïve".utf8), "us-ascii", "naïve"),
            // us-ascii label with latin-1 bytes: windows-1252.
            ([0x6E, 0x61, 0xEF, 0x76, 0x65], "us-ascii", "naïve"),
            // Unknown label: best effort.
            (Array("ok ✓".utf8), "x-unknown", "ok ✓"),
            // Empty label.
            ([0x41], "", "A"),
            // Junk label with 1252 bytes.
            ([0x93, 0x41, 0x94], "fakescii", "\u{201C}A\u{201D}"),
            // utf-8 label with a BOM: BOM stripped.
            ([0xEF, 0xBB, 0xBF, 0x41], "utf-8", "A"),
            // KOI8-R label on UTF-8 bytes that KOI8-R decodes without error is trusted (cannot tell); but
            // a Shift_JIS label on UTF-8 bytes that are invalid Shift_JIS is a lie: UTF-8 wins.
            (Array("日本語テキスト".utf8), "shift_jis", "日本語テキスト"),
            // No label, mostly UTF-8 with one stray byte: UTF-8 with one U+FFFD, not windows-1252 mojibake.
            (Array("Юникод".utf8) + [0xF1], nil, "Юникод\u{FFFD}"),
            // Undecodable in both UTF-8 and 1252 (0x81 undefined in 1252): UTF-8 with U+FFFD, never empty.
            ([0x41, 0x81, 0xFF], "utf-8", "A\u{FFFD}\u{FFFD}"),
        ] as [([UInt8], String?, String)])
    func fallsBack(bytes: [UInt8], charset: String?, expected: String) {
        #expect(CharsetDecoder.decode(bytes, charset: charset) == expected)
    }

    @Test(
        "Maps labels seen in mail to names iconv opens",
        arguments: [
            ("3diso-8859-1", "ISO-8859-1"),  // quoted-printable =3D residue before the label
            ("iso8859-1", "ISO-8859-1"),  // missing dash
            ("\"UTF8\"", "UTF-8"),  // quotes and no dash
            (" ascii ", "US-ASCII"),  // whitespace around
            ("ANSI_X3.4-1968", "US-ASCII"),  // glibc's own name for ASCII
            ("latin1", "ISO-8859-1"),  // common alias
            ("ks_c_5601-1987", "CP949"),  // Outlook's Korean label
            ("gbk", "GB18030"),  // subset → superset
            ("windows-874", "CP874"),  // Thai
            ("iso-8859-11", "CP874"),  // Thai, ISO name
            ("x-mac-cyrillic", "MACCYRILLIC"),  // vendor prefix
            ("utf-7", "UTF-7"),  // rare but real
            ("x-sjis", "CP932"),  // vendor prefix, superset
            ("iso-2022-jp", "ISO-2022-JP-2"),  // lenient superset
            ("big5", "BIG5-HKSCS"),  // superset with Hong Kong characters
            ("windows-1250", "CP1250"),  // windows family
            ("cp1252", "CP1252"),  // windows family, cp spelling
            ("ISO_8859-16", "ISO-8859-16"),  // underscore spelling
            ("utf-8*en", "UTF-8"),  // RFC 2231 language suffix
            ("koi8-u", "KOI8-U"),  // Ukrainian
            ("iso-8859-7", "ISO-8859-7"),  // unlisted family member via the numeric rule
        ])
    func canonicalNames(label: String, expected: String) {
        #expect(CharsetDecoder.canonicalName(label) == expected)
    }

    @Test(
        "Returns nil for labels iconv cannot open",
        arguments: [
            "x-unknown", "invalid-charset", "fakescii", "none", "", "utf-8//translit", "x-invalid",
        ])
    func unknownLabels(label: String) {
        #expect(CharsetDecoder.canonicalName(label) == nil)
    }

    @Test("Never returns an empty string for non-empty input")
    func neverEmpty() {
        let labels: [String?] = [nil, "utf-8", "utf-16", "iso-2022-jp", "utf-7", "x-junk", "gb18030"]
        let samples: [[UInt8]] = [[0xEF, 0xBB, 0xBF], [0x1B, 0x28, 0x42], [0xFF, 0xFE], [0x00], [0x2B], [0x81]]
        for label in labels {
            for bytes in samples {
                #expect(!CharsetDecoder.decode(bytes, charset: label).isEmpty, "\(bytes) as \(label ?? "nil")")
            }
        }
    }

    @Test("Fast paths decode at least 50 MB/s")
    func fastPathSpeed() {
        let line = Array("The quick brown fox jumps over the lazy dog — naïve café.\r\n".utf8)
        var bytes: [UInt8] = []
        while bytes.count < 8_000_000 { bytes += line }
        let asciiBytes = bytes.map { $0 & 0x7F }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            _ = CharsetDecoder.decode(bytes, charset: "utf-8")
            _ = CharsetDecoder.decode(asciiBytes, charset: "us-ascii")
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let megabytesPerSecond = Double(bytes.count * 2) / 1_000_000 / max(seconds, 1e-9)
        #expect(megabytesPerSecond >= 50, "\(megabytesPerSecond) MB/s")
    }
}
