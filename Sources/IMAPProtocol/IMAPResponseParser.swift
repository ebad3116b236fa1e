/// Parses one frame from ``IMAPResponseFramer`` into a typed ``IMAPResponse``.
///
/// Responses this client uses are parsed strictly: a number where IMAP requires one, balanced lists,
/// literals of the announced length. Untagged responses and response codes it does not model become
/// `.other` instead of errors, so a server's extensions never break a session.
public enum IMAPResponseParser {
    public static func parse(_ frame: [UInt8]) throws(IMAPProtocolError) -> IMAPResponse {
        var reader = try IMAPReader(frame: frame)
        switch reader.peek() {
        case UInt8(ascii: "+"):
            reader.position += 1
            _ = reader.consume(UInt8(ascii: " "))
            return .continuation(reader.readRestOfLine())
        case UInt8(ascii: "*"):
            reader.position += 1
            try reader.expectSpace()
            return .untagged(try parseUntagged(&reader))
        default:
            return .tagged(try parseTagged(&reader))
        }
    }

    private static func parseTagged(_ reader: inout IMAPReader) throws(IMAPProtocolError) -> IMAPTaggedResponse {
        let tag = try reader.readAtom(stopAtBracket: true)
        try reader.expectSpace()
        let statusStart = reader.position
        guard let status = readStatus(&reader), [.ok, .no, .bad].contains(status) else {
            reader.position = statusStart
            throw reader.error("expected OK, NO or BAD")
        }
        let (code, text) = try parseResponseText(&reader)
        return IMAPTaggedResponse(tag: tag, status: status, code: code, text: text)
    }

    private static func readStatus(_ reader: inout IMAPReader) -> IMAPStatus? {
        for status in [IMAPStatus.ok, .no, .bad, .bye, .preauth] where reader.consumeWord(status.rawValue) {
            return status
        }
        return nil
    }

