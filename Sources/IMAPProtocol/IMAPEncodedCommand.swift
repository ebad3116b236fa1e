/// A command as the bytes to send.
///
/// Invariant: every part but the last ends with a synchronizing literal's announcement `{n}\r\n`, and
/// every part after the first starts with that literal's bytes; the last part ends with `\r\n`. The
/// connection sends the first part, then each next one only after the server's `+` continuation. With
/// LITERAL+ (or without any literal) there is exactly one part.
public struct IMAPEncodedCommand: Sendable, Equatable {
    public var parts: [[UInt8]]

    public init(parts: [[UInt8]]) {
        self.parts = parts
    }

    /// All parts joined, as they appear on the wire.
    public var bytes: [UInt8] { parts.flatMap { $0 } }

    /// Strings longer than this are sent as literals: servers limit line lengths, not literal sizes.
    static let maximumQuotedLength = 1024

    public static func encode(_ command: IMAPCommand, tag: String, literalPlus: Bool) -> IMAPEncodedCommand {
        var writer = Writer(literalPlus: literalPlus)
        if command == .done {
            writer.raw("DONE")
        } else {
            writer.raw(tag)
            writer.raw(" ")
            writer.write(command)
        }
        return writer.finish()
    }
}

/// Builds the parts of one command.
private struct Writer {
    let literalPlus: Bool
    var parts: [[UInt8]] = []
    var current: [UInt8] = []

    init(literalPlus: Bool) {
        self.literalPlus = literalPlus
    }

    mutating func finish() -> IMAPEncodedCommand {
        current += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        parts.append(current)
        return IMAPEncodedCommand(parts: parts)
    }

    /// Protocol text from this module: written as it is.
    mutating func raw(_ text: String) { current += text.utf8 }

    /// Protocol text from the caller: line breaks and NUL become spaces so they cannot end the command.
    mutating func callerRaw(_ text: String) {
        current += text.utf8.map { [0x00, 0x0A, 0x0D].contains($0) ? UInt8(ascii: " ") : $0 }
    }

    mutating func callerRawList(_ items: [String]) {
        raw("(")
        for (index, item) in items.enumerated() {
            if index > 0 { raw(" ") }
            callerRaw(item)
        }
        raw(")")
    }

    /// A string argument: quoted when it can be, otherwise a literal.
    mutating func string(_ bytes: [UInt8]) {
        let needsLiteral =
            bytes.count > IMAPEncodedCommand.maximumQuotedLength
            || bytes.contains { $0 == 0 || $0 == 0x0A || $0 == 0x0D || $0 >= 0x80 }
        guard needsLiteral else {
            current.append(UInt8(ascii: "\""))
            for byte in bytes {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { current.append(UInt8(ascii: "\\")) }
                current.append(byte)
            }
            current.append(UInt8(ascii: "\""))
            return
        }
        literal(bytes)
    }

    mutating func string(_ text: String) { string(Array(text.utf8)) }

    mutating func mailbox(_ name: String) { string(ModifiedUTF7.encode(name)) }

    /// `{n+}\r\n` and the bytes inline with LITERAL+; otherwise `{n}\r\n` ends this part and the bytes
    /// start the next, sent after the server's continuation.
    mutating func literal(_ bytes: [UInt8]) {
        if literalPlus {
            raw("{\(bytes.count)+}\r\n")
            current += bytes
        } else {
            raw("{\(bytes.count)}\r\n")
            parts.append(current)
            current = bytes
        }
    }

