/// Weighs whether invalid UTF-8 is really UTF-8 with a few damaged bytes or a legacy 8-bit charset.
enum UTF8Evidence {
    /// `true` when well-formed multibyte sequences outnumber the bytes that fit no sequence by at least 2 to 1.
    ///
    /// Latin-1 text almost never forms valid multibyte sequences by accident (`é` alone is `0xE9`, which needs two
    /// continuation bytes after it), so even a few valid sequences are strong evidence of UTF-8.
    static func isMostlyUTF8(_ bytes: [UInt8]) -> Bool {
        var valid = 0
        var invalid = 0
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length: Int
            switch lead {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: length = 0
            }
            if length == 1 {
                index += 1
                continue
            }
            if length > 1, index + length <= bytes.count,
                bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 })
            {
                valid += 1
                index += length
            } else {
                invalid += 1
                index += 1
            }
        }
        return valid > 0 && valid >= 2 * invalid
    }
}
