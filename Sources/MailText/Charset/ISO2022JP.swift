/// Decodes ISO-2022-JP the way Japanese mail needs: through CP932, which knows the NEC and IBM extensions.
///
/// Windows and many phones send ISO-2022-JP containing NEC row 13 characters (①, №, ㈱) that strict
/// ISO-2022-JP and glibc's ISO-2022-JP-2/-3 reject (glibc has no CP50221). Re-encoding the JIS X 0208 pairs as
/// Shift_JIS is plain arithmetic, and CP932 then decodes every extension.
enum ISO2022JP {
    /// The text, or `nil` when the input uses an escape sequence beyond ASCII, JIS X 0201 and JIS X 0208
    /// (the caller then falls back to iconv's ISO-2022-JP-2).
    static func decode(_ bytes: [UInt8]) -> String? {
        guard let shiftJIS = toShiftJIS(bytes), let converter = IconvConverter(from: "CP932") else { return nil }
        return String(decoding: converter.convert(shiftJIS).utf8, as: UTF8.self)
    }

    /// The shift states of RFC 1468 plus half-width katakana (`ESC ( I`).
    private enum Mode {
        case ascii, jis0208, katakana
    }

    /// Rewrites ISO-2022-JP bytes as Shift_JIS (CP932) bytes.
    static func toShiftJIS(_ bytes: [UInt8]) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var mode = Mode.ascii
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B {
                guard index + 2 < bytes.count else { return nil }
                switch (bytes[index + 1], bytes[index + 2]) {
                case (0x24, 0x42), (0x24, 0x40): mode = .jis0208  // ESC $ B, ESC $ @
                case (0x28, 0x42), (0x28, 0x4A): mode = .ascii  // ESC ( B, ESC ( J
                case (0x28, 0x49): mode = .katakana  // ESC ( I
                default: return nil
                }
                index += 3
                continue
            }
            switch mode {
            case .ascii:
                output.append(byte)
                index += 1
            case .katakana:
                output.append((0x21...0x5F).contains(byte) ? byte + 0x80 : byte)
                index += 1
            case .jis0208:
                guard (0x21...0x7E).contains(byte), index + 1 < bytes.count, (0x21...0x7E).contains(bytes[index + 1])
                else {
                    output.append(byte)  // Line breaks or junk inside a double-byte run: keep as is.
                    index += 1
                    continue
                }
                output += pair(byte, bytes[index + 1])
                index += 2
            }
        }
        return output
    }

    /// One JIS X 0208 row/cell pair as its two Shift_JIS bytes.
    private static func pair(_ first: UInt8, _ second: UInt8) -> [UInt8] {
        var lead = (UInt16(first) + 1) / 2 + 0x70
        if lead >= 0xA0 { lead += 0x40 }
        var trail = UInt16(second)
        if first & 1 == 1 {
            trail += 0x1F
            if trail >= 0x7F { trail += 1 }
        } else {
            trail += 0x7E
        }
        return [UInt8(truncatingIfNeeded: lead), UInt8(truncatingIfNeeded: trail)]
    }
}
