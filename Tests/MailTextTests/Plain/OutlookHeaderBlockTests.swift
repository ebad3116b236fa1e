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
        ("From", "Sent", "To", "Subject"),  // English
        ("Von", "Gesendet", "An", "Betreff"),  // German
        ("De", "Envoyé", "À", "Objet"),  // French
        ("De", "Enviado", "Para", "Asunto"),  // Spanish
        ("Da", "Inviato", "A", "Oggetto"),  // Italian
        ("Van", "Verzonden", "Aan", "Onderwerp"),  // Dutch
        ("De", "Enviada", "Para", "Assunto"),  // Portuguese
        ("Från", "Skickat", "Till", "Ämne"),  // Swedish
        ("Od", "Wysłano", "Do", "Temat"),  // Polish
        ("От", "Отправлено", "Кому", "Тема"),  // Russian
        ("差出人", "送信日時", "宛先", "件名"),  // Japanese
        ("发件人", "发送时间", "收件人", "主题"),  // Chinese
        ("From", "Date", "To", "Subject"),  // "Date:" instead of "Sent:"
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

    @Test(
        "accepts full-width colons and *bold* keys",
        arguments: [
            ("差出人", "送信日時", "宛先", "件名", "："),  // Japanese Outlook with full-width colons
            ("*From", "*Sent", "*To", "*Subject", ":*"),  // bold keys from HTML-to-text conversion
        ])
    func variants(from: String, sent: String, to: String, subject: String, colon: String) {
        let text = Self.reply(keys: (from, sent, to, subject), rule: false, colon: colon)
        #expect(PlainTextCleaner.clean(text).text == "Reply text.")
    }

    @Test("an unknown dashed separator directly above a header block goes with it")
    func unknownSeparator() {
        // "Ursprüngliche" decoded from Latin-1 as UTF-8: the separator no longer matches, the block still does.
        let input =
            "blub\n\n-----Urspr\u{FFFD}ngliche Nachricht-----\nVon: Roald\nAn: Mietz\nDatum: Montag\nBetreff: Buch\n\n> old"
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

    @Test(
        "cuts at an original-message separator",
        arguments: [
            "-----Original Message-----",  // English Outlook
            "-------- Original Message --------",  // Thunderbird
            "-----Ursprüngliche Nachricht-----",  // German
            "-----Message d'origine-----",  // French
            "-----Mensaje original-----",  // Spanish
            "-----Messaggio originale-----",  // Italian
            "-----Oorspronkelijk bericht-----",  // Dutch
            "-----Mensagem original-----",  // Portuguese
            "-----Ursprungligt meddelande-----",  // Swedish
            "-----Oryginalna wiadomość-----",  // Polish
            "-----Исходное сообщение-----",  // Russian
        ])
    func originalMessage(separator: String) {
        let cleaned = PlainTextCleaner.clean("Reply text.\n\n\(separator)\nHello there,\nthe old text.")
        #expect(cleaned.text == "Reply text.")
        #expect(cleaned.removedQuote)
    }
}

/// Header blocks in more languages and layouts, and the separators above them.
@Suite struct OutlookHeaderLayoutTests {
    static let languages: [(String, String, String, String)] = [
        ("Fra", "Sendt", "Til", "Emne"),  // Danish, Norwegian
        ("Lähettäjä", "Lähetetty", "Vastaanottaja", "Aihe"),  // Finnish
        ("Od", "Odesláno", "Komu", "Předmět"),  // Czech
        ("Od", "Odoslané", "Komu", "Predmet"),  // Slovak
        ("Feladó", "Elküldve", "Címzett", "Tárgy"),  // Hungarian
        ("De la", "Trimis", "Către", "Subiect"),  // Romanian
        ("Від", "Надіслано", "Кому", "Тема"),  // Ukrainian
        ("Kimden", "Gönderildi", "Kime", "Konu"),  // Turkish
        ("Από", "Στάλθηκε", "Προς", "Θέμα"),  // Greek
        ("De", "Enviat", "Per a", "Assumpte"),  // Catalan
        ("Từ", "Đã gửi", "Đến", "Chủ đề"),  // Vietnamese
        ("보낸 사람", "보낸 날짜", "받는 사람", "제목"),  // Korean
        ("寄件者", "寄件日期", "收件者", "主旨"),  // Chinese (traditional)
        ("מאת", "נשלח", "אל", "נושא"),  // Hebrew
        ("من", "تاريخ الإرسال", "إلى", "الموضوع"),  // Arabic
        ("Dari", "Dikirim", "Kepada", "Subjek"),  // Indonesian
        ("De", "Enviado el", "Para", "Asunto"),  // Spanish, Outlook web
    ]

