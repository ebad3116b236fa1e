/// A table-driven windows-1252 decoder, the fallback for undeclared and mislabeled 8-bit text.
///
/// Written in Swift rather than through iconv because it runs on every raw 8-bit header and every
/// invalid-UTF-8 body; a table lookup is faster than opening a converter. Mail labelled ISO-8859-1 or
/// US-ASCII is decoded with it too, as browsers do (WHATWG Encoding), because senders mean 1252's smart quotes.
enum Windows1252 {
    /// Code points for bytes 0x80–0x9F; `nil` marks the five bytes 1252 leaves undefined.
    private static let high: [Unicode.Scalar?] = [
        "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
        nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
    ]

    /// `true` when every byte has a windows-1252 meaning (all but 0x81, 0x8D, 0x8F, 0x90, 0x9D).
    static func decodesCleanly(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 < 0x80 || $0 > 0x9F || high[Int($0) - 0x80] != nil }
    }

    /// Decodes `bytes`, turning the five undefined bytes into U+FFFD.
    static func decode(_ bytes: [UInt8]) -> String {
        // UTF-8 is written directly: appending to a `String.UnicodeScalarView` one scalar at a time cost
        // more than the decoding itself.
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count + bytes.count / 2)
        for byte in bytes {
            if byte < 0x80 {
                utf8.append(byte)
            } else if byte > 0x9F {
                utf8.append(0xC0 | (byte >> 6))
                utf8.append(0x80 | (byte & 0x3F))
            } else {
                utf8.append(contentsOf: (high[Int(byte) - 0x80] ?? "\u{FFFD}").utf8)
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
