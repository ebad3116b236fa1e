import IMAPProtocol

extension IMAPConnection {
    /// The UIDs in the selected mailbox, ascending, whose Message-ID header is `messageID` (angle
    /// brackets optional, on either side): how a message copied or moved without COPYUID is found.
    ///
    /// `UID SEARCH HEADER Message-ID` only narrows the search, since servers match a substring and
    /// ignore case; the Message-ID headers of the candidates are then fetched and compared exactly.
    public func uidSearchMessageID(_ messageID: String) async throws(IMAPClientError) -> [UInt32] {
        let wanted = Self.bareMessageID(messageID[...])
        guard let key = Self.searchKey(for: wanted) else { return [] }
        let candidates = try await uidSearch("HEADER Message-ID \(key)")
        guard !candidates.isEmpty else { return [] }
        let fetched = try await uidFetch(
            IMAPUIDSet(candidates), items: ["UID", "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"])
        var matches: [UInt32] = []
        for message in fetched.messages {
            guard let uid = message.uid, let header = message.header else { continue }
            if Self.messageIDs(inHeader: header).contains(wanted) { matches.append(uid) }
        }
        return matches.sorted()
    }

    /// The id without surrounding white space and angle brackets.
    static func bareMessageID(_ text: Substring) -> Substring {
        var id = trimmed(text)
        if id.first == "<", id.last == ">", id.count >= 2 { id = id.dropFirst().dropLast() }
        return id
    }

    /// The quoted search string: the whole id when it is printable ASCII, else its longest printable
    /// ASCII run (a quoted string cannot carry other bytes, and the exact comparison follows anyway);
    /// nil when there is nothing to search for.
    static func searchKey(for id: Substring) -> String? {
        var longest: Substring = ""
        var runStart = id.startIndex
        for index in id.indices where !Self.isPrintableASCII(id[index]) {
            if id.distance(from: runStart, to: index) > longest.count { longest = id[runStart..<index] }
            runStart = id.index(after: index)
        }
        if id.distance(from: runStart, to: id.endIndex) > longest.count { longest = id[runStart...] }
        guard !longest.isEmpty else { return nil }
        var quoted = "\""
        for character in longest {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// The bare ids of every Message-ID field in a header block, folded lines unfolded.
    static func messageIDs(inHeader header: [UInt8]) -> [Substring] {
        let text = String(decoding: header, as: UTF8.self)
        var fields: [String] = []
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = line.last == "\r" ? line.dropLast() : line
            if let first = line.first, first == " " || first == "\t", !fields.isEmpty {
                fields[fields.count - 1] += line
            } else if !line.isEmpty {
                fields.append(String(line))
            }
        }
        return fields.compactMap { field in
            guard let colon = field.firstIndex(of: ":"),
                trimmed(field[..<colon]).lowercased() == "message-id"
            else { return nil }
            return bareMessageID(field[field.index(after: colon)...])
        }
    }

    private static func trimmed(_ text: Substring) -> Substring {
        var text = text.drop(while: \.isWhitespace)
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    private static func isPrintableASCII(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return ascii >= 0x20 && ascii < 0x7F
    }
}
