import MailText
import Testing

@Suite struct OutlookHeaderBlockTests {
    static func reply(keys: (String, String, String, String), rule: Bool, colon: String = ":") -> String {
        let (from, sent, to, subject) = keys
        return """
            Reply text.

            \(rule ? "________________________________\n" : "")\(from)\(colon) Ann Smith <ann@example.com>
            \(sent)\(colon) Monday, January 1, 2024 10:00 AM
            \(to)\(colon) Bob <bob@example.com>
            \(subject)\(colon) RE: Lunch

            Original text.
            """
    }

    static let languages: [(String, String, String, String)] = [
        ("From", "Sent", "To", "Subject"),                  // English
        ("Von", "Gesendet", "An", "Betreff"),               // German
        ("De", "Envoyé", "À", "Objet"),                     // French
        ("De", "Enviado", "Para", "Asunto"),                // Spanish
        ("Da", "Inviato", "A", "Oggetto"),                  // Italian
        ("Van", "Verzonden", "Aan", "Onderwerp"),           // Dutch
        ("De", "Enviada", "Para", "Assunto"),               // Portuguese
        ("Från", "Skickat", "Till", "Ämne"),                // Swedish
        ("Od", "Wysłano", "Do", "Temat"),                   // Polish
        ("От", "Отправлено", "Кому", "Тема"),               // Russian
        ("差出人", "送信日時", "宛先", "件名"),                  // Japanese
        ("发件人", "发送时间", "收件人", "主题"),                // Chinese
        ("From", "Date", "To", "Subject"),                  // "Date:" instead of "Sent:"
    ]

    @Test("cuts at a localized header block under an underscore rule", arguments: languages)
    func withRule(keys: (String, String, String, String)) {
        let cleaned = PlainTextCleaner.clean(Self.reply(keys: keys, rule: true))
        #expect(cleaned.text == "Reply text.")
        #expect(cleaned.removedQuote)
    }

    @Test("cuts at a localized header block without a rule", arguments: languages)
    func withoutRule(keys: (String, String, String, String)) {
        #expect(PlainTextCleaner.clean(Self.reply(keys: keys, rule: false)).text == "Reply text.")
    }

    @Test("accepts full-width colons and *bold* keys", arguments: [
        ("差出人", "送信日時", "宛先", "件名", "："),             // Japanese Outlook with full-width colons
        ("*From", "*Sent", "*To", "*Subject", ":*"),        // bold keys from HTML-to-text conversion
    ])
    func variants(from: String, sent: String, to: String, subject: String, colon: String) {
        let text = Self.reply(keys: (from, sent, to, subject), rule: false, colon: colon)
        #expect(PlainTextCleaner.clean(text).text == "Reply text.")
    }

    @Test("an unknown dashed separator directly above a header block goes with it")
    func unknownSeparator() {
        // "Ursprüngliche" decoded from Latin-1 as UTF-8: the separator no longer matches, the block still does.
        let input = "blub\n\n-----Urspr\u{FFFD}ngliche Nachricht-----\nVon: Roald\nAn: Mietz\nDatum: Montag\nBetreff: Buch\n\n> old"
        #expect(PlainTextCleaner.clean(input).text == "blub")
    }

    @Test("a lone From: line is not a header block")
    func loneFrom() {
        let input = "From: the whole team\n\nWe are happy to announce the release."
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == input)
        #expect(!cleaned.removedQuote)
    }

    @Test("a realistic German Outlook reply loses the block and the phone footer")
    func germanFixture() throws {
        let cleaned = PlainTextCleaner.clean(try PlainFixtures.text("outlook-reply.txt"))
        #expect(cleaned.text == "Hallo Anna,\n\ndanke, das passt so.\n\nViele Grüße\nBernd")
        #expect(cleaned.removedQuote)
        #expect(cleaned.removedSignature)
    }

    @Test("cuts at an original-message separator", arguments: [
        "-----Original Message-----",                // English Outlook
        "-------- Original Message --------",        // Thunderbird
        "-----Ursprüngliche Nachricht-----",         // German
        "-----Message d'origine-----",               // French
        "-----Mensaje original-----",                // Spanish
        "-----Messaggio originale-----",             // Italian
        "-----Oorspronkelijk bericht-----",          // Dutch
        "-----Mensagem original-----",               // Portuguese
        "-----Ursprungligt meddelande-----",         // Swedish
        "-----Oryginalna wiadomość-----",            // Polish
        "-----Исходное сообщение-----",              // Russian
    ])
    func originalMessage(separator: String) {
        let cleaned = PlainTextCleaner.clean("Reply text.\n\n\(separator)\nHello there,\nthe old text.")
        #expect(cleaned.text == "Reply text.")
        #expect(cleaned.removedQuote)
    }
}
