import Foundation

/// Content-Transfer-Encoding decoders (RFC 2045 §6), written for mail as it is, not as it should be.
///
/// Both decoders are total: garbage never throws and never empties the output. Base64 skips characters
/// outside its alphabet and tolerates missing padding; quoted-printable leaves malformed escapes literal.
public enum TransferDecoding {
    /// The transfer encodings chatmail recognises; anything else is treated as identity (`8bit`).
    public enum Encoding: Sendable, Equatable {
        case identity, base64, quotedPrintable

        /// Reads a `Content-Transfer-Encoding` value; unknown values (`x-uuencode`, typos) are identity.
        public init(headerValue: String?) {
            switch headerValue.map({ WhitespaceTrimming.whitespaces.trimming($0) })?.lowercased() {
            case "base64": self = .base64
            case "quoted-printable": self = .quotedPrintable
            default: self = .identity  // 7bit, 8bit, binary, absent, unknown
            }
        }
    }

    /// Decodes `bytes` from `encoding`.
    public static func decode(_ bytes: ArraySlice<UInt8>, _ encoding: Encoding) -> [UInt8] {
        switch encoding {
        case .identity: Array(bytes)
        case .base64: base64(bytes)
        case .quotedPrintable: quotedPrintable(bytes)
        }
    }

    /// Lenient base64: the standard and URL-safe alphabets, whitespace and garbage skipped, padding
    /// optional, decoding stopped at the first `=` pad that ends a quantum.
    public static func base64(_ bytes: some Collection<UInt8>) -> [UInt8] {
        base64(bytes, strict: false) ?? []
    }

    /// Base64 for RFC 2047 "B" encoded words: whitespace and missing padding are tolerated, but any
    /// other character outside the alphabet (or data after padding) returns `nil`, so the caller can
    /// leave a malformed word literal instead of guessing.
    public static func base64Strict(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        base64(bytes, strict: true)
    }

    /// The one base64 decoder behind both modes.
    static func base64(_ bytes: some Collection<UInt8>, strict: Bool) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var sawPadding = false
        for byte in bytes {
            let value = base64Value[Int(byte)]
            if value == padding {
                // A pad ends the data; any bits left over are incomplete and dropped.
                if !strict && bits > 0 { break }
                sawPadding = true
                continue
            }
            guard value != invalid else {
                let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
                if strict && !isSpace { return nil }
                continue
            }
            if strict && sawPadding { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }

    /// Quoted-printable: `=XX` escapes (either case), soft line breaks (`=` at end of line, with or
    /// without trailing whitespace, CRLF or LF); a malformed `=` sequence is kept literally.
    public static func quotedPrintable(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == UInt8(ascii: "=") else {
                output.append(byte)
                index += 1
                continue
            }
            // Soft line break: "=" then optional spaces/tabs then CRLF, LF or end of input.
            var look = index + 1
            while look < input.count, input[look] == 0x20 || input[look] == 0x09 { look += 1 }
            if look == input.count {
                index = look
                continue
            }
            if input[look] == 0x0A {
                index = look + 1
                continue
            }
            if input[look] == 0x0D {
                index = look + (look + 1 < input.count && input[look + 1] == 0x0A ? 2 : 1)
                continue
            }
            if index + 2 < input.count,
                let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
                continue
            }
            output.append(byte)  // not an escape: keep the "=" as written
            index += 1
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static let invalid: UInt8 = 0xFF
    private static let padding: UInt8 = 0xFE

    /// Maps a byte to its 6-bit value; `+`/`-` and `/`/`_` both accepted so base64url decodes too.
    private static let base64Value: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        table[Int(UInt8(ascii: "="))] = padding
        return table
    }()
}