    private static func parseUntagged(_ reader: inout IMAPReader) throws(IMAPProtocolError) -> IMAPUntaggedResponse {
        let start = reader.position
        if let status = readStatus(&reader) {
            let (code, text) = try parseResponseText(&reader)
            return .condition(status: status, code: code, text: text)
        }
        if let first = reader.peek(), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
            return try parseNumbered(&reader, start: start)
        }
        let keyword = try reader.readAtom(stopAtBracket: true).uppercased()
        switch keyword {
        case "CAPABILITY": return .capability(readAtomsToEnd(&reader).map { $0.uppercased() })
        case "ENABLED": return .enabled(readAtomsToEnd(&reader).map { $0.uppercased() })
        case "LIST", "XLIST": return .list(try parseList(&reader))
        case "STATUS": return try parseStatus(&reader)
        case "FLAGS":
            try reader.expectSpace()
            let flags = try reader.readAtomList()
            try reader.expectEnd()
            return .flags(flags)
        case "SEARCH": return try parseSearch(&reader)
        case "ESEARCH": return .esearch(try parseESearch(&reader))
        case "VANISHED": return try parseVanished(&reader)
        default:
            reader.position = start
            return .other(reader.readRestOfLine())
        }
    }

    /// `* 12 EXISTS`, `* 3 EXPUNGE`, `* 12 FETCH (...)`.
    private static func parseNumbered(
        _ reader: inout IMAPReader, start: Int
    ) throws(IMAPProtocolError) -> IMAPUntaggedResponse {
        let number = try reader.readNumber32()
        try reader.expectSpace()
        let keyword = try reader.readAtom(stopAtBracket: true).uppercased()
        let response: IMAPUntaggedResponse
        switch keyword {
        case "EXISTS": response = .exists(number)
        case "RECENT": response = .recent(number)
        case "EXPUNGE": response = .expunge(number)
        case "FETCH":
            try reader.expectSpace()
            response = .fetch(sequence: number, try IMAPFetchAttributes(parsing: &reader))
        default:
            reader.position = start
            return .other(reader.readRestOfLine())
        }
        try reader.expectEnd()
        return response
    }

    /// Space-separated atoms up to the end of the line (CAPABILITY, ENABLED).
    private static func readAtomsToEnd(_ reader: inout IMAPReader) -> [String] {
        reader.readRestOfLine().split(separator: " ").map(String.init)
    }

    /// `(\HasNoChildren \Sent) "/" Sent`, possibly followed by extended data, which is skipped.
    private static func parseList(_ reader: inout IMAPReader) throws(IMAPProtocolError) -> IMAPListEntry {
        try reader.expectSpace()
        let attributes = try reader.readAtomList()
        try reader.expectSpace()
        let delimiter = try reader.readNString().map { String(decoding: $0, as: UTF8.self) }
        try reader.expectSpace()
        let rawName = try reader.readAString()
        while !reader.isAtEndIgnoringSpaces {
            try reader.expectSpace()
            try reader.skipValue()
        }
        reader.position = reader.end
        return IMAPListEntry(attributes: attributes, delimiter: delimiter, name: mailboxName(rawName), rawName: rawName)
    }

    /// A mailbox name for people: modified UTF-7 decoded, or the bytes as UTF-8 when they are not
    /// modified UTF-7 (servers with UTF8=ACCEPT, or broken ones).
    static func mailboxName(_ raw: [UInt8]) -> String {
        do {
            return try ModifiedUTF7.decode(raw)
        } catch {
            return String(decoding: raw, as: UTF8.self)
        }
    }

    /// `"INBOX" (MESSAGES 231 UIDNEXT 44292)`.
    private static func parseStatus(_ reader: inout IMAPReader) throws(IMAPProtocolError) -> IMAPUntaggedResponse {
        try reader.expectSpace()
        let mailbox = mailboxName(try reader.readAString())
        try reader.expectSpace()
        try reader.expect(UInt8(ascii: "("))
        var attributes: [String: UInt64] = [:]
        reader.skipSpaces()
        var first = true
        while !reader.consume(UInt8(ascii: ")")) {
            guard !reader.isAtEnd else { throw reader.error("unbalanced parentheses") }
            if !first { try reader.expectSpace() }
            first = false
            if reader.consume(UInt8(ascii: ")")) { break }
            let name = try reader.readAtom(stopAtBracket: true).uppercased()
            try reader.expectSpace()
            attributes[name] = try reader.readNumber64()
        }
        try reader.expectEnd()
        return .status(mailbox: mailbox, attributes: attributes)
    }

    /// `2 5 (MODSEQ 917162500)`; an empty result is `* SEARCH`.
    private static func parseSearch(_ reader: inout IMAPReader) throws(IMAPProtocolError) -> IMAPUntaggedResponse {
        var uids: [UInt32] = []
        var modSeq: UInt64?
        while !reader.isAtEndIgnoringSpaces {
            try reader.expectSpace()
            if reader.peek() == UInt8(ascii: "(") {
                reader.position += 1
                guard reader.consumeWord("MODSEQ") else { throw reader.error("expected MODSEQ") }
                try reader.expectSpace()
                modSeq = try reader.readNumber64()
                try reader.expect(UInt8(ascii: ")"))
                try reader.expectEnd()
                break
            }
            uids.append(try reader.readNumber32())
        }
        return .search(uids: uids, modSeq: modSeq)
    }

    /// `(TAG "A5") UID ALL 1:3,5 MIN 1 MAX 5 COUNT 3 MODSEQ 917162500`; unknown results are skipped.
    private static func parseESearch(_ reader: inout IMAPReader) throws(IMAPProtocolError) -> IMAPESearch {
        var result = IMAPESearch()
        reader.skipSpaces()
        if reader.consume(UInt8(ascii: "(")) {
            guard reader.consumeWord("TAG") else { throw reader.error("expected TAG") }
            try reader.expectSpace()
            result.tag = String(decoding: try reader.readAString(), as: UTF8.self)
            try reader.expect(UInt8(ascii: ")"))
        }
        while !reader.isAtEndIgnoringSpaces {
            try reader.expectSpace()
            if reader.consumeWord("UID") {
                result.uid = true
                continue
            }
            let name = try reader.readAtom(stopAtBracket: true).uppercased()
            try reader.expectSpace()
            switch name {
            case "MIN": result.min = try reader.readNumber32()
            case "MAX": result.max = try reader.readNumber32()
            case "COUNT": result.count = try reader.readNumber32()
            case "MODSEQ": result.modSeq = try reader.readNumber64()
            case "ALL": result.all = try readUIDSet(&reader)
            default: try reader.skipValue()
            }
        }
        return result
    }

    /// `(EARLIER) 1:3,7` or `1:3,7`.
    private static func parseVanished(_ reader: inout IMAPReader) throws(IMAPProtocolError) -> IMAPUntaggedResponse {
        try reader.expectSpace()
        var earlier = false
        if reader.consume(UInt8(ascii: "(")) {
            guard reader.consumeWord("EARLIER") else { throw reader.error("expected EARLIER") }
            try reader.expect(UInt8(ascii: ")"))
            try reader.expectSpace()
            earlier = true
        }
        let uids = try readUIDSet(&reader)
        try reader.expectEnd()
        return .vanished(earlier: earlier, uids: uids)
    }

    static func readUIDSet(_ reader: inout IMAPReader, stopAtBracket: Bool = true) throws(IMAPProtocolError)
        -> IMAPUIDSet
    {
        let start = reader.position
        let atom = try reader.readAtomBytes(stopAtBracket: stopAtBracket)
        do {
            return try IMAPUIDSet(parsing: String(decoding: atom, as: UTF8.self))
        } catch {
            reader.position = start
            throw reader.error("expected a UID set")
        }
    }
}
