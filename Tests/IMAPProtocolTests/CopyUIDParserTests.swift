import Testing

@testable import IMAPProtocol

/// COPYUID pairs source and destination UIDs by position, so its sets keep the server's order.
@Suite struct CopyUIDParserTests {
    func code(_ line: String) throws -> IMAPResponseCode? {
        switch try IMAPResponseParser.parse(Array(line.utf8)) {
        case .tagged(let completion): return completion.code
        case .untagged(.condition(_, let code, _)): return code
        default:
            Issue.record("no response code in \(line)")
            return nil
        }
    }

    @Test("Gmail's unordered destination UIDs keep their order")
    func gmailOrder() throws {
        #expect(
            try code("A13 OK [COPYUID 658824223 33630,33650:33651,33653 2273,2275,2274,2272] (Success)\r\n")
                == .copyUID(
                    uidValidity: 658_824_223, source: [33630, 33650, 33651, 33653],
                    destination: [2273, 2275, 2274, 2272]))
    }

    @Test("A range written downwards expands downwards; the untagged OK of a MOVE carries the code too")
    func descendingRangeInUntaggedOK() throws {
        #expect(
            try code("* OK [COPYUID 7 5:3,9 20:22,23] Moved\r\n")
                == .copyUID(uidValidity: 7, source: [5, 4, 3, 9], destination: [20, 21, 22, 23]))
    }

    @Test("A set too large to expand is left as an unmodelled code instead of allocating it")
    func hugeSet() throws {
        #expect(
            try code("A1 OK [COPYUID 7 1:4294967295 1:4294967295] Done\r\n")
                == .other(name: "COPYUID", text: "7 1:4294967295 1:4294967295"))
    }

    @Test("UID 0, * and an empty element are malformed", arguments: ["0", "1:*", "1,,2", "1:2:3"])
    func malformed(set: String) {
        #expect(throws: IMAPProtocolError.self) {
            try IMAPResponseParser.parse(Array("A1 OK [COPYUID 7 \(set) 1] Done\r\n".utf8))
        }
    }
}
