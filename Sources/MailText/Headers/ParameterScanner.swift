/// The lexical side of ``HeaderParameters``: walks `value; name=value; name="quoted"` forgivingly.
struct ParameterScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads the main value (up to the first `;`, or up to the first `name=` when the `;` is missing).
    mutating func mainValue() -> String {
        skipWhitespace()
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: ";") {
            if HeaderText.isWhitespace(bytes[index]), parameterStarts(at: index) { break }
            if bytes[index] == UInt8(ascii: "=") {
                // No main value at all (`charset=utf-8`): rewind and read everything as parameters.
                index = start
                return ""
            }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        return HeaderText.collapsingWhitespace(HeaderText.sanitized(text)).lowercased()
    }

    /// Reads the next `name=value`, skipping stray separators and junk; `nil` at the end.
    /// - returns: the raw name, the value bytes (quotes removed, escapes resolved) and whether it was quoted.
    mutating func nextParameter() -> (name: String, value: [UInt8], quoted: Bool)? {
        while index < bytes.count {
            skipSeparators()
            let nameStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ";"),
                !HeaderText.isWhitespace(bytes[index])
            {
                index += 1
            }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "="), !name.isEmpty else {
                // A word without `=`: junk. Step over it (the loop above or this step always advances).
                if index == nameStart, index < bytes.count { index += 1 }
                continue
            }
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                return (name, quotedValue(), true)
            }
            return (name, unquotedValue(), false)
        }
        return nil
    }

    /// Reads a quoted string after its opening quote; unterminated quotes run to the end.
    private mutating func quotedValue() -> [UInt8] {
        index += 1
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                index += 1
            }
            value.append(bytes[index])
            index += 1
        }
        if index < bytes.count { index += 1 }
        return value
    }

    /// Reads an unquoted value up to `;`, or up to a following ` name=` when the `;` was forgotten.
    private mutating func unquotedValue() -> [UInt8] {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: ";") {
            if HeaderText.isWhitespace(bytes[index]), parameterStarts(at: index) { break }
            index += 1
        }
        var end = index
        while end > start, HeaderText.isWhitespace(bytes[end - 1]) { end -= 1 }
        return Array(bytes[start..<end])
    }

    /// `true` when whitespace at `position` is followed by `token=`, a parameter missing its `;`.
    private func parameterStarts(at position: Int) -> Bool {
        var cursor = position
        while cursor < bytes.count, HeaderText.isWhitespace(bytes[cursor]) { cursor += 1 }
        let tokenStart = cursor
        while cursor < bytes.count, isTokenByte(bytes[cursor]) { cursor += 1 }
        guard cursor > tokenStart else { return false }
        while cursor < bytes.count, HeaderText.isWhitespace(bytes[cursor]) { cursor += 1 }
        return cursor < bytes.count && bytes[cursor] == UInt8(ascii: "=")
    }

    /// Parameter-name bytes: letters, digits, `-`, `_`, `.`, `*`.
    private func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || "-_.*".utf8.contains(byte)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, HeaderText.isWhitespace(bytes[index]) { index += 1 }
    }

    private mutating func skipSeparators() {
        while index < bytes.count, HeaderText.isWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: ";") {
            index += 1
        }
    }
}
