import MailText
import Testing

@Suite struct SignatureStripperTests {
    @Test("removes from the standard \"-- \" separator to the end")
    func standardSeparator() {
        let cleaned = PlainTextCleaner.clean(
            "See you then.\n\n-- \nBob Smith\nACME Corp\n+1 555 0100\nhttps://acme.example")
        #expect(cleaned.text == "See you then.")
        #expect(cleaned.removedSignature)
    }

    @Test("tolerates a bare \"--\" followed by a few short lines")
    func bareSeparator() {
        #expect(PlainTextCleaner.clean("See you then.\n\n--\nBob Smith\nACME Corp").text == "See you then.")
    }

    @Test("keeps a bare \"--\" followed by long text")
    func bareSeparatorBeforeProse() {
        let input = """
            Options:
            --
            This paragraph explains at great length what the double dash above means to the parser and why.
            """
        let cleaned = PlainTextCleaner.clean(input)
        #expect(!cleaned.removedSignature)
        #expect(cleaned.text.contains("--"))
    }

    @Test(
        "removes a trailing mobile or web client footer",
        arguments: [
            "Sent from my iPhone",  // English, iPhone
            "Sent from my iPad",  // English, iPad
            "Sent from my Android phone",  // English, Android
            "Sent from my BlackBerry 10 smartphone.",  // English, BlackBerry
            "Sent from my Samsung Galaxy smartphone.",  // English, Samsung
            "Sent from Mail for Windows",  // Windows Mail
            "Get Outlook for iOS",  // Outlook mobile
            "Get Outlook for Android",  // Outlook mobile
            "Sent from Yahoo Mail on Android",  // Yahoo
            "Von meinem iPhone gesendet",  // German
            "Envoyé de mon iPhone",  // French
            "Enviado desde mi iPhone",  // Spanish
            "Inviato da iPhone",  // Italian
            "Verzonden vanaf mijn iPhone",  // Dutch
            "Enviado do meu iPhone",  // Portuguese
            "Skickat från min iPhone",  // Swedish
            "Wysłane z mojego iPhone",  // Polish
            "Отправлено с iPhone",  // Russian
            "iPhoneから送信",  // Japanese
            "发自我的iPhone",  // Chinese
        ])
    func footer(footer: String) {
        let cleaned = PlainTextCleaner.clean("On my way.\n\n\(footer)\n")
        #expect(cleaned.text == "On my way.")
        #expect(cleaned.removedSignature)
    }

    @Test("a footer is a signature, not a quote, even above a quote")
    func footerAboveQuote() {
        let input =
            "Yes!\n\nSent from my iPhone\n\nOn Jan 1, 2024, at 10:00, Ann <ann@example.com> wrote:\n\n> Coming?\n> Tonight?"
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == "Yes!")
        #expect(cleaned.removedQuote)
        #expect(cleaned.removedSignature)
    }

    @Test(
        "keeps a signature that is the whole message",
        arguments: [
            "-- \nBob Smith\nACME Corp",  // only a signature block
            "Sent from my iPhone",  // only a footer
        ])
    func keepsOnlySignature(input: String) {
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == input.split(separator: "\n").map { $0.trimmingTrailingSpaces }.joined(separator: "\n"))
        #expect(!cleaned.removedSignature)
    }

    @Test("footer words in the middle of the message stay")
    func footerInMiddle() {
        let input = "Sent from my iPhone is what it said.\nReally."
        #expect(PlainTextCleaner.clean(input).text == input)
    }
}

