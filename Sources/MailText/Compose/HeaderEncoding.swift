import Foundation

/// Writes header values for an outgoing message: RFC 2047 encoded words, display names, and folding.
///
/// Lines are folded at 78 octets (RFC 5322 §2.1.1's SHOULD); only an id or address longer than a line can
/// exceed that, and addresses are capped well below the hard limit of 998. Text that cannot go literally —
/// non-ASCII, a word too long to fold, or something a reader would take for an encoded word (`=?`) — is
/// written as UTF-8 encoded words no longer than 75 characters (RFC 2047 §2), each holding whole
/// characters, so no decoder has to join bytes across words.
enum HeaderEncoding {
    /// Where encoded words go: `Subject` text or an address's display name, which allows fewer characters
    /// unencoded in Q words (RFC 2047 §5).
    enum Context {
        case unstructured
        case phrase
    }

    /// A piece of a header value: literal text that may be folded before it, or text to encode.
    enum Piece: Equatable {
        case literal(String)
        case encoded(String, Context)
    }

    /// Literal words longer than this are encoded instead, so every line can be folded to 78 octets.
    static let longestLiteralWord = 60

    /// Header text as it may be written: every control character (CR and LF included, so no value can start
    /// a header of its own), Unicode line and paragraph separators, and every run of them or of spaces,
    /// become one space; the ends are trimmed.
    static func cleaned(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x21 || (0x7F...0x9F).contains(value) || scalar == "\u{2028}" || scalar == "\u{2029}" {
                pendingSpace = !scalars.isEmpty
                continue
            }
            if pendingSpace { scalars.append(" ") }
            pendingSpace = false
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// Unstructured text (`Subject`): words stay literal up to the first one that needs encoding, and after
    /// the last; the span between is encoded as a whole, because whitespace between two encoded words
    /// disappears when they are decoded (RFC 2047 §6.2) and must therefore travel inside them.
    static func unstructured(_ text: String) -> [Piece] {
        let words = cleaned(text).split(separator: " ", omittingEmptySubsequences: true)
        guard let first = words.firstIndex(where: needsEncoding), let last = words.lastIndex(where: needsEncoding)
        else { return words.map { .literal(String($0)) } }
        let span = words[first...last].joined(separator: " ")
        return words[..<first].map { .literal(String($0)) } + [.encoded(span, .unstructured)]
            + words[(last + 1)...].map { .literal(String($0)) }
    }

    /// A display name: atoms as they are, other printable ASCII as one quoted string (RFC 5322 §3.2.4),
    /// anything else encoded as a whole. Encoded words may not stand inside quotes, and mixing them with
    /// quoted parts gains nothing for a name.
    static func phrase(_ name: String) -> [Piece] {
        let text = cleaned(name)
        let words = text.split(separator: " ")
        if words.contains(where: needsEncoding) { return [.encoded(text, .phrase)] }
        if words.allSatisfy({ $0.unicodeScalars.allSatisfy(isAtext) }) {
            return words.map { .literal(String($0)) }
        }
        var escaped = ""
        for character in text {
            if character == "\"" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        // Folding inside a quoted string is allowed (its spaces are folding whitespace), so each word stays
        // a separate piece.
        return ("\"" + escaped + "\"").split(separator: " ").map { .literal(String($0)) }
    }

    /// `true` for a word that cannot be written literally.
    static func needsEncoding(_ word: Substring) -> Bool {
        word.utf8.count > longestLiteralWord || word.utf8.contains { $0 >= 0x80 } || word.contains("=?")
    }

    /// RFC 5322 atext: the characters of an atom.
    static func isAtext(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        default: "!#$%&'*+-/=?^_`{|}~".unicodeScalars.contains(scalar)
        }
    }
}

/// Splits text into RFC 2047 UTF-8 encoded words.
enum EncodedWordEncoder {
    /// The longest encoded word RFC 2047 §2 allows.
    static let wordLimit = 75
    /// `=?UTF-8?Q?` plus `?=`.
    static let overhead = 12

