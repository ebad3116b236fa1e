/// The data of one FETCH response that this client uses. Attributes the server did not send are nil;
/// attributes this type does not model are skipped when parsing.
public struct IMAPFetchAttributes: Sendable, Equatable {
    public var uid: UInt32?
    public var flags: [String]?
    /// INTERNALDATE as milliseconds since 1970 UTC.
    public var internalDateMs: Int64?
    public var rfc822Size: Int?
    public var modSeq: UInt64?
    /// Gmail's X-GM-MSGID.
    public var gmailMessageID: UInt64?
    /// Gmail's X-GM-THRID.
    public var gmailThreadID: UInt64?
    /// Gmail's X-GM-LABELS, decoded from modified UTF-7 when valid: `\Inbox`, `Important`, `Project été`.
    public var gmailLabels: [String]?
    /// The whole message: `BODY[]`, `BINARY[]` or `RFC822`. Nil when absent or NIL.
    public var body: [UInt8]?
    /// The header: `BODY[HEADER]`, `BODY[HEADER.FIELDS (...)]`, `BODY[HEADER.FIELDS.NOT (...)]` or
    /// `RFC822.HEADER`.
    public var header: [UInt8]?
    /// Every other body section, keyed by its uppercased attribute name as the server sent it, partial
    /// origin included: `BODY[TEXT]`, `BODY[1.2]`, `BINARY[2]`, `BODY[]<0>`, `RFC822.TEXT`. NIL sections are
    /// left out.
    public var sections: [String: [UInt8]]

    public init(
        uid: UInt32? = nil, flags: [String]? = nil, internalDateMs: Int64? = nil, rfc822Size: Int? = nil,
        modSeq: UInt64? = nil, gmailMessageID: UInt64? = nil, gmailThreadID: UInt64? = nil,
        gmailLabels: [String]? = nil, body: [UInt8]? = nil, header: [UInt8]? = nil, sections: [String: [UInt8]] = [:]
    ) {
        self.uid = uid
        self.flags = flags
        self.internalDateMs = internalDateMs
        self.rfc822Size = rfc822Size
        self.modSeq = modSeq
        self.gmailMessageID = gmailMessageID
        self.gmailThreadID = gmailThreadID
        self.gmailLabels = gmailLabels
        self.body = body
        self.header = header
        self.sections = sections
    }

    /// Parses the parenthesized attribute list of `* n FETCH (...)`.
    init(parsing reader: inout IMAPReader) throws(IMAPProtocolError) {
        self.init()
        try reader.expect(UInt8(ascii: "("))
        reader.skipSpaces()
        var first = true
        while !reader.consume(UInt8(ascii: ")")) {
            guard !reader.isAtEnd else { throw reader.error("unbalanced parentheses") }
            if !first { try reader.expectSpace() }
            first = false
            if reader.consume(UInt8(ascii: ")")) { break }
            let name = try Self.readName(&reader)
            try reader.expectSpace()
            try readValue(named: name, from: &reader)
        }
    }

    private mutating func readValue(named name: String, from reader: inout IMAPReader) throws(IMAPProtocolError) {
        switch name {
        case "UID": uid = try reader.readNumber32()
        case "FLAGS": flags = try reader.readAtomList()
        case "INTERNALDATE":
            let start = reader.position
            let text = try reader.readString()
            guard let date = InternalDate.epochMilliseconds(text) else {
                reader.position = start
                throw reader.error("bad INTERNALDATE")
            }
            internalDateMs = date
        case "RFC822.SIZE":
            let start = reader.position
            guard let size = Int(exactly: try reader.readNumber64()) else {
                reader.position = start
                throw reader.error("RFC822.SIZE out of range")
            }
            rfc822Size = size
        case "MODSEQ":
            try reader.expect(UInt8(ascii: "("))
            modSeq = try reader.readNumber64()
            try reader.expect(UInt8(ascii: ")"))
        case "X-GM-MSGID": gmailMessageID = try reader.readNumber64()
        case "X-GM-THRID": gmailThreadID = try reader.readNumber64()
        case "X-GM-LABELS":
            gmailLabels = try reader.readList { (reader: inout IMAPReader) throws(IMAPProtocolError) in
                IMAPResponseParser.mailboxName(try reader.readAString())
            }
        case "BODY[]", "BINARY[]", "RFC822": body = try reader.readNString()
        case "BODY[HEADER]", "RFC822.HEADER": header = try reader.readNString()
        case _ where name.hasPrefix("BODY[HEADER.FIELDS") && name.hasSuffix("]"): header = try reader.readNString()
        case _ where name.hasPrefix("BODY[") || name.hasPrefix("BINARY[") || name == "RFC822.TEXT":
            sections[name] = try reader.readNString()
        default: try reader.skipValue()
        }
    }

    /// An attribute name, with its section and partial origin if any: `UID`, `BODY[HEADER.FIELDS (DATE)]`,
    /// `BODY[]<0>`. The section may hold spaces and parentheses, so it is read to its `]`.
    private static func readName(_ reader: inout IMAPReader) throws(IMAPProtocolError) -> String {
        let start = reader.position
        while let byte = reader.peek(), byte != UInt8(ascii: "["),
            IMAPReader.isAtomByte(byte, stopAtBracket: true)
        {
            reader.position += 1
        }
        guard reader.position > start else { throw reader.error("expected a FETCH attribute") }
        if reader.consume(UInt8(ascii: "[")) {
            while let byte = reader.peek(), byte != UInt8(ascii: "]"), byte >= 0x20 { reader.position += 1 }
            try reader.expect(UInt8(ascii: "]"))
            if reader.consume(UInt8(ascii: "<")) {
                let digits = reader.position
                while let byte = reader.peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    reader.position += 1
                }
                guard reader.position > digits else { throw reader.error("expected a partial origin") }
                try reader.expect(UInt8(ascii: ">"))
            }
        }
        return String(decoding: reader.bytes[start..<reader.position], as: UTF8.self).uppercased()
    }
}

/// INTERNALDATE's fixed format, `17-Jul-1996 02:44:25 -0700`, without Foundation's date formatters.
enum InternalDate {
    private static let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]

    /// Milliseconds since 1970 UTC, or nil if the text is not a valid date in that format.
    static func epochMilliseconds(_ bytes: [UInt8]) -> Int64? {
        let text = String(decoding: bytes, as: UTF8.self).drop { $0 == " " }
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3 else { return nil }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        let time = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        let zone = Array(parts[2].utf8)
        guard date.count == 3, time.count == 3, zone.count == 5,
            let day = digits(date[0], count: 1...2), let month = months.firstIndex(of: date[1].uppercased()),
            let year = digits(date[2], count: 4...4), let hour = digits(time[0], count: 2...2),
            let minute = digits(time[1], count: 2...2), let second = digits(time[2], count: 2...2),
            let zoneHours = digits(parts[2].dropFirst().prefix(2), count: 2...2),
            let zoneMinutes = digits(parts[2].dropFirst(3), count: 2...2),
            zone[0] == UInt8(ascii: "+") || zone[0] == UInt8(ascii: "-"),
            (1...daysIn(month: month + 1, year: year)).contains(day), hour < 24, minute < 60, second <= 60,
            zoneMinutes < 60
        else { return nil }
        let offset = (zoneHours * 60 + zoneMinutes) * 60 * (zone[0] == UInt8(ascii: "-") ? -1 : 1)
        let days = daysSinceEpoch(year: year, month: month + 1, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
        return seconds * 1000
    }

    private static func digits(_ text: Substring, count: ClosedRange<Int>) -> Int? {
        guard count.contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
