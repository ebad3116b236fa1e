/// A base64 decoder for encoded words, forgiving about padding but strict about the alphabet.
///
/// Senders drop `=` padding and sometimes leave spaces inside B words; both are tolerated. Any other
/// character means the word is not base64 at all, and the caller keeps it literal rather than guess.
enum Base64Lenient {
    /// Decodes `text`, or returns `nil` when it holds a character outside the base64 alphabet.
    static func decode(_ text: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var sawPadding = false
        for byte in text {
            if byte == UInt8(ascii: "=") {
                sawPadding = true
                continue
            }
            if HeaderText.isWhitespace(byte) { continue }
            guard !sawPadding, let value = sextet(byte) else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }

    /// The 6-bit value of a base64 alphabet byte.
    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