    /// The encoded words for `text`, in Q when that is at most a quarter longer than B (mostly-Latin text
    /// stays half readable in Q: `Caf=C3=A9`), else in B (CJK, Cyrillic, emoji, where Q would be 2-3 times
    /// longer). The first word is at most `firstWordLimit` characters,
    /// so it can share the current line; the others at most 75.
    static func encode(_ text: String, context: HeaderEncoding.Context, firstWordLimit: Int = wordLimit) -> [String] {
        let bytes = Array(text.utf8)
        let qLength = bytes.reduce(0) { $0 + qEncoded($1, context: context).utf8.count }
        let bLength = (bytes.count + 2) / 3 * 4
        return qLength <= bLength + bLength / 4
            ? qWords(text, context: context, firstWordLimit: firstWordLimit)
            : bWords(text, firstWordLimit: firstWordLimit)
    }

    private static func qWords(_ text: String, context: HeaderEncoding.Context, firstWordLimit: Int) -> [String] {
        var words: [String] = []
        var payload = ""
        for scalar in text.unicodeScalars {
            let piece = String(scalar).utf8.map { qEncoded($0, context: context) }.joined()
            let limit = (words.isEmpty ? firstWordLimit : wordLimit) - overhead
            if !payload.isEmpty, payload.utf8.count + piece.utf8.count > limit {
                words.append("=?UTF-8?Q?" + payload + "?=")
                payload = ""
            }
            payload += piece
        }
        if !payload.isEmpty { words.append("=?UTF-8?Q?" + payload + "?=") }
        return words
    }

    private static func bWords(_ text: String, firstWordLimit: Int) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            let limit = ((words.isEmpty ? firstWordLimit : wordLimit) - overhead) / 4 * 3
            if !chunk.isEmpty, chunk.count + bytes.count > limit {
                words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=") }
        return words
    }

    /// One byte in Q encoding: a space is `_`; in a phrase only letters, digits and `!*+-/` stay as they are
    /// (RFC 2047 §5 (3)), in unstructured text every printable character but `=`, `?` and `_`.
    static func qEncoded(_ byte: UInt8, context: HeaderEncoding.Context) -> String {
        if byte == 0x20 { return "_" }
        let literal: Bool
        switch context {
        case .unstructured:
            literal =
                (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=") && byte != UInt8(ascii: "?")
                && byte != UInt8(ascii: "_")
        case .phrase:
            literal = isAlphanumeric(byte) || "!*+-/".utf8.contains(byte)
        }
        return literal ? String(Unicode.Scalar(byte)) : "=" + Hex.byte(byte)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}

/// Builds one header field, folding before a piece when the line would pass 78 octets.
struct FoldedHeader {
    static let lineLimit = 78
    /// The first encoded word is shrunk to share a line only when at least this much room is left; below
    /// that it starts the next line instead.
    static let smallestSharedWord = 24

    private var lines: [String] = []
    private var current: String
    private var isEmpty = true

    init(name: String) {
        current = name + ":"
    }

    /// Adds pieces, each after one space (the first right after the colon).
    mutating func append(_ pieces: [HeaderEncoding.Piece]) {
        for piece in pieces {
            switch piece {
            case .literal(let token):
                append(token)
            case .encoded(let text, let context):
                let room = min(Self.lineLimit - current.utf8.count - 1, EncodedWordEncoder.wordLimit)
                let first = room >= Self.smallestSharedWord ? room : EncodedWordEncoder.wordLimit
                for word in EncodedWordEncoder.encode(text, context: context, firstWordLimit: first) { append(word) }
            }
        }
    }

    /// Adds one token after a space, on a new line when it would not fit (never before the first token:
    /// a value starting on a continuation line would gain a leading space).
    mutating func append(_ token: String) {
        if !isEmpty, current.utf8.count + 1 + token.utf8.count > Self.lineLimit {
            lines.append(current)
            current = " " + token
        } else {
            current += " " + token
        }
        isEmpty = false
    }

    /// The field, every line ended by CRLF.
    var text: String {
        (lines + [current]).map { $0 + "\r\n" }.joined()
    }
}

/// Hexadecimal digits as quoted-printable and Q encoding write them: uppercase (RFC 2045 §6.7).
enum Hex {
    static func byte(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        return String(digits[Int(value >> 4)]) + String(digits[Int(value & 0x0F)])
    }
}
