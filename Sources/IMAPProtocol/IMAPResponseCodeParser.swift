extension IMAPResponseParser {
    /// After a status word: an optional ` [CODE args]`, then the text to the end of the line.
    static func parseResponseText(
        _ reader: inout IMAPReader
    ) throws(IMAPProtocolError) -> (IMAPResponseCode?, String) {
        // `A1 OK` with no text at all is common enough (and harmless) to accept.
        guard !reader.isAtEnd else { return (nil, "") }
        try reader.expectSpace()
        guard reader.consume(UInt8(ascii: "[")) else { return (nil, reader.readRestOfLine()) }
        let parse = try parseCode(&reader)
        try reader.expect(UInt8(ascii: "]"))
        reader.skipSpaces()
        let text = reader.readRestOfLine()
        return (parse(text), text)
    }

    /// Reads a response code up to (not including) its `]`. The result still needs the response text,
    /// which ALERT carries.
    private static func parseCode(
        _ reader: inout IMAPReader
    ) throws(IMAPProtocolError) -> @Sendable (String) -> IMAPResponseCode {
        let name = try reader.readAtom(stopAtBracket: true).uppercased()
        func fixed(_ code: IMAPResponseCode) -> @Sendable (String) -> IMAPResponseCode { { _ in code } }
        func argument() throws(IMAPProtocolError) { try reader.expectSpace() }
        switch name {
        case "ALERT": return { .alert($0) }
        case "CAPABILITY":
            var capabilities: [String] = []
            while reader.consume(UInt8(ascii: " ")) {
                if reader.peek() == UInt8(ascii: "]") { break }
                capabilities.append(try reader.readAtom(stopAtBracket: true).uppercased())
            }
            return fixed(.capability(capabilities))
        case "UIDVALIDITY", "UIDNEXT", "UNSEEN":
            try argument()
            let value = try reader.readNumber32()
            let code: IMAPResponseCode =
                name == "UIDVALIDITY" ? .uidValidity(value) : name == "UIDNEXT" ? .uidNext(value) : .unseen(value)
            return fixed(code)
        case "HIGHESTMODSEQ":
            try argument()
            return fixed(.highestModSeq(try reader.readNumber64()))
        case "PERMANENTFLAGS":
            try argument()
            return fixed(.permanentFlags(try reader.readAtomList()))
        case "APPENDUID":
            try argument()
            let validity = try reader.readNumber32()
            try argument()
            // With MULTIAPPEND the UID is a set; only the single-message form is modelled.
            let start = reader.position
            let set = try readUIDSet(&reader)
            guard set.isBounded, set.boundedCount == 1, let uid = set.uids.first else {
                let text = String(decoding: reader.bytes[start..<reader.position], as: UTF8.self)
                return fixed(.other(name: name, text: "\(validity) \(text)"))
            }
            return fixed(.appendUID(uidValidity: validity, uid: uid))
        case "COPYUID":
            try argument()
            let validity = try reader.readNumber32()
            try argument()
            let start = reader.position
            let source = try readOrderedUIDs(&reader)
            try argument()
            let destination = try readOrderedUIDs(&reader)
            guard let source, let destination else {
                let text = String(decoding: reader.bytes[start..<reader.position], as: UTF8.self)
                return fixed(.other(name: name, text: "\(validity) \(text)"))
            }
            return fixed(.copyUID(uidValidity: validity, source: source, destination: destination))
        default:
            break
        }
        let simple: [String: IMAPResponseCode] = [
            "NOMODSEQ": .noModSeq, "READ-ONLY": .readOnly, "READ-WRITE": .readWrite, "TRYCREATE": .tryCreate,
            "CLOSED": .closed, "AUTHENTICATIONFAILED": .authenticationFailed,
        ]
        if let code = simple[name], reader.peek() == UInt8(ascii: "]") { return fixed(code) }
        // Anything else: keep the text up to the closing bracket.
        reader.skipSpaces()
        let start = reader.position
        while let byte = reader.peek(), byte != UInt8(ascii: "]") { reader.position += 1 }
        let text = String(decoding: reader.bytes[start..<reader.position], as: UTF8.self)
        return fixed(.other(name: name, text: text))
    }

    /// The most UIDs one COPYUID set may expand to: a lying server must not make the client allocate
    /// gigabytes from a one-line `1:4294967295`. A larger set leaves the code as `.other`.
    static let maximumCopyUIDCount = 1_000_000

    /// A COPYUID set in the order the server wrote it, each range expanded in the direction written: its
    /// order pairs source and destination UIDs, and Gmail's destination UIDs are not ascending. Nil when
    /// it holds more than ``maximumCopyUIDCount`` UIDs.
    private static func readOrderedUIDs(_ reader: inout IMAPReader) throws(IMAPProtocolError) -> [UInt32]? {
        let start = reader.position
        let atom = try reader.readAtomBytes(stopAtBracket: true)
        var uids: [UInt32] = []
        for element in atom.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let bounds = element.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map {
                IMAPReader.number($0).flatMap { UInt32(exactly: $0) } ?? 0
            }
            guard bounds.count <= 2, let first = bounds.first, let last = bounds.last, first > 0, last > 0 else {
                reader.position = start
                throw reader.error("expected a UID set")
            }
            let count = Int(first > last ? first - last : last - first) + 1
            guard uids.count + count <= maximumCopyUIDCount else { return nil }
            uids += first <= last ? Array(first...last) : Array((last...first).reversed())
        }
        return uids
    }
}
