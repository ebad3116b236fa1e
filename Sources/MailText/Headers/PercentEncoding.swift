/// `%XX` escapes in header values: RFC 2231 parameters and `mailto:` URLs in list headers.
enum PercentEncoding {
    /// `%XX` to bytes; a malformed escape stays literal.
    static func decoded(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == UInt8(ascii: "%"), index + 2 < text.endIndex,
                let high = EncodedWordScanner.hexValue(text[index + 1]),
                let low = EncodedWordScanner.hexValue(text[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(text[index])
                index += 1
            }
        }
        return bytes
    }
}