    @Test("cuts at a header block in more languages", arguments: languages)
    func moreLanguages(keys: (String, String, String, String)) {
        let (from, sent, to, subject) = keys
        let body =
            "Reply text.\n\n\(from): Ann Smith <ann@example.com>\n\(sent): 1.1.2024 10:00\n\(to): Bob\n\(subject): Lunch\n\nOriginal."
        #expect(PlainTextCleaner.clean(body).text == "Reply text.")
    }

    @Test(
        "cuts at header blocks of other shapes",
        arguments: [
            "Date: Wed, 16 May 2012 00:15:02 -0600\nTo: bob@example.com",  // starts with Date
            "From: Ann Smith <ann@example.com>\nDate: Monday, January 1, 2024 10:00",  // only From and Date
            // dashed rule, blanks
            " ------------------------------\n\n\n*From:* Outlook user\n*Sent:* 2016-01-27\n*To:* bob@example.com\n*Subject:* Hi",
            "________________________________\nFrom: Ann Smith\nSubject: Lunch",  // rule, two keys
            // wrapped value
            "*From:* bob@example.com [mailto:\n  bob@example.com]\n*Sent:* Wednesday, June 27, 2012 3:05 PM\n*To:* ann@example.com\n*Subject:* Hello",
            "-----Oprindelig meddelelse-----\nFra: Ann\nSendt: 1. januar 2024 10:00",  // Danish separator
        ])
    func shapes(block: String) {
        let cleaned = PlainTextCleaner.clean("Reply text.\n\n\(block)\n\nOriginal text.")
        #expect(cleaned.text == "Reply text.")
        #expect(cleaned.removedQuote)
    }

    @Test(
        "cuts at more original-message separators",
        arguments: [
            "---- Reply Message ----",  // English
            "-----Antwort Nachricht-----",  // German
            "-------- Original-Nachricht --------",  // German, Thunderbird
            "-----Oprindelig meddelelse-----",  // Danish
            "-------- Opprinnelig melding --------",  // Norwegian
            "-------- Alkuperäinen viesti / Orig.Msg. --------",  // Finnish
            "--- Treść oryginalnej wiadomości ---",  // Polish, Thunderbird
            "-------- Původní zpráva --------",  // Czech
            "-------- Pôvodná správa --- Original Message --------",  // Slovak
            "-------- Eredeti üzenet --------",  // Hungarian
            "-------- Mesajul original --------",  // Romanian
            "-------- Початкове повідомлення --------",  // Ukrainian
            "-------- Özgün İleti --------",  // Turkish
            "-------- Αρχικό μήνυμα --------",  // Greek
            "-------- Missatge original --------",  // Catalan
            "-------- Thư gốc --------",  // Vietnamese
            "--------    원본 메시지    --------",  // Korean
            "-------- 原始消息 --------",  // Chinese (simplified)
            "------- 原始郵件 -------",  // Chinese (traditional)
            "-------- הודעה מקורית --------",  // Hebrew
            "-------- الرسالة الأصلية --------",  // Arabic
            "-------- Pesan Asli --------",  // Indonesian
            "*-------- Original Message --------*",  // bold, from HTML
            "----- Mail original -----",  // French, Zimbra
            "----- Ursprüngliche Mail -----",  // German, Zimbra
        ])
    func separators(separator: String) {
        let cleaned = PlainTextCleaner.clean("Reply text.\n\n\(separator)\nHello there,\nthe old text.")
        #expect(cleaned.text == "Reply text.")
    }

    @Test(
        "header-like lines in a reply stay",
        arguments: [
            "Our itinerary:\n\nFrom: Berlin\nTo: Paris\n\nSee you at the station.",  // From and To, no date
            "Flight details:\n\nFrom: Berlin\nTo: Paris\nDate: 5 March 2024\n\nSee you there.",  // dated, no address
            "Notes for the minutes.\n\nDate: next Monday\nLocation: room 4",  // Date without a number
            "Please check.\n\nSubject: budget\nTo: finance team",  // no From or Date first
        ])
    func headerLikeProse(body: String) {
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == body)
        #expect(!cleaned.removedQuote)
    }
}
