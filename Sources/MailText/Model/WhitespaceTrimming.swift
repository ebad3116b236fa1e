import Foundation

/// Foundation's `trimmingCharacters(in: .whitespaces)` and `(in: .whitespacesAndNewlines)`, with the answer
/// worked out on UTF-8 bytes when both ends of the trimmed text are ASCII.
///
/// Foundation trims through an `NSString` and builds the result from UTF-16, which cost several percent
/// of an import across the header parsers and the text pipeline. The sets' only ASCII members are tab and
/// space (`whitespaces`), plus U+000A–U+000D (`whitespacesAndNewlines`); whenever the first or last
/// scalar kept would be non-ASCII, Foundation decides, so the result is always Foundation's.
enum WhitespaceTrimming {
    case whitespaces, whitespacesAndNewlines

    func trimming(_ text: String) -> String { trimming(text[...]) }

    func trimming(_ text: Substring) -> String {
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start != utf8.endIndex, isASCIIMember(utf8[start]) { start = utf8.index(after: start) }
        guard start != utf8.endIndex else { return "" }
        var end = utf8.endIndex
        while isASCIIMember(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        guard utf8[start] < 0x80, utf8[utf8.index(before: end)] < 0x80 else {
            return text.trimmingCharacters(in: characterSet)
        }
        return String(text[start..<end])
    }

    private func isASCIIMember(_ byte: UInt8) -> Bool {
        switch self {
        case .whitespaces: byte == 0x20 || byte == 0x09
        case .whitespacesAndNewlines: byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
        }
    }

    private var characterSet: CharacterSet {
        switch self {
        case .whitespaces: .whitespaces
        case .whitespacesAndNewlines: .whitespacesAndNewlines
        }
    }
}

extension Unicode.Scalar {
    /// The Unicode White_Space property, answered for ASCII (tab, U+000A–U+000D, space) without the
    /// property lookup, which the scanners of headers, codes and twin parts pay once per scalar.
    var isWhitespace: Bool {
        isASCII ? value == 0x20 || (value >= 0x09 && value <= 0x0D) : properties.isWhitespace
    }
}
