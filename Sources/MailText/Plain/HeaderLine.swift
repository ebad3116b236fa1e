/// The role of a "Key: value" line in an Outlook reply header or a forwarded message header.
enum HeaderKey: Hashable, Sendable {
    case from, sent, to, cc, subject, replyTo
}

/// A "From: Ann <ann@x.org>" line as reply and forward headers write it, with the key localized.
///
/// Outlook localizes the keys with the user's language (Von/Gesendet/An/Betreff, 差出人/送信日時/宛先/件名…).
/// All languages share one table: a block mixing languages is as much a header block as a pure one.
struct HeaderLine: Sendable {
    let key: HeaderKey
    let value: Substring

    /// ``HeaderTables/keys`` as a lookup table.
    static let keys: [String: HeaderKey] = {
        var table: [String: HeaderKey] = [:]
        for (key, names) in HeaderTables.keys {
            for name in names { table[name] = key }
        }
        return table
    }()

    /// Parses one line, tolerating `>` quoting, `*bold*` markers from HTML conversion and full-width colons.
    /// Only the first 24 characters are searched for the colon: keys are short, prose lines are not.
    init?(_ line: Substring) {
        guard Self.hasEarlyColon(line) else { return nil }  // cheap byte test first: this runs on every line
        var body = line.trimmedLeading
        if body.first == ">" { body = body.removingOneQuoteLevel.trimmedLeading }
        guard let colon = body.prefix(24).firstIndex(where: { $0 == ":" || $0 == "：" }) else { return nil }
        var name = body[..<colon]
        while name.first == "*" { name = name.dropFirst() }
        while name.last == "*" { name = name.dropLast() }
        guard let key = Self.keys[String(name.trimmed).lowercased()] else { return nil }
        var value = body[body.index(after: colon)...]
        while value.first == "*" { value = value.dropFirst() }
        self.key = key
        self.value = value.trimmed
    }

    /// True when an ASCII or full-width (EF BC 9A) colon occurs in the first 48 bytes.
    private static func hasEarlyColon(_ line: Substring) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in line.utf8.prefix(48) {
            if byte == UInt8(ascii: ":") { return true }
            if byte == 0x9A && previous == (0xEF, 0xBC) { return true }
            previous = (previous.1, byte)
        }
        return false
    }
}
