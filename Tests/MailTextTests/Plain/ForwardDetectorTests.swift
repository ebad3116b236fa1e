import MailText
import Testing

@Suite struct ForwardDetectorTests {
    @Test("shows a Gmail forward with its headers condensed into a marker")
    func gmailForward() throws {
        let cleaned = PlainTextCleaner.clean(try PlainFixtures.text("forward-gmail.txt"))
        #expect(
            cleaned.text == """
                FYI, see below.

                ↪ Forwarded message from Ann Smith <ann@example.com>

                Are you free for lunch on Friday?

                Ann
                """)
        #expect(cleaned.forwarded)
        #expect(!cleaned.removedQuote)
    }

    @Test(
        "recognizes localized Gmail separators",
        arguments: [
            "---------- Forwarded message ---------",  // English
            "---------- Weitergeleitete Nachricht ---------",  // German
            "---------- Message transféré ---------",  // French
            "---------- Mensaje reenviado ---------",  // Spanish
            "---------- Messaggio inoltrato ---------",  // Italian
            "---------- Doorgestuurd bericht ---------",  // Dutch
            "---------- Mensagem encaminhada ---------",  // Portuguese
            "---------- Vidarebefordrat meddelande ---------",  // Swedish
            "---------- Przekazana wiadomość ---------",  // Polish
            "---------- Пересылаемое сообщение ---------",  // Russian
            "---------- 転送されたメッセージ ---------",  // Japanese
            "---------- 转发的邮件 ---------",  // Chinese
            "-------- Forwarded Message --------",  // Thunderbird
        ])
    func localizedSeparators(separator: String) {
        let input =
            "See below.\n\n\(separator)\nFrom: Ann <ann@example.com>\nDate: Monday\nSubject: Hi\nTo: Bob\n\nHello Bob."
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == "See below.\n\n↪ Forwarded message from Ann <ann@example.com>\n\nHello Bob.")
        #expect(cleaned.forwarded)
    }

    @Test(
        "condenses localized forward headers",
        arguments: [
            ("Von", "Datum", "Betreff", "An"),  // German
            ("De", "Date", "Objet", "À"),  // French
            ("差出人", "日付", "件名", "宛先"),  // Japanese
        ])
    func localizedHeaders(from: String, date: String, subject: String, to: String) {
        let input =
            "---------- Forwarded message ---------\n\(from): Ann\n\(date): x\n\(subject): y\n\(to): Bob\n\nHello."
        #expect(PlainTextCleaner.clean(input).text == "↪ Forwarded message from Ann\n\nHello.")
    }

    @Test("shows an Apple Mail forward")
    func appleForward() {
        let input = """
            Have a look.

            Begin forwarded message:

            From: Ann Smith <ann@example.com>
            Subject: Lunch
            Date: January 1, 2024 at 10:00:00 AM PST
            To: Bob <bob@example.com>

            Are you free?
            """
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == "Have a look.\n\n↪ Forwarded message from Ann Smith <ann@example.com>\n\nAre you free?")
        #expect(cleaned.forwarded)
    }

    @Test("unquotes an Apple Mail forward written as a `>` block")
    func quotedAppleForward() {
        let input =
            "Have a look.\n\n> Begin forwarded message:\n>\n> From: Ann <ann@example.com>\n> Subject: Lunch\n> Date: Monday\n>\n> Are you free?\n> Ann"
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == "Have a look.\n\n↪ Forwarded message from Ann <ann@example.com>\n\nAre you free?\nAnn")
        #expect(cleaned.forwarded)
    }

    @Test("a forward without headers gets a plain marker")
    func noHeaders() {
        let cleaned = PlainTextCleaner.clean("---------- Forwarded message ---------\n\nHello.")
        #expect(cleaned.text == "↪ Forwarded message\n\nHello.")
    }

    @Test("a forward inside a quoted reply stays a quote")
    func quotedOldForward() {
        let input =
            "Thanks!\n\nOn Mon, Jan 1, 2024 at 10:00 AM Ann <ann@example.com> wrote:\n> Begin forwarded message:\n>\n> From: Carl\n> Subject: x"
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == "Thanks!")
        #expect(!cleaned.forwarded)
    }

    @Test("a signature above a forward does not swallow it")
    func signatureAboveForward() {
        let input = "FYI\n-- \nBob\n\n---------- Forwarded message ---------\nFrom: Ann\nDate: x\nSubject: y\n\nHello."
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == "FYI\n↪ Forwarded message from Ann\n\nHello.")
        #expect(cleaned.removedSignature)
    }

    @Test(
        "a wrapped Subject or From stays inside the forwarded headers",
        arguments: [
            (
                "From: bob@example.com\nDate: Tue, Sep 4, 2012 at 1:35 PM\nSubject: Two\nline subject\nTo: rob@example.com",
                "bob@example.com"
            ),
            (
                "From: Ann Smith <\nann@example.com>\nDate: Monday\nSubject: Lunch\nTo: Bob",
                "Ann Smith <ann@example.com>"
            ),
            (
                "From: Ann <ann@example.com>\nSubject: A subject long enough to be folded by the client\n  onto a second line\nTo: Bob",
                "Ann <ann@example.com>"
            ),
        ])
    func wrappedHeaders(headers: String, from: String) {
        let input = "FYI\n\n---------- Forwarded message ---------\n\(headers)\n\nHello Bob."
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == "FYI\n\n↪ Forwarded message from \(from)\n\nHello Bob.")
        #expect(cleaned.forwarded)
    }

    @Test("a wrapped Subject in a `>`-quoted Apple Mail forward")
    func wrappedQuotedHeaders() {
        let input =
            "See below.\n\n> Begin forwarded message:\n>\n> From: Ann <ann@example.com>\n> Subject: Two\n> line subject\n> Date: Monday\n>\n> Hello Bob."
        #expect(
            PlainTextCleaner.clean(input).text
                == "See below.\n\n↪ Forwarded message from Ann <ann@example.com>\n\nHello Bob.")
    }

    @Test(
        "a forward's subject turns Outlook's header block into a forward marker",
        arguments: [
            "________________________________\nFrom: Ann Smith <ann@example.com>\nSent: Tuesday, March 5, 2024 10:02 AM\nTo: Bob\nSubject: Slides",
            "-----Original Message-----\nFrom: Ann Smith <ann@example.com>\nSent: Tuesday, March 5, 2024 10:02 AM\nTo: Bob\nSubject: Slides",
            "Von: Ann Smith <ann@example.com>\nGesendet: Dienstag, 5. März 2024 10:02\nAn: Bob\nBetreff: Folien",
        ])
    func outlookForward(block: String) {
        let input = "FYI\n\n\(block)\n\nCan we meet on Tuesday?"
        let forwarded = PlainTextCleaner.clean(input, isForward: true)
        #expect(
            forwarded.text == "FYI\n\n↪ Forwarded message from Ann Smith <ann@example.com>\n\nCan we meet on Tuesday?")
        #expect(forwarded.forwarded)
        #expect(PlainTextCleaner.clean(input).text == "FYI")  // the same block in a reply is the quoted original
    }

    @Test("the pipeline reads a forward from the subject")
    func forwardSubjectInPipeline() {
        let raw =
            "From: Bob <bob@example.com>\r\nSubject: FW: Slides\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            + "FYI\r\n\r\n________________________________\r\nFrom: Ann Smith <ann@example.com>\r\n"
            + "Sent: Tuesday, March 5, 2024 10:02 AM\r\nTo: Bob\r\nSubject: Slides\r\n\r\nCan we meet on Tuesday?\r\n"
        let text = TextPipeline().process(raw: Array(raw.utf8)).text
        #expect(text.text == "FYI\n\n↪ Forwarded message from Ann Smith <ann@example.com>\n\nCan we meet on Tuesday?")
        #expect(text.forwarded)
    }

    @Test(
        "forward subjects in several languages, and replies to forwards",
        arguments: [
            ("Fwd: Slides", true), ("FW: Slides", true), ("WG: Folien", true), ("TR: Diapositives", true),
            ("RV: Diapositivas", true), ("I: Diapositive", true), ("Doorst: Dia's", true), ("转发：幻灯片", true),
            ("Re: Fwd: Slides", false), ("AW: WG: Folien", false), ("Slides: final version", false),
            ("Invoice 42", false),
        ])
    func forwardSubjects(subject: String, isForward: Bool) {
        let raw =
            "Subject: \(subject)\r\n\r\nFYI\r\n\r\nFrom: Ann <ann@example.com>\r\nSent: 5 March 2024 10:02\r\nTo: Bob\r\n\r\nHi."
        #expect(TextPipeline().process(raw: Array(raw.utf8)).text.forwarded == isForward)
    }
}
