import MailText
import Testing

@Suite struct SignatureStripperTests {
    @Test("removes from the standard \"-- \" separator to the end")
    func standardSeparator() {
        let cleaned = PlainTextCleaner.clean("See you then.\n\n-- \nBob Smith\nACME Corp\n+1 555 0100\nhttps://acme.example")
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

    @Test("removes a trailing mobile or web client footer", arguments: [
        "Sent from my iPhone",                        // English, iPhone
        "Sent from my iPad",                          // English, iPad
        "Sent from my Android phone",                 // English, Android
        "Sent from my BlackBerry 10 smartphone.",     // English, BlackBerry
        "Sent from my Samsung Galaxy smartphone.",    // English, Samsung
        "Sent from Mail for Windows",                 // Windows Mail
        "Get Outlook for iOS",                        // Outlook mobile
        "Get Outlook for Android",                    // Outlook mobile
        "Sent from Yahoo Mail on Android",            // Yahoo
        "Von meinem iPhone gesendet",                 // German
        "Envoyé de mon iPhone",                       // French
        "Enviado desde mi iPhone",                    // Spanish
        "Inviato da iPhone",                          // Italian
        "Verzonden vanaf mijn iPhone",                // Dutch
        "Enviado do meu iPhone",                      // Portuguese
        "Skickat från min iPhone",                    // Swedish
        "Wysłane z mojego iPhone",                    // Polish
        "Отправлено с iPhone",                        // Russian
        "iPhoneから送信",                               // Japanese
        "发自我的iPhone",                               // Chinese
    ])
    func footer(footer: String) {
        let cleaned = PlainTextCleaner.clean("On my way.\n\n\(footer)\n")
        #expect(cleaned.text == "On my way.")
        #expect(cleaned.removedSignature)
    }

    @Test("a footer is a signature, not a quote, even above a quote")
    func footerAboveQuote() {
        let input = "Yes!\n\nSent from my iPhone\n\nOn Jan 1, 2024, at 10:00, Ann <ann@example.com> wrote:\n\n> Coming?\n> Tonight?"
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == "Yes!")
        #expect(cleaned.removedQuote)
        #expect(cleaned.removedSignature)
    }

    @Test("keeps a signature that is the whole message", arguments: [
        "-- \nBob Smith\nACME Corp",     // only a signature block
        "Sent from my iPhone",           // only a footer
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

extension Substring {
    fileprivate var trimmingTrailingSpaces: Substring {
        var slice = self
        while slice.last == " " { slice = slice.dropLast() }
        return slice
    }
}
