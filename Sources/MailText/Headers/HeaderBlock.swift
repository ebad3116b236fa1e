/// Splits a raw message (or MIME part) into its header fields and the start of its body.
///
/// RFC 5322 §2.2 headers end at the first empty line. Real input adds mbox `From ` lines, lone CR or LF line
/// endings, junk lines, names with odd characters and bodies that start without the blank line. This parser
/// tolerates all of them and never fails: the worst case is "no headers, everything is body".
///
/// ```swift
/// let (fields, bodyStart) = HeaderBlock.parse(bytes[...])
/// let subject = fields.first("Subject").map(EncodedWords.decode)
/// ```
public enum HeaderBlock {
    /// Parses the header block at the start of `bytes`.
    ///
    /// Continuation lines (starting with space or tab) are unfolded by dropping the line break and keeping the
    /// whitespace. A line without a colon is skipped when a header follows it; otherwise it starts the body. When
    /// the very first line is not a header, there are no headers and the whole input is body.
    /// - returns: the fields in order, and the index (in `bytes`' own indices) of the first body byte, or
    ///   `bytes.endIndex` when there is no body.
    public static func parse(_ bytes: ArraySlice<UInt8>) -> (fields: HeaderFields, bodyStart: Int) {
        var lines = LineReader(bytes)
        if bytes.starts(with: "From ".utf8) { _ = lines.next() }
        var fields: [HeaderField] = []
        while let line = lines.peek() {
            let content = bytes[line.content]
            if content.isEmpty {
                lines.advance()
                return (HeaderFields(finished(fields)), line.next)
            }
            if let first = content.first, first == 0x20 || first == 0x09 {
                if fields.isEmpty { return (HeaderFields(), line.content.lowerBound) }
                fields[fields.count - 1].value += content
                lines.advance()
                continue
            }
            if let field = field(in: content) {
                fields.append(field)
                lines.advance()
                continue
            }
            // Not a header line. At the very start it means there are no headers at all; later it is junk
            // when a header follows, else the body starting without its blank line.
            if fields.isEmpty { return (HeaderFields(), line.content.lowerBound) }
            var lookahead = lines
            lookahead.advance()
            if let following = lookahead.peek(), field(in: bytes[following.content]) != nil {
                lines.advance()
                continue
            }
            return (HeaderFields(finished(fields)), line.content.lowerBound)
        }
        return (HeaderFields(finished(fields)), bytes.endIndex)
    }

    /// Parses `Name: value` (whitespace allowed before the colon); `nil` when the line is not a header.
    ///
    /// Names may hold any printable ASCII but the colon (RFC 5322 §2.2), so `X-Weird!Name` is accepted; a space
    /// inside the name means prose such as `Note that: …`, not a header.
    static func field(in line: ArraySlice<UInt8>) -> HeaderField? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var nameEnd = colon
        while nameEnd > line.startIndex, line[nameEnd - 1] == 0x20 || line[nameEnd - 1] == 0x09 { nameEnd -= 1 }
        let name = line[line.startIndex..<nameEnd]
        guard !name.isEmpty, name.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        var valueStart = colon + 1
        while valueStart < line.endIndex, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
        return HeaderField(name: String(decoding: name, as: UTF8.self), value: Array(line[valueStart...]))
    }

    /// Trims trailing whitespace from each unfolded value.
    private static func finished(_ fields: [HeaderField]) -> [HeaderField] {
        fields.map { field in
            var copy = field
            while let last = copy.value.last, last == 0x20 || last == 0x09 { copy.value.removeLast() }
            return copy
        }
    }
}

/// Reads lines ending in CRLF, LF or a lone CR from a byte slice.
struct LineReader {
    /// One line: its content range (terminator excluded) and the index after its terminator.
    struct Line {
        var content: Range<Int>
        var next: Int
    }

    private let bytes: ArraySlice<UInt8>
    private var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    /// The line at the current position without consuming it; `nil` at the end.
    func peek() -> Line? {
        guard position < bytes.endIndex else { return nil }
        var end = position
        while end < bytes.endIndex, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        var next = end
        if next < bytes.endIndex {
            next += (bytes[next] == 0x0D && next + 1 < bytes.endIndex && bytes[next + 1] == 0x0A) ? 2 : 1
        }
        return Line(content: position..<end, next: next)
    }

    /// Moves past the current line.
    mutating func advance() {
        if let line = peek() { position = line.next }
    }

    /// Returns the current line and moves past it.
    mutating func next() -> Line? {
        let line = peek()
        advance()
        return line
    }
}
