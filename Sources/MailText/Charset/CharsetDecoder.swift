import Glibc

/// Turns bytes in a declared charset into text, the way a forgiving mail reader must.
///
/// Mail declares charsets that are missing, misspelled, unknown or wrong. `CharsetDecoder` never fails and
/// never returns an empty string for non-empty input: it decodes with glibc's iconv when the label is known,
/// and otherwise guesses UTF-8, then windows-1252, with U+FFFD for bytes nothing can decode.
///
/// ```swift
/// CharsetDecoder.decode([0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], charset: "koi8-r")  // "Привет"
/// ```
public enum CharsetDecoder {
    /// Decodes `bytes` declared as `charset` into a string.
    ///
    /// US-ASCII, UTF-8 and missing labels take a fast path (validated UTF-8, else windows-1252 when it decodes
    /// cleanly). ISO-8859-1 is read as its superset windows-1252, as browsers do. A leading byte order mark is
    /// dropped. When a label iconv knows produces replacement characters but the bytes are valid UTF-8, the
    /// label is taken to be lying and UTF-8 wins.
    /// - parameter bytes: the encoded text.
    /// - parameter charset: the label as written in the message, or `nil` when none was declared.
    /// - returns: the text; empty only when `bytes` is empty.
    public static func decode(_ bytes: [UInt8], charset: String?) -> String {
        guard !bytes.isEmpty else { return "" }
        let decoded: String
        switch charset.flatMap(canonicalName) {
        case nil, "UTF-8", "US-ASCII":
            decoded = decodeUndeclared(bytes)
        case "ISO-2022-JP-2":
            decoded = ISO2022JP.decode(bytes) ?? decodeWithIconv(bytes, name: "ISO-2022-JP-2")
        case "ISO-8859-1", "CP1252":
            decoded = isASCII(bytes) ? asciiString(bytes) : Windows1252.decode(bytes)
        case .some(let name):
            decoded = decodeWithIconv(bytes, name: name)
        }
        let withoutBOM = decoded.first == "\u{FEFF}" ? String(decoded.unicodeScalars.dropFirst()) : decoded
        // A BOM alone, or a stateful encoding's bare escape sequences, decode to nothing; show the bytes instead.
        return withoutBOM.isEmpty ? String(decoding: bytes, as: UTF8.self) : withoutBOM
    }

    /// The iconv name for a charset label, or `nil` when iconv cannot open it.
    ///
    /// Case-insensitive; trims quotes and whitespace; drops a leading `3d` (quoted-printable `=3D` residue) and an
    /// RFC 2231 `*language` suffix; maps aliases and subsets to the supersets mail actually uses
    /// (`ks_c_5601-1987` → `CP949`, `gb2312` → `GB18030`, `shift_jis` → `CP932`, `tis-620` → `CP874`).
    public static func canonicalName(_ label: String) -> String? {
        let normalized = CharsetAliases.normalize(label)
        guard !normalized.isEmpty, normalized.allSatisfy(isLabelCharacter) else { return nil }
        if let known = CharsetAliases.table[normalized] { return known }
        if let family = CharsetAliases.familyName(normalized) { return family }
        let candidate = normalized.uppercased()
        return IconvConverter.canOpen(candidate) ? candidate : nil
    }

    /// Decodes text with no usable label: UTF-8 when valid, else windows-1252 when clean, else UTF-8 with U+FFFD.
    ///
    /// One refinement: text that is mostly well-formed UTF-8 with a stray bad byte (a truncated header) stays
    /// UTF-8, because reading its multibyte sequences as windows-1252 would garble every non-ASCII letter.
    static func decodeUndeclared(_ bytes: [UInt8]) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let valid = String(validating: body, as: UTF8.self) { return valid }
        if Windows1252.decodesCleanly(body), !UTF8Evidence.isMostlyUTF8(body) { return Windows1252.decode(body) }
        return String(decoding: body, as: UTF8.self)
    }

    /// Decodes through iconv, preferring UTF-8 when the label is evidently wrong.
    private static func decodeWithIconv(_ bytes: [UInt8], name: String) -> String {
        guard let converter = IconvConverter(from: name) else { return decodeUndeclared(bytes) }
        let (utf8, replacements) = converter.convert(bytes)
        if replacements > 0, !isASCII(bytes), let valid = String(validating: bytes, as: UTF8.self) {
            return valid
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// `true` when every byte is 7-bit.
    static func isASCII(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }

    /// Builds a string from bytes already known to be ASCII.
    private static func asciiString(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Characters allowed in a label handed to iconv; `/` would let a label request transliteration.
    private static func isLabelCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-_.:+".contains(character))
    }
}
