/// IMAP's modified UTF-7 for mailbox names (RFC 3501 §5.1.3).
///
/// Printable ASCII stands for itself, except `&`, written `&-`. Any other run of characters is written
/// `&`, then its UTF-16 code units (big-endian) in base64 with `,` in place of `/` and no padding, then
/// `-`. Decoding accepts only what encoding could have produced for some string, so a name that is not
/// modified UTF-7 (a server sending raw UTF-8, say) is detected instead of garbled.
public enum ModifiedUTF7 {
    public static func encode(_ string: String) -> String {
        var output: [UInt8] = []
        var pending: [UInt16] = []
        func flush() {
            guard !pending.isEmpty else { return }
            var bytes: [UInt8] = []
            for unit in pending { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            output.append(UInt8(ascii: "&"))
            output += Base64.encode(bytes, alphabet: Base64.modifiedUTF7Alphabet, padding: false)
            output.append(UInt8(ascii: "-"))
            pending.removeAll()
        }
        for scalar in string.unicodeScalars {
            if isDirect(scalar.value) {
                flush()
                output.append(UInt8(scalar.value))
                if scalar == "&" { output.append(UInt8(ascii: "-")) }
            } else {
                pending += UTF16.encode(scalar).map { Array($0) } ?? []
            }
        }
        flush()
        return String(decoding: output, as: UTF8.self)
    }

    public static func decode(_ string: String) throws(IMAPProtocolError) -> String {
        try decode(Array(string.utf8))
    }

    /// Decodes the bytes of a mailbox name as the server sent them.
    public static func decode(_ bytes: [UInt8]) throws(IMAPProtocolError) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard isDirect(UInt32(byte)) else { throw invalid(bytes) }
            guard byte == UInt8(ascii: "&") else {
                scalars.append(Unicode.Scalar(byte))
                continue
            }
            guard let dash = bytes[index...].firstIndex(of: UInt8(ascii: "-")) else { throw invalid(bytes) }
            defer { index = dash + 1 }
            if dash == index {
                scalars.append("&")
                continue
            }
            try appendShifted(bytes[index..<dash], to: &scalars, whole: bytes)
        }
        return String(scalars)
    }

    /// Printable ASCII, which is written as itself.
    private static func isDirect(_ value: UInt32) -> Bool { (0x20...0x7E).contains(value) }

    private static func invalid(_ bytes: [UInt8]) -> IMAPProtocolError {
        .malformed("invalid modified UTF-7 \(Excerpt.quote(bytes))")
    }

    /// Decodes one base64 run into UTF-16 and then scalars, rejecting leftover bits, broken surrogate
    /// pairs and printable ASCII (which must have been written directly).
    private static func appendShifted(
        _ run: ArraySlice<UInt8>, to scalars: inout String.UnicodeScalarView, whole: [UInt8]
    ) throws(IMAPProtocolError) {
        var units: [UInt16] = []
        var accumulator: UInt32 = 0
        var bitCount = 0
        for character in run {
            guard let value = Base64.modifiedUTF7Value(character) else { throw invalid(whole) }
            accumulator = (accumulator << 6) | UInt32(value)
            bitCount += 6
            if bitCount >= 16 {
                bitCount -= 16
                units.append(UInt16(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
                accumulator &= (1 << UInt32(bitCount)) - 1
            }
        }
        // Padding bits: fewer than 6 and all zero, or the run had a partial (odd-byte) code unit.
        guard bitCount < 6, accumulator == 0, !units.isEmpty else { throw invalid(whole) }
        var decoded = String.UnicodeScalarView()
        var iterator = units.makeIterator()
        var decoder = UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                guard !isDirect(scalar.value) else { throw invalid(whole) }
                decoded.append(scalar)
            case .emptyInput: break loop
            case .error: throw invalid(whole)
            }
        }
        scalars.append(contentsOf: decoded)
    }
}

/// Base64 without Foundation, for SASL initial responses and modified UTF-7.
enum Base64 {
    static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    static let modifiedUTF7Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+,".utf8)

    static func encode(_ bytes: [UInt8], alphabet: [UInt8] = standardAlphabet, padding: Bool = true) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            index += 3
            var group: UInt32 = 0
            for (offset, byte) in chunk.enumerated() { group |= UInt32(byte) << UInt32(16 - 8 * offset) }
            let characters = chunk.count + 1
            for position in 0..<4 {
                if position < characters {
                    output.append(alphabet[Int((group >> UInt32(18 - 6 * position)) & 0x3F)])
                } else if padding {
                    output.append(UInt8(ascii: "="))
                }
            }
        }
        return output
    }

    static func modifiedUTF7Value(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: ","): 63
        default: nil
        }
    }
}