    mutating func write(_ command: IMAPCommand) {
        switch command {
        case .capability: raw("CAPABILITY")
        case .noop: raw("NOOP")
        case .logout: raw("LOGOUT")
        case .startTLS: raw("STARTTLS")
        case .idle: raw("IDLE")
        case .done: raw("DONE")
        case .expunge: raw("EXPUNGE")
        case .login(let user, let password):
            raw("LOGIN ")
            string(user)
            raw(" ")
            string(password)
        case .authenticate(let mechanism, let initialResponse):
            raw("AUTHENTICATE ")
            callerRaw(mechanism)
            if let initialResponse {
                raw(" ")
                current += initialResponse.isEmpty ? [UInt8(ascii: "=")] : Base64.encode(initialResponse)
            }
        case .enable(let extensions):
            raw("ENABLE")
            for name in extensions {
                raw(" ")
                callerRaw(name)
            }
        case .id(let fields):
            raw("ID ")
            writeID(fields)
        case .list(let reference, let pattern, let returnSpecialUse):
            raw("LIST ")
            mailbox(reference)
            raw(" ")
            mailbox(pattern)
            if returnSpecialUse { raw(" RETURN (SPECIAL-USE)") }
        case .status(let name, let items):
            raw("STATUS ")
            mailbox(name)
            raw(" ")
            callerRawList(items)
        case .select(let name, let parameters):
            writeSelect("SELECT ", name, parameters)
        case .examine(let name, let parameters):
            writeSelect("EXAMINE ", name, parameters)
        case .uidFetch(let set, let items, let changedSince, let vanished):
            raw("UID FETCH \(set) ")
            callerRawList(items)
            let modifiers = (changedSince.map { ["CHANGEDSINCE \($0)"] } ?? []) + (vanished ? ["VANISHED"] : [])
            if !modifiers.isEmpty { raw(" (\(modifiers.joined(separator: " ")))") }
        case .uidSearch(let criteria):
            raw("UID SEARCH ")
            callerRaw(criteria)
        case .uidStore(let set, let operation, let flags):
            raw("UID STORE \(set) ")
            callerRaw(operation)
            raw(" ")
            callerRawList(flags)
        case .uidCopy(let set, let name):
            raw("UID COPY \(set) ")
            mailbox(name)
        case .uidMove(let set, let name):
            raw("UID MOVE \(set) ")
            mailbox(name)
        case .uidExpunge(let set):
            raw("UID EXPUNGE \(set)")
        case .create(let name):
            raw("CREATE ")
            mailbox(name)
        case .append(let name, let flags, let internalDateMs, let message):
            raw("APPEND ")
            mailbox(name)
            if !flags.isEmpty {
                raw(" ")
                callerRawList(flags)
            }
            if let internalDateMs { raw(" \"\(InternalDateFormatter.format(epochMilliseconds: internalDateMs))\"") }
            raw(" ")
            literal(message)
        }
    }

    private mutating func writeSelect(_ verb: String, _ name: String, _ parameters: IMAPSelectParameters?) {
        raw(verb)
        mailbox(name)
        switch parameters {
        case nil: break
        case .condstore: raw(" (CONDSTORE)")
        case .qresync(let uidValidity, let modSeq, let knownUIDs):
            let known = knownUIDs.map { " \($0)" } ?? ""
            raw(" (QRESYNC (\(uidValidity) \(modSeq)\(known)))")
        }
    }

    private mutating func writeID(_ fields: [String: String]?) {
        guard let fields else { return raw("NIL") }
        raw("(")
        for (index, (key, value)) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { raw(" ") }
            string(key)
            raw(" ")
            string(value)
        }
        raw(")")
    }
}

/// INTERNALDATE for APPEND, always in UTC: `17-Jul-1996 09:44:25 +0000`.
enum InternalDateFormatter {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(epochMilliseconds: Int64) -> String {
        let (seconds, remainder) = epochMilliseconds.quotientAndRemainder(dividingBy: 1000)
        let totalSeconds = remainder < 0 ? seconds - 1 : seconds
        let (days, secondOfDay) = floorDivision(totalSeconds, 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        return "\(two(day))-\(months[Int(month) - 1])-\(year) \(time) +0000"
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The inverse of ``InternalDate/daysSinceEpoch(year:month:day:)`` (Howard Hinnant's algorithm).
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
