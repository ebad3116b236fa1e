import Foundation
import MailText
import Testing

@Suite struct CorpusCharsetTests {
    /// Every `charset=` label in the corpus, lowercased, with how often it occurs.
    static func corpusLabels() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let needle = Array("charset=".utf8)
        for url in Corpus.emlFiles() {
            let bytes = [UInt8](try Data(contentsOf: url)).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            var index = 0
            while index + needle.count <= bytes.count {
                guard bytes[index..<(index + needle.count)].elementsEqual(needle) else {
                    index += 1
                    continue
                }
                var cursor = index + needle.count
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") { cursor += 1 }
                let start = cursor
                while cursor < bytes.count, !";\"' \t\r\n>".utf8.contains(bytes[cursor]) { cursor += 1 }
                counts[String(decoding: bytes[start..<cursor], as: UTF8.self), default: 0] += 1
                index = cursor
            }
        }
        return counts
    }

    @Test("Every charset label in the corpus is known or falls back to non-empty text")
    func everyCorpusLabelDecodes() throws {
        let labels = try Self.corpusLabels()
        #expect(labels.count > 30)
        let sample = Array("Grüße — “quoted” 日本".utf8) + [0x93, 0xE9, 0x81]
        var unknown: [String] = []
        for label in labels.keys.sorted() {
            if CharsetDecoder.canonicalName(label) == nil { unknown.append(label) }
            #expect(!CharsetDecoder.decode(sample, charset: label).isEmpty, "label \(label)")
            #expect(!CharsetDecoder.decode([0x41], charset: label).isEmpty, "label \(label)")
        }
        // The labels the brief lists must all be recognized.
        let mustKnow = [
            "utf-8", "us-ascii", "iso-8859-1", "windows-1252", "iso-2022-jp", "iso-8859-15", "ascii", "iso-8859-2",
            "euc-kr", "gbk", "gb18030", "windows-874", "tis-620", "iso-8859-11", "euc-jp", "gb2312", "koi8-r",
            "ks_c_5601-1987", "windows-1256", "utf-7", "utf-16le", "unicode-1-1-utf-7", "x-mac-cyrillic",
            "windows-1251", "utf-16", "shift_jis", "iso8859-1", "iso-8859-4", "iso-8859-3", "big5", "windows-1250",
            "utf8",
        ]
        for label in mustKnow {
            #expect(CharsetDecoder.canonicalName(label) != nil, "label \(label)")
        }
        print("corpus charset labels: \(labels.count) distinct, unknown to iconv: \(unknown)")
    }
}
