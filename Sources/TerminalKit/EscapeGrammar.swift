/// The byte grammar of keyboard input: single bytes, UTF-8 characters, and the CSI and SS3 sequences
/// xterm, VTE, kitty, tmux and the Linux console send. Split from `KeyDecoder`, which keeps the state
/// across reads, so this part is a pure function of the bytes at hand.
enum EscapeGrammar {
    static let escape: UInt8 = 0x1B
    /// Sent before pasted text while bracketed paste mode (`ESC[?2004h`) is on.
    static let pasteStart: [UInt8] = Array("\u{1B}[200~".utf8)
    /// Sent after pasted text.
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)
    /// A CSI sequence longer than this without a final byte is garbage, not a key still arriving.
    static let longestSequence = 32

    enum Token: Equatable {
        case key(Key)
        /// The start of a bracketed paste: the bytes up to the end marker are text.
        case pasteStart
        /// Recognised as one unit but meaning no key (an unknown sequence, a stray control byte).
        case ignored
    }

    struct Step: Equatable {
        var token: Token
        var length: Int
    }

    /// The token starting at `index`, or `nil` when the bytes end before it does.
    static func decode(_ bytes: [UInt8], at index: Int) -> Step? {
        let byte = bytes[index]
        if byte == escape { return decodeEscape(bytes, at: index) }
        if byte < 0x80 { return Step(token: singleByte(byte), length: 1) }
        return decodeCharacter(bytes, at: index)
    }

    /// A byte below 0x80 other than ESC.
    static func singleByte(_ byte: UInt8) -> Token {
        switch byte {
        case 0x0D, 0x0A: return .key(.enter)
        case 0x7F, 0x08: return .key(.backspace)
        case 0x09: return .key(.tab)
        case 0x01...0x1A: return .key(.control(Character(Unicode.Scalar(byte + 0x60))))
        case 0x20...0x7E: return .key(.character(Character(Unicode.Scalar(byte))))
        default: return .ignored  // NUL and the Ctrl-\ ] ^ _ bytes name no key the app uses
        }
    }

    /// One UTF-8 character; invalid or C1-control input is ignored one byte at a time, so decoding
    /// resynchronises on the next valid lead byte.
    static func decodeCharacter(_ bytes: [UInt8], at index: Int) -> Step? {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return Step(token: .ignored, length: 1)
        }
        let available = min(length, bytes.count - index)
        for offset in 1..<available where bytes[index + offset] & 0xC0 != 0x80 {
            return Step(token: .ignored, length: 1)
        }
        guard available == length else { return nil }
        var decoder = UTF8()
        var iterator = bytes[index..<index + length].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), !(0x80...0x9F).contains(scalar.value)
        else { return Step(token: .ignored, length: 1) }
        return Step(token: .key(.character(Character(scalar))), length: length)
    }

    /// ESC and what follows it: a CSI or SS3 sequence, Alt plus a key, or the start of a paste.
    static func decodeEscape(_ bytes: [UInt8], at index: Int) -> Step? {
        guard index + 1 < bytes.count else { return nil }
        let next = bytes[index + 1]
        switch next {
        case UInt8(ascii: "["): return decodeCSI(bytes, at: index)
        case UInt8(ascii: "O"): return decodeSS3(bytes, at: index)
        case 0x0D, 0x0A: return Step(token: .key(.altEnter), length: 2)
        case escape: return Step(token: .key(.escape), length: 1)  // Esc, then a new sequence
        case 0x20...0x7E:
            return Step(token: .key(.alt(Character(Unicode.Scalar(next)))), length: 2)
        case 0x80...:
            guard let step = decodeCharacter(bytes, at: index + 1) else { return nil }
            guard case .key(.character(let character)) = step.token else { return Step(token: .ignored, length: 1) }
            return Step(token: .key(.alt(character)), length: step.length + 1)
        default:
            // Alt with Tab, Backspace or a Ctrl-letter: the plain key, as for other modifiers.
            return Step(token: singleByte(next), length: 2)
        }
    }

    /// `ESC [ parameters intermediates final`, plus the Linux console's `ESC [ [ A`…`E` for F1–F5.
    static func decodeCSI(_ bytes: [UInt8], at index: Int) -> Step? {
        var cursor = index + 2
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "[") {
            guard cursor + 1 < bytes.count else { return nil }
            let final = bytes[cursor + 1]
            let key: Key? = (UInt8(ascii: "A")...UInt8(ascii: "E")).contains(final) ? .function(Int(final) - 0x40) : nil
            return Step(token: key.map(Token.key) ?? .ignored, length: 4)
        }
        while cursor < bytes.count, (0x20...0x3F).contains(bytes[cursor]) {
            cursor += 1
            if cursor - index > longestSequence { return Step(token: .ignored, length: cursor - index) }
        }
        guard cursor < bytes.count else { return nil }
        let final = bytes[cursor]
        guard (0x40...0x7E).contains(final) else {
            // Not a sequence after all: drop what was read, and decode the odd byte on its own.
            return Step(token: .ignored, length: cursor - index)
        }
        let parameters = String(decoding: bytes[(index + 2)..<cursor], as: UTF8.self)
        return Step(token: csiToken(parameters: parameters, final: final), length: cursor + 1 - index)
    }

    /// What a complete CSI sequence means. Modifier parameters (`1;5A` is Ctrl-Up) are ignored: the
    /// app binds plain keys.
    static func csiToken(parameters: String, final: UInt8) -> Token {
        let first = parameters.split(separator: ";", omittingEmptySubsequences: false).first.flatMap { Int($0) }
        if final == UInt8(ascii: "~") {
            guard let first else { return .ignored }
            if first == 200 { return .pasteStart }
            return tildeKeys[first].map(Token.key) ?? .ignored
        }
        // Private (`?`, `<`, `>`, `=`) parameters belong to replies and mouse reports, not to keys.
        if let lead = parameters.utf8.first, lead >= 0x3C { return .ignored }
        return finalKeys[final].map(Token.key) ?? .ignored
    }

    /// `ESC O final`: the cursor keys in application mode, F1–F4 and the keypad's Enter.
    static func decodeSS3(_ bytes: [UInt8], at index: Int) -> Step? {
        var cursor = index + 2
        // Some terminals put a modifier digit before the final byte (`ESC O 5 A`).
        while cursor < bytes.count, (0x30...0x39).contains(bytes[cursor]), cursor - index < 4 { cursor += 1 }
        guard cursor < bytes.count else { return nil }
        let final = bytes[cursor]
        let key = final == UInt8(ascii: "M") ? .enter : finalKeys[final]
        return Step(token: key.map(Token.key) ?? .ignored, length: cursor + 1 - index)
    }

    /// Keys named by the final byte of a CSI or SS3 sequence.
    static let finalKeys: [UInt8: Key] = [
        UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left,
        UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end, UInt8(ascii: "Z"): .backTab,
        UInt8(ascii: "P"): .function(1), UInt8(ascii: "Q"): .function(2),
        UInt8(ascii: "R"): .function(3), UInt8(ascii: "S"): .function(4),
    ]

    /// Keys named by the number of a `CSI number ~` sequence (VT220 and xterm; 1/4 and 7/8 are the two
    /// conventions for Home and End). 2 is Insert, which the app does not use.
    static let tildeKeys: [Int: Key] = [
        1: .home, 7: .home, 4: .end, 8: .end, 3: .delete, 5: .pageUp, 6: .pageDown,
        11: .function(1), 12: .function(2), 13: .function(3), 14: .function(4), 15: .function(5),
        17: .function(6), 18: .function(7), 19: .function(8), 20: .function(9), 21: .function(10),
        23: .function(11), 24: .function(12),
    ]
}
