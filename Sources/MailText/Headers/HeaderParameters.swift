/// A `Content-Type` or `Content-Disposition` value split into its main value and parameters.
///
/// MIME parameters arrive in every form RFC 2045 and RFC 2231 allow and several they do not: quoted and
/// unquoted values, `name*=utf-8''caf%C3%A9`, continuations `name*0=`/`name*1*=`, RFC 2047 words inside
/// quoted file names, missing or doubled semicolons. Parsing them in one place keeps the MIME walker simple.
///
/// ```swift
/// HeaderParameters.parse(Array("Text/Plain; Charset=\"UTF-8\"; format=flowed".utf8))
/// // value "text/plain", parameters ["charset": "UTF-8", "format": "flowed"]
/// ```
public struct HeaderParameters: Sendable, Equatable {
    /// The main value, lowercased and trimmed (`text/plain`, `attachment`); empty when the header had none.
    public var value: String
    /// Parameters by lowercased name, values decoded (quotes, RFC 2231, RFC 2047) but otherwise as written.
    public var parameters: [String: String]

    /// Creates parameters from already-decoded parts (for callers and tests).
    public init(value: String, parameters: [String: String]) {
        self.value = value
        self.parameters = parameters
    }

    /// Parses a raw header value.
    ///
    /// Duplicate parameters: the first wins. An RFC 2231 form (`name*`, `name*0…`) wins over the plain form
    /// of the same name because it carries the exact bytes and charset.
    public static func parse(_ raw: [UInt8]) -> HeaderParameters {
        var scanner = ParameterScanner(raw)
        let value = scanner.mainValue()
        var plain: [String: String] = [:]
        var extended: [String: [RFC2231Section]] = [:]
        var order: [String] = []
        while let (rawName, rawValue, quoted) = scanner.nextParameter() {
            let name = rawName.lowercased()
            if let section = RFC2231Section(name: name, value: rawValue) {
                if extended[section.baseName] == nil { order.append(section.baseName) }
                extended[section.baseName, default: []].append(section)
            } else if plain[name] == nil {
                plain[name] = decodePlain(rawValue, quoted: quoted)
            }
        }
        for baseName in order {
            if let sections = extended[baseName] { plain[baseName] = RFC2231Section.assemble(sections) }
        }
        return HeaderParameters(value: value, parameters: plain)
    }

    /// Decodes a plain value: RFC 2047 words when present (non-standard but common), else UTF-8 or windows-1252.
    private static func decodePlain(_ bytes: [UInt8], quoted: Bool) -> String {
        let text = EncodedWords.decode(bytes)
        return quoted ? text : HeaderText.collapsingWhitespace(text)
    }
}

/// One piece of an RFC 2231 parameter: `name*`, `name*N` or `name*N*`.
struct RFC2231Section {
    var baseName: String
    var number: Int
    var isEncoded: Bool
    var value: [UInt8]

    /// Recognizes an RFC 2231 parameter name; `nil` for a plain name.
    init?(name: String, value: [UInt8]) {
        guard let star = name.firstIndex(of: "*") else { return nil }
        baseName = String(name[..<star])
        var suffix = name[name.index(after: star)...]
        isEncoded = suffix.hasSuffix("*") || suffix.isEmpty
        if suffix.hasSuffix("*") { suffix = suffix.dropLast() }
        if suffix.isEmpty {
            number = 0
        } else if let parsed = Int(suffix), parsed >= 0, parsed < 10_000 {
            number = parsed
        } else {
            return nil
        }
        self.value = value
        guard !baseName.isEmpty else { return nil }
    }

    /// Joins sections in numeric order (first of each number wins), percent-decodes encoded ones and decodes
    /// the bytes with the charset named by section 0 (RFC 2231 §4).
    static func assemble(_ sections: [RFC2231Section]) -> String {
        var byNumber: [Int: RFC2231Section] = [:]
        for section in sections where byNumber[section.number] == nil { byNumber[section.number] = section }
        var charset: String?
        var bytes: [UInt8] = []
        for number in byNumber.keys.sorted() {
            guard let section = byNumber[number] else { continue }
            var payload = section.value[...]
            if section.isEncoded, number == 0 {
                let quotes = payload.indices.filter { payload[$0] == UInt8(ascii: "'") }.prefix(2)
                if quotes.count == 2, let first = quotes.first, let second = quotes.last {
                    charset = String(decoding: payload[..<first], as: UTF8.self)
                    payload = payload[(second + 1)...]
                }
            }
            bytes += section.isEncoded ? PercentEncoding.decoded(payload) : Array(payload)
        }
        if charset?.isEmpty ?? true, bytes.contains(UInt8(ascii: "=")), bytes.contains(UInt8(ascii: "?")) {
            return EncodedWords.decode(bytes)
        }
        return HeaderText.sanitized(CharsetDecoder.decode(bytes, charset: charset))
    }
}
