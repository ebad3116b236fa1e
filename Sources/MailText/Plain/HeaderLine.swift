/// The role of a "Key: value" line in an Outlook reply header or a forwarded message header.
enum HeaderKey: Sendable {
    case from, sent, to, cc, subject, replyTo
}

/// A "From: Ann <ann@x.org>" line as reply and forward headers write it, with the key localized.
///
/// Outlook localizes the keys with the user's language (Von/Gesendet/An/Betreff, 差出人/送信日時/宛先/件名…).
/// All languages share one table: a block mixing languages is as much a header block as a pure one.
struct HeaderLine: Sendable {
    let key: HeaderKey
    let value: Substring

    /// Keys in lowercase. "De" is French/Spanish/Portuguese From, "A"/"À" is To, "Data" is a date.
    static let keys: [String: HeaderKey] = {
        var table: [String: HeaderKey] = [:]
        let groups: [(HeaderKey, [String])] = [
            (.from, ["from", "von", "de", "da", "van", "från", "od", "от", "差出人", "发件人", "寄件者", "送信者"]),
            (.sent, ["sent", "date", "gesendet", "datum", "envoyé", "date d'envoi", "enviado", "fecha", "inviato",
                     "data", "verzonden", "enviada", "skickat", "wysłano", "отправлено", "дата", "送信日時", "日付",
                     "发送时间", "日期", "寄件日期", "時間"]),
            (.to, ["to", "an", "à", "a", "para", "aan", "till", "do", "кому", "宛先", "收件人", "收件者"]),
            (.cc, ["cc", "kopie", "copie", "copia", "cc.", "kopia", "копия", "抄送", "副本"]),
            (.subject, ["subject", "betreff", "objet", "asunto", "oggetto", "onderwerp", "assunto", "ämne", "temat",
                        "тема", "件名", "主题", "主旨"]),
            (.replyTo, ["reply-to", "antwort an"]),
        ]
        for (key, names) in groups {
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
