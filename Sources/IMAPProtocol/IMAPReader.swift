/// The tokenizer: reads IMAP's lexical elements from one framed response.
///
/// Invariants: `position <= end <= bytes.count`; `end` excludes the response's final line ending, so a
/// line break before `end` can only be part of a literal announcement or inside a literal. Every read
/// either advances `position` or throws, so no caller loop can spin.
struct IMAPReader {
    /// How deeply parenthesized lists may nest before the response is rejected, bounding recursion.
    static let maximumNesting = 64

    let bytes: [UInt8]
    var position: Int
    let end: Int

    init(frame: [UInt8]) throws(IMAPProtocolError) {
        guard frame.last == UInt8(ascii: "\n") else {
            throw .malformed("the response is truncated: \(Excerpt.quote(frame.suffix(Excerpt.maximumLength)))")
        }
        var end = frame.count - 1
        if end > 0, frame[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        bytes = frame
        position = 0
        self.end = end
    }

    var isAtEnd: Bool { position >= end }

    func peek() -> UInt8? { position < end ? bytes[position] : nil }

    /// A malformed-response error quoting the input from the current position.
    func error(_ reason: String) -> IMAPProtocolError {
        .malformed("\(reason) at \(Excerpt.quote(bytes[min(position, end)..<end]))")
    }

    mutating func expect(_ byte: UInt8) throws(IMAPProtocolError) {
        guard peek() == byte else { throw error("expected \(Excerpt.quote([byte]))") }
        position += 1
    }

    /// Consumes `byte` if it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    /// One or more spaces (some servers send two).
    mutating func expectSpace() throws(IMAPProtocolError) {
        try expect(UInt8(ascii: " "))
        while consume(UInt8(ascii: " ")) {}
    }

    mutating func skipSpaces() { while consume(UInt8(ascii: " ")) {} }

    /// Whether only spaces remain (servers may pad the end of a line).
    var isAtEndIgnoringSpaces: Bool { bytes[min(position, end)..<end].allSatisfy { $0 == UInt8(ascii: " ") } }

    mutating func expectEnd() throws(IMAPProtocolError) {
        guard isAtEndIgnoringSpaces else { throw error("unexpected data") }
        position = end
    }

    // MARK: Atoms and numbers

    /// Whether `byte` may appear in an atom: printable ASCII except the atom specials that delimit other
    /// tokens. `\`, `*` and `%` are allowed so flags (`\Seen`, `\*`) and sets (`1:*`) read as atoms.
    static func isAtomByte(_ byte: UInt8, stopAtBracket: Bool) -> Bool {
        switch byte {
        case 0x21...0x7E:
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "\""): false
            case UInt8(ascii: "]"): !stopAtBracket
            default: true
            }
        default: false
        }
    }

    /// A non-empty atom, as its raw bytes.
    mutating func readAtomBytes(stopAtBracket: Bool = false) throws(IMAPProtocolError) -> ArraySlice<UInt8> {
        let start = position
        while position < end, Self.isAtomByte(bytes[position], stopAtBracket: stopAtBracket) { position += 1 }
        guard position > start else { throw error("expected an atom") }
        return bytes[start..<position]
    }

    mutating func readAtom(stopAtBracket: Bool = false) throws(IMAPProtocolError) -> String {
        String(decoding: try readAtomBytes(stopAtBracket: stopAtBracket), as: UTF8.self)
    }

    mutating func readNumber64(stopAtBracket: Bool = true) throws(IMAPProtocolError) -> UInt64 {
        let start = position
        let atom = try readAtomBytes(stopAtBracket: stopAtBracket)
        guard let value = Self.number(atom) else {
            position = start
            throw error("expected a number")
        }
        return value
    }

    mutating func readNumber32(stopAtBracket: Bool = true) throws(IMAPProtocolError) -> UInt32 {
        let start = position
        let value = try readNumber64(stopAtBracket: stopAtBracket)
        guard let small = UInt32(exactly: value) else {
            position = start
            throw error("expected a 32-bit number")
        }
        return small
    }

    /// The decimal value of `digits`, or nil if they are not all digits or overflow 64 bits.
    static func number(_ digits: some Collection<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 20 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        return value
    }

    /// Consumes the atom `word` (case-insensitively) if it is next and ends there.
    mutating func consumeWord(_ word: String) -> Bool {
        let utf8 = Array(word.utf8)
        guard end - position >= utf8.count else { return false }
        for (offset, expected) in utf8.enumerated() where Self.upper(bytes[position + offset]) != expected {
            return false
        }
        let after = position + utf8.count
        if after < end, Self.isAtomByte(bytes[after], stopAtBracket: true) { return false }
        position = after
        return true
    }

    static func upper(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
    }

    // MARK: Strings

    /// A quoted string's content, with `\"` and `\\` unescaped. Any other backslash is kept as it is,
    /// since some servers send unescaped backslashes in mailbox names.
    mutating func readQuoted() throws(IMAPProtocolError) -> [UInt8] {
        try expect(UInt8(ascii: "\""))
        var content: [UInt8] = []
        while position < end {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return content
            case UInt8(ascii: "\\"):
                if position < end, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "\\") {
                    content.append(bytes[position])
                    position += 1
                } else {
                    content.append(byte)
                }
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                position -= 1
                throw error("unterminated quoted string")
            default:
                content.append(byte)
            }
        }
        throw error("unterminated quoted string")
    }

    /// A literal `{n}`, `{n+}` or BINARY's `~{n}`, its line ending and its `n` bytes.
    mutating func readLiteral() throws(IMAPProtocolError) -> [UInt8] {
        let start = position
        _ = consume(UInt8(ascii: "~"))
        try expect(UInt8(ascii: "{"))
        let digitsStart = position
        while position < end, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            position += 1
        }
        guard let size = Self.number(bytes[digitsStart..<position]), let count = Int(exactly: size) else {
            position = start
            throw error("bad literal size")
        }
        _ = consume(UInt8(ascii: "+"))
        try expect(UInt8(ascii: "}"))
        _ = consume(UInt8(ascii: "\r"))
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\n") else {
            position = start
            throw error("literal announcement not followed by a line break")
        }
        position += 1
        guard count <= end - position else {
            position = start
            throw error("literal length does not match the data")
        }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// A string: quoted or literal.
    mutating func readString() throws(IMAPProtocolError) -> [UInt8] {
        switch peek() {
        case UInt8(ascii: "\""): try readQuoted()
        case UInt8(ascii: "{"), UInt8(ascii: "~"): try readLiteral()
        default: throw error("expected a string")
        }
    }

    /// An astring: an atom (brackets allowed), a quoted string or a literal.
    mutating func readAString() throws(IMAPProtocolError) -> [UInt8] {
        switch peek() {
        case UInt8(ascii: "\""), UInt8(ascii: "{"): try readString()
        default: Array(try readAtomBytes())
        }
    }

    /// An nstring: NIL or a string.
    mutating func readNString() throws(IMAPProtocolError) -> [UInt8]? {
        if consumeWord("NIL") { return nil }
        return try readString()
    }

    // MARK: Lists and whole values

    /// A parenthesized list whose elements `element` reads, separated by spaces.
    mutating func readList<Element>(
        _ element: (inout IMAPReader) throws(IMAPProtocolError) -> Element
    ) throws(IMAPProtocolError) -> [Element] {
        try expect(UInt8(ascii: "("))
        var elements: [Element] = []
        skipSpaces()
        while !consume(UInt8(ascii: ")")) {
            guard !isAtEnd else { throw error("unbalanced parentheses") }
            if !elements.isEmpty { try expectSpace() }
            if consume(UInt8(ascii: ")")) { break }
            elements.append(try element(&self))
        }
        return elements
    }

    /// A parenthesized list of atoms (flags, capabilities), as sent.
    mutating func readAtomList() throws(IMAPProtocolError) -> [String] {
        try readList { (reader: inout IMAPReader) throws(IMAPProtocolError) in try reader.readAtom(stopAtBracket: true)
        }
    }

    /// Consumes one value of any shape (atom, number, string, NIL, or a nested list of them), for
    /// attributes this client does not use.
    mutating func skipValue(depth: Int = 0) throws(IMAPProtocolError) {
        guard depth < Self.maximumNesting else { throw error("lists nested too deeply") }
        switch peek() {
        case nil: throw error("expected a value")
        case UInt8(ascii: "("):
            _ = try readList { (reader: inout IMAPReader) throws(IMAPProtocolError) in
                try reader.skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "~"): _ = try readString()
        default: _ = try readAtomBytes()
        }
    }

    /// The rest of the line as text (response text, continuation text), decoded leniently as UTF-8.
    mutating func readRestOfLine() -> String {
        defer { position = end }
        return String(decoding: bytes[min(position, end)..<end], as: UTF8.self)
    }
}
