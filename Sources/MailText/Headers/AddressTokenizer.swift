/// The lexical layer of ``AddressListParser``: RFC 5322 §3.2 tokens of an address header.
///
/// Tokenizing first is what keeps commas inside quoted strings and comments from splitting addresses.
/// Every loop consumes at least one byte, and unterminated quotes, comments and literals run to the end of
/// the input instead of failing.
enum AddressTokenizer {
    /// One lexical token.
    enum Token: Equatable {
        /// A run of atom text (letters, digits, dots and the other atext characters, raw 8-bit bytes included).
        case atom([UInt8])
        /// A quoted string's contents with the quotes removed and backslash escapes resolved.
        case quoted([UInt8])
        /// A comment's contents without the outer parentheses; nested parentheses are kept as text.
        case comment([UInt8])
        /// A domain literal such as `[192.0.2.1]`, brackets included.
        case literal([UInt8])
        /// One of the structural characters `<`, `>`, `@`, `,`, `:`, `;`.
        case special(UInt8)
    }

    /// A token and whether whitespace preceded it (needed to rebuild display names faithfully).
    struct Lexeme: Equatable {
        var token: Token
        var spaceBefore: Bool
    }

    /// The structural characters that end an atom.
    private static let specials: Set<UInt8> = Set("<>@,:;()\"[]\\".utf8)

    /// Splits a raw header value into lexemes.
    static func tokenize(_ raw: [UInt8]) -> [Lexeme] {
        var lexemes: [Lexeme] = []
        var index = 0
        var spaceBefore = false
        while index < raw.count {
            let byte = raw[index]
            if HeaderText.isWhitespace(byte) {
                spaceBefore = true
                index += 1
                continue
            }
            let token: Token
            switch byte {
            case UInt8(ascii: "\""):
                let (contents, end) = delimited(raw, from: index + 1, close: UInt8(ascii: "\""), nests: false)
                guard end <= raw.count, raw[end - 1] == UInt8(ascii: "\""), end - 1 > index else {
                    // Unterminated quote: drop the stray `"` and tokenize the rest normally, so
                    // `"Bob <bob@x.org>` still yields the address.
                    index += 1
                    continue
                }
                token = .quoted(contents)
                index = end
            case UInt8(ascii: "("):
                let (contents, end) = delimited(raw, from: index + 1, close: UInt8(ascii: ")"), nests: true)
                token = .comment(contents)
                index = end
            case UInt8(ascii: "["):
                var end = index + 1
                while end < raw.count, raw[end] != UInt8(ascii: "]") { end += 1 }
                end = min(end + 1, raw.count)
                token = .literal(Array(raw[index..<end]))
                index = end
            case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"), UInt8(ascii: ","), UInt8(ascii: ":"),
                UInt8(ascii: ";"):
                token = .special(byte)
                index += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "\\"):
                // A stray closer or backslash: keep it as text so nothing is lost, and move on.
                token = .atom([byte])
                index += 1
            default:
                var end = index
                while end < raw.count, !HeaderText.isWhitespace(raw[end]) {
                    // An encoded word is one atom even when its text holds specials such as `,` or `@`
                    // (RFC 2047 §5 forbids that in phrases; senders do it anyway).
                    if let wordEnd = encodedWordEnd(raw, from: end) {
                        end = wordEnd
                        continue
                    }
                    if specials.contains(raw[end]) { break }
                    end += 1
                }
                token = .atom(Array(raw[index..<end]))
                index = end
            }
            lexemes.append(Lexeme(token: token, spaceBefore: spaceBefore))
            spaceBefore = false
        }
        return lexemes
    }

    /// The index just past an encoded word `=?charset?e?text?=` that starts at `start` and holds no whitespace.
    private static func encodedWordEnd(_ raw: [UInt8], from start: Int) -> Int? {
        guard start + 1 < raw.count, raw[start] == UInt8(ascii: "="), raw[start + 1] == UInt8(ascii: "?") else {
            return nil
        }
        var questionMarks = 0
        var index = start + 2
        while index < raw.count, !HeaderText.isWhitespace(raw[index]) {
            if raw[index] == UInt8(ascii: "?") {
                if questionMarks >= 2, index + 1 < raw.count, raw[index + 1] == UInt8(ascii: "=") { return index + 2 }
                questionMarks += 1
            }
            index += 1
        }
        return nil
    }

    /// Reads a quoted string or comment body starting after its opener.
    /// - returns: the unescaped contents and the index just past the closer (or the end of input).
    private static func delimited(_ raw: [UInt8], from start: Int, close: UInt8, nests: Bool) -> ([UInt8], Int) {
        var contents: [UInt8] = []
        var depth = 0
        var index = start
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "\\"), index + 1 < raw.count {
                contents.append(raw[index + 1])
                index += 2
                continue
            }
            if nests, byte == UInt8(ascii: "(") {
                depth += 1
            } else if byte == close {
                if depth == 0 { return (contents, index + 1) }
                depth -= 1
            }
            contents.append(byte)
            index += 1
        }
        return (contents, index)
    }
}