/// Footers in more languages, over several lines, and the edge cases of `--`.
@Suite struct FooterTests {
    @Test(
        "removes mobile footers in more languages",
        arguments: [
            "Sent from Mailbox for iPhone",  // Mailbox
            "Envoyé à partir de Outlook pour iOS",  // French, Outlook
            "Gesendet von Outlook für Android",  // German, Outlook
            "Von meinem iPad gesendet",  // German, iPad
            "Sendt fra min iPad",  // Danish, Norwegian
            "Enviado desde mi iPhone",  // Spanish
            "Inviato da iPhone",  // Italian
            "Verzonden vanaf mijn iPhone",  // Dutch
            "Wysłane z iPhone'a",  // Polish
            "Отправлено с iPhone",  // Russian
            "Odesláno z iPhonu",  // Czech
            "Lähetetty iPhonesta",  // Finnish
            "iPhone'umdan gönderildi",  // Turkish
            "Надіслано з iPhone",  // Ukrainian
            "Enviado do meu iPhone",  // Portuguese
            "Skickat från min iPhone",  // Swedish
            "Στάλθηκε από το iPhone μου",  // Greek
            "Trimis de pe iPhone-ul meu",  // Romanian
            "Dikirim dari iPhone saya",  // Indonesian
            "iPhoneから送信",  // Japanese
            "내 iPhone에서 보냄",  // Korean
            "從我的 iPhone 傳送",  // Chinese (traditional)
            "Get Outlook for Android<https://aka.ms/ghei36>",  // Outlook, link glued on
            "Sent from my Samsung Galaxy smartphone.",  // Samsung
            "Sent from my phone, please excuse typos.",  // a phone and an apology
        ])
    func moreFooters(footer: String) {
        let cleaned = PlainTextCleaner.clean("On my way.\n\n\(footer)\n")
        #expect(cleaned.text == "On my way.")
        #expect(cleaned.removedSignature)
    }

    @Test(
        "removes footers that take more than the last line",
        arguments: [
            // BlackBerry on a Canadian carrier, one line per language.
            "Sent wirelessly from my BlackBerry device on the Bell network.\nEnvoyé sans fil par mon terminal mobile BlackBerry sur le réseau de Bell.",
            "Get Outlook for Android\n<https://aka.ms/ghei36>",  // the link on its own line
            "Sent from my iPhone\n\nSent from my iPad",  // two devices, two footers
        ])
    func multiLineFooters(footer: String) {
        #expect(PlainTextCleaner.clean("On my way.\n\n\(footer)\n").text == "On my way.")
    }

    @Test("removes a mailing list's footer, and the phone footer above it")
    func listFooter() {
        let body = """
            Do other apps show it too?

            Sent from my iPhone

            _______________________________________________
            USRP-users mailing list
            USRP-users@lists.example.com
            http://lists.example.com/mailman/listinfo/usrp-users
            """
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == "Do other apps show it too?")
        #expect(cleaned.removedSignature)
    }

    @Test("a footer followed by an unquoted original goes with it")
    func footerAboveUnquotedOriginal() {
        let body =
            "Yes!\n\nSent from my iPhone\n\nOn Jan 1, 2024, at 10:00, Ann <ann@example.com> wrote:\n\nComing tonight?\n"
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == "Yes!")
        #expect(cleaned.removedQuote)
        #expect(cleaned.removedSignature)
    }

    @Test(
        "prose that starts like a footer stays",
        arguments: [
            "Sent from my desk, I can see the whole office.",  // no device or app
            "Von meinem Balkon aus sieht man den See.",  // German, no device
            "Envoyé de mon bureau, comme d'habitude.",  // French, no device
            "Sent from home today because the trains are on strike.",  // no device
        ])
    func proseStays(line: String) {
        let body = "Here is the plan for Monday.\n\n\(line)"
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == body)
        #expect(!cleaned.removedSignature)
    }

    @Test("takes the first of two delimiters")
    func twoDelimiters() {
        let body =
            "See you then.\n\n--\nBob Smith\n--\nACME mailing list: https://lists.example.com/listinfo/acme-users"
        #expect(PlainTextCleaner.clean(body).text == "See you then.")
    }

    @Test("a name after a bare `--` makes a signature even with a long footer after it")
    func longFooterAfterBareDelimiter() {
        let body = """
            See you then.

            --
            Bob Smith
            ACME Corp

            This e-mail and any attachments are confidential and may be privileged. If you are not the intended recipient, please notify the sender immediately and delete it.
            """
        #expect(PlainTextCleaner.clean(body).text == "See you then.")
    }

    @Test("a footer-only block after a bare `--` is a signature")
    func footerAfterBareDelimiter() {
        let body = "See you then.\n\n--\nDiese Nachricht wurde von meinem Android-Mobiltelefon mit K-9 Mail gesendet."
        #expect(PlainTextCleaner.clean(body).text == "See you then.")
    }
}

extension Substring {
    fileprivate var trimmingTrailingSpaces: Substring {
        var slice = self
        while slice.last == " " { slice = slice.dropLast() }
        return slice
    }
}
