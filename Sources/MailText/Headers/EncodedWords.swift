/// Decodes RFC 2047 encoded words in unstructured header text such as `Subject`.
///
/// Real mail splits one character across two words, puts words in the middle of other text, omits padding,
/// and mixes raw 8-bit bytes in. This decoder keeps every byte it cannot interpret as literal text, so nothing
/// is silently lost, and removes only the whitespace RFC 2047 §6.2 says separates adjacent words.
///
/// ```swift
/// EncodedWords.decode("=?UTF-8?Q?Caf=C3=A9?= au lait")  // "Café au lait"
/// ```
public enum EncodedWords {
    /// Decodes a raw header value (bytes after unfolding) into display text.
    ///
    /// Encoded words (`=?charset?B|Q?text?=`, case-insensitive, charset may carry an RFC 2231 `*lang`) are
    /// decoded; adjacent words of one charset are joined as bytes before decoding, so a multibyte character
    /// split across them survives. Malformed words stay literal. Raw bytes outside words are read as UTF-8
    /// when valid, else windows-1252. CR/LF become spaces; other controls (C0 but tab, DEL, C1) are dropped.
    public static func decode(_ raw: [UInt8]) -> String {
        let segments = EncodedWordScanner.segments(of: raw)
        var output = ""
        var index = 0
        while index < segments.count {
            switch segments[index] {
            case .literal(let bytes):
                output += CharsetDecoder.decode(bytes, charset: nil)
                index += 1
            case .word(let charset, let bytes):
                var joined = bytes
                var next = index + 1
                while next < segments.count, case .word(let nextCharset, let nextBytes) = segments[next],
                    sameCharset(charset, nextCharset)
                {
                    joined += nextBytes
                    next += 1
                }
                output += CharsetDecoder.decode(joined, charset: charset)
                index = next
            }
        }
        return HeaderText.sanitized(output)
    }

    /// Decodes header text that is already a Swift string (its UTF-8 bytes are decoded as by ``decode(_:)-([UInt8])``).
    public static func decode(_ text: String) -> String {
        decode(Array(text.utf8))
    }

    /// `true` when two labels name the same charset, so their words' bytes may be concatenated.
    private static func sameCharset(_ first: String, _ second: String) -> Bool {
        let a = CharsetAliases.normalize(first)
        let b = CharsetAliases.normalize(second)
        return a == b || (CharsetDecoder.canonicalName(a).map { $0 == CharsetDecoder.canonicalName(b) } ?? false)
    }
}

/// Splits a header value into literal runs and decoded encoded words.
enum EncodedWordScanner {
    /// One piece of a header value.
    enum Segment: Equatable {
        /// Bytes shown as they are (decoded as undeclared text).
        case literal([UInt8])
        /// The decoded bytes of one encoded word and the charset label it declared.
        case word(charset: String, bytes: [UInt8])
    }

    /// Scans `raw` into segments, dropping whitespace-only literals that sit between two words.
    static func segments(of raw: [UInt8]) -> [Segment] {
        var segments: [Segment] = []
        var literal: [UInt8] = []
        var index = 0
        while index < raw.count {
            if raw[index] == UInt8(ascii: "="), index + 1 < raw.count, raw[index + 1] == UInt8(ascii: "?"),
                let (segment, end) = word(in: raw, at: index)
            {
                let previousIsWord: Bool
                if case .word = segments.last { previousIsWord = true } else { previousIsWord = false }
                let onlySpace = literal.allSatisfy(HeaderText.isWhitespace)
                if !(previousIsWord && onlySpace), !literal.isEmpty { segments.append(.literal(literal)) }
                literal = []
                segments.append(segment)
                index = end
            } else {
                literal.append(raw[index])
                index += 1
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return segments
    }

    /// Parses the encoded word starting at `start` (which holds `=?`); `nil` when it is malformed.
    /// - returns: the word and the index just past its closing `?=`.
    private static func word(in raw: [UInt8], at start: Int) -> (Segment, Int)? {
        let question = UInt8(ascii: "?")
        var cursor = start + 2
        let charsetStart = cursor
        while cursor < raw.count, raw[cursor] != question, !HeaderText.isWhitespace(raw[cursor]) { cursor += 1 }
        guard cursor > charsetStart, cursor + 2 < raw.count, raw[cursor] == question,
            raw[cursor + 2] == question
        else { return nil }
        let charset = String(decoding: raw[charsetStart..<cursor], as: UTF8.self)
        let encoding = raw[cursor + 1] | 0x20  // ASCII lowercase
        let textStart = cursor + 3
        var end = textStart
        // Lenient: the text runs to the first `?=`, even across spaces some senders leave in Q text.
        while end + 1 < raw.count, !(raw[end] == question && raw[end + 1] == UInt8(ascii: "=")) {
            if raw[end] == 0x0D || raw[end] == 0x0A { return nil }
            end += 1
        }
        guard end + 1 < raw.count else { return nil }
        let text = Array(raw[textStart..<end])
        let decoded: [UInt8]?
        switch encoding {
        case UInt8(ascii: "b"): decoded = TransferDecoding.base64Strict(text)
        case UInt8(ascii: "q"): decoded = qDecode(text)
        default: decoded = nil
        }
        guard let decoded else { return nil }
        return (.word(charset: charset, bytes: decoded), end + 2)
    }

    /// Decodes RFC 2047 "Q" text: `_` is a space, `=XX` a byte; a stray `=` stays literal.
    static func qDecode(_ text: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "_") {
                bytes.append(0x20)
                index += 1
            } else if byte == UInt8(ascii: "="), index + 2 < text.count, let high = hexValue(text[index + 1]),
                let low = hexValue(text[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte)
                index += 1
            }
        }
        return bytes
    }

    /// The value of one hexadecimal digit, either case.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
