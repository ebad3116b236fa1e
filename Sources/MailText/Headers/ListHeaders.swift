import Foundation

/// The mailing list a message came through, from its `List-Id` header (RFC 2919).
public struct MailingList: Sendable, Hashable {
    /// The list identifier (`dev.lists.example.org`): lowercased, without angle brackets. Never empty.
    public var id: String
    /// The list's display name, RFC 2047-decoded; `nil` when the header had none.
    public var name: String?

    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }
}

/// How a list accepts posts, from its `List-Post` header (RFC 2369).
public enum ListPosting: Sendable, Hashable {
    /// Members post by writing to this address.
    case address(MailAddress)
    /// `List-Post: NO`: an announcement list, nobody can post to it.
    case readOnly
}

/// Parses the RFC 2369 / RFC 2919 list headers.
///
/// ```swift
/// ListHeaders.mailingList(Array("Dev talk <Dev.Lists.Example.org>".utf8))  // id "dev.lists.example.org", name "Dev talk"
/// ListHeaders.posting(Array("<mailto:dev@lists.example.org?subject=hi>".utf8))  // .address(dev@lists.example.org)
/// ```
public enum ListHeaders {
    /// Reads a `List-Id` value: the identifier is inside the last `<…>` (the phrase before it is the name), or
    /// the whole value when it has no brackets. `nil` when the identifier is empty.
    public static func mailingList(_ raw: [UInt8]) -> MailingList? {
        guard let open = raw.lastIndex(of: UInt8(ascii: "<")) else {
            return identifier(raw[...]).map { MailingList(id: $0) }
        }
        // An unclosed `<` still opens the identifier: it runs to the end of the value.
        let inner = raw[(open + 1)...]
        let close = inner.firstIndex(of: UInt8(ascii: ">")) ?? inner.endIndex
        guard let id = identifier(inner[..<close]) else { return nil }
        return MailingList(id: id, name: displayName(raw[..<open]))
    }

    /// Reads a `List-Post` value: the first `mailto:` URL in angle brackets that names an address, or
    /// ``ListPosting/readOnly`` for `NO` (a comment may follow). `nil` when neither is there, such as a
    /// web form's URL alone.
    public static func posting(_ raw: [UInt8]) -> ListPosting? {
        for url in bracketedURLs(raw) {
            guard url.count > 7, String(decoding: url.prefix(7), as: UTF8.self).lowercased() == "mailto:" else {
                continue
            }
            // `?subject=…` and other header fields of the URL (RFC 6068) are not part of the address.
            let addressPart = url.dropFirst(7).prefix { $0 != UInt8(ascii: "?") }
            if let first = AddressListParser.parse(PercentEncoding.decoded(addressPart)).first(where: {
                $0.address.contains("@")
            }) {
                return .address(first)
            }
        }
        let bare = WhitespaceTrimming.whitespaces.trimming(String(decoding: withoutComments(raw), as: UTF8.self))
        return bare.lowercased() == "no" ? .readOnly : nil
    }

    /// The contents of each `<…>` in order, with whitespace removed (RFC 2369 lets it fold long URLs).
    static func bracketedURLs(_ raw: [UInt8]) -> [[UInt8]] {
        var urls: [[UInt8]] = []
        var current: [UInt8]?
        for byte in raw {
            switch byte {
            case UInt8(ascii: "<"): current = []
            case UInt8(ascii: ">"):
                if let url = current { urls.append(url) }
                current = nil
            default:
                if !HeaderText.isWhitespace(byte) { current?.append(byte) }
            }
        }
        return urls
    }

    /// The value with its `(comments)` removed; nested comments count as one.
    static func withoutComments(_ raw: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var depth = 0
        for byte in raw {
            if byte == UInt8(ascii: "(") {
                depth += 1
            } else if byte == UInt8(ascii: ")"), depth > 0 {
                depth -= 1
            } else if depth == 0 {
                result.append(byte)
            }
        }
        return result
    }

    /// A list identifier: decoded as UTF-8 (else windows-1252), controls dropped, trimmed, lowercased.
    private static func identifier(_ bytes: ArraySlice<UInt8>) -> String? {
        let text = HeaderText.sanitized(CharsetDecoder.decode(Array(bytes), charset: nil))
        let id = WhitespaceTrimming.whitespaces.trimming(text).lowercased()
        return id.isEmpty ? nil : id
    }

    /// The phrase before the identifier, RFC 2047-decoded, without surrounding quotes and whitespace.
    private static func displayName(_ bytes: ArraySlice<UInt8>) -> String? {
        // Quotes are trimmed before decoding too, so a quoted encoded word (`"=?UTF-8?Q?…?="`) is decoded.
        let isTrimmed = { (byte: UInt8) in HeaderText.isWhitespace(byte) || byte == UInt8(ascii: "\"") }
        let phrase = bytes.drop(while: isTrimmed).reversed().drop(while: isTrimmed).reversed()
        let name = decodingNumericReferences(HeaderText.collapsingWhitespace(EncodedWords.decode(Array(phrase))))
            .trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\"")))
        return name.isEmpty ? nil : name
    }

    /// Replaces HTML numeric character references (`&#241;`, `&#xF1;`) with their characters.
    ///
    /// Mailman 2 wrote non-ASCII list descriptions into List-Id this way instead of as encoded words, so
    /// "Mozilla en Espa&#241;ol" means "Mozilla en Español". A reference to a control character, a
    /// surrogate or beyond Unicode is left as written.
    static func decodingNumericReferences(_ text: String) -> String {
        guard text.contains("&#") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "&#") {
            result += rest[..<start.lowerBound]
            let afterHash = rest[start.upperBound...]
            let isHex = afterHash.first == "x" || afterHash.first == "X"
            let digits = (isHex ? afterHash.dropFirst() : afterHash).prefix {
                isHex ? $0.isHexDigit : $0.isASCII && $0.isNumber
            }
            let end = digits.endIndex
            if !digits.isEmpty, digits.count <= 8, end < rest.endIndex, rest[end] == ";",
                let value = UInt32(digits, radix: isHex ? 16 : 10), value >= 0x20, value != 0x7F,
                !(0x80..<0xA0).contains(value), let scalar = Unicode.Scalar(value)
            {
                result.unicodeScalars.append(scalar)
                rest = rest[rest.index(after: end)...]
            } else {
                result += "&#"
                rest = afterHash
            }
        }
        return result + rest
    }
}
