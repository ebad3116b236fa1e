import MailText
import Testing

@Suite struct HeaderBlockTests {
    /// Parses `text` and returns the fields as (name, value) pairs and the body text.
    static func split(_ text: String) -> (fields: [String], body: String) {
        let bytes = Array(text.utf8)
        let (fields, bodyStart) = HeaderBlock.parse(bytes[...])
        let rendered = fields.fields.map { "\($0.name)=\(String(decoding: $0.value, as: UTF8.self))" }
        return (rendered, String(decoding: bytes[bodyStart...], as: UTF8.self))
    }

    @Test(
        "Splits headers from body",
        arguments: [
            // CRLF line endings.
            ("A: 1\r\nB: 2\r\n\r\nbody", ["A=1", "B=2"], "body"),
            // LF line endings.
            ("A: 1\nB: 2\n\nbody\n", ["A=1", "B=2"], "body\n"),
            // Lone CR line endings (old Mac).
            ("A: 1\rB: 2\r\rbody", ["A=1", "B=2"], "body"),
            // Folding: keep the whitespace, drop the line break.
            ("Subject: a\r\n b\r\n\tc\r\n\r\n", ["Subject=a b\tc"], ""),
            // No body at all.
            ("A: 1\r\nB: 2", ["A=1", "B=2"], ""),
            // A leading mbox From line is skipped.
            ("From bob@x Mon Mar  3 14:02:00 2025\nA: 1\n\nbody", ["A=1"], "body"),
            // Whitespace before the colon.
            ("Subject : hi\n\n", ["Subject=hi"], ""),
            // Names with any printable character but colon.
            ("X-!#$%&'*+-.^_`|~: odd\n\n", ["X-!#$%&'*+-.^_`|~=odd"], ""),
            // Empty value.
            ("Subject:\nA: 1\n\n", ["Subject=", "A=1"], ""),
            // A junk line in the middle is skipped when a header follows.
            ("A: 1\njunk line\nB: 2\n\nbody", ["A=1", "B=2"], "body"),
            // A missing blank line: the first non-header line starts the body.
            ("A: 1\nHello there,\nthis is the body", ["A=1"], "Hello there,\nthis is the body"),
            // First line is not a header: the whole input is body.
            ("Hello, no headers here\nA: 1\n", [], "Hello, no headers here\nA: 1\n"),
            // First line is indented: body too.
            ("  indented text\n", [], "  indented text\n"),
            // A MIME part with no headers starts with the blank line.
            ("\r\nbody only", [], "body only"),
            // Empty input.
            ("", [], ""),
            // Values keep inner spacing; trailing whitespace is trimmed.
            ("A:   x  y  \n\n", ["A=x  y"], ""),
            // A line starting with a colon is not a header (empty name).
            ("A: 1\n: nope\nB: 2\n\n", ["A=1", "B=2"], ""),
        ] as [(String, [String], String)])
    func splits(text: String, fields: [String], body: String) {
        let result = Self.split(text)
        #expect(result.fields == fields)
        #expect(result.body == body)
    }

    @Test("bodyStart is an absolute index in the slice")
    func absoluteIndex() {
        let bytes = Array("prefix|A: 1\r\n\r\nbody".utf8)
        let slice = bytes[7...]
        let (fields, bodyStart) = HeaderBlock.parse(slice)
        #expect(fields.first("a") == Array("1".utf8))
        #expect(bodyStart == 7 + 8)
        #expect(HeaderBlock.parse(bytes[bytes.endIndex...]).bodyStart == bytes.endIndex)
    }

    @Test("Raw 8-bit bytes in values are kept as bytes")
    func rawBytes() {
        let bytes: [UInt8] = Array("Subject: ".utf8) + [0xE9, 0xFF] + Array("\n\n".utf8)
        #expect(HeaderBlock.parse(bytes[...]).fields.first("subject") == [0xE9, 0xFF])
    }
}
