import MailText
import Testing

@Suite struct PlainTextCleanerTests {
    @Test(
        "tidies whitespace",
        arguments: [
            // blank ends, runs, trailing spaces
            ("\n\n  \nHello   \n\n\n\n\nBye  \n\n", "  \nHello\n\nBye".trimmingBlankStart),
            ("Hello\n\nBye", "Hello\n\nBye"),  // one blank line stays
        ])
    func tidy(input: String, expected: String) {
        #expect(PlainTextCleaner.clean(input).text == expected)
    }

    @Test("reports nothing removed for a plain message")
    func plainMessage() {
        let cleaned = PlainTextCleaner.clean("Hi Bob,\n\nLunch at noon?\n\nAnn\n")
        #expect(
            cleaned
                == PlainTextCleaning(
                    text: "Hi Bob,\n\nLunch at noon?\n\nAnn", removedQuote: false,
                    removedSignature: false, forwarded: false))
    }

    @Test("runs quote, signature and unwrap steps together on a wrapped reply")
    func fullPipeline() {
        let input = """
            Hi Ann,

            I went through all of your comments and fixed the ones about the data
            migration. The others need a longer discussion, so let us talk about
            them on Friday.

            Best,
            Bob

            --\u{20}
            Bob Smith | ACME

            On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:
            > Here are my comments on the design document that you shared with the
            > team last week.
            """
        let cleaned = PlainTextCleaner.clean(input)
        #expect(
            cleaned.text == """
                Hi Ann,

                I went through all of your comments and fixed the ones about the data migration. The others need a longer discussion, so let us talk about them on Friday.

                Best,
                Bob
                """)
        #expect(cleaned.removedQuote)
        #expect(cleaned.removedSignature)
        #expect(!cleaned.forwarded)
    }

    @Test(
        "never returns blank text for a message with text",
        arguments: [
            "> only\n> quoted",  // only a quote
            "-- \nsignature only",  // only a signature
            "Sent from my iPhone",  // only a footer
            "On Mon, Jan 1, 2024 Ann wrote:",  // only an attribution
            "________________________________\nFrom: Ann\nSent: Monday\nTo: Bob\nSubject: Hi",  // only a header block
        ])
    func neverBlank(input: String) {
        #expect(!PlainTextCleaner.clean(input).text.isEmpty)
    }
}

/// What the text pipeline does to plain text before the cleaner sees it.
@Suite struct PlainTextPipelineTests {
    @Test("U+2028 and U+2029 become line breaks and never reach the bubble", arguments: ["\u{2028}", "\u{2029}"])
    func unicodeLineSeparators(separator: String) {
        let text = TextPipeline().text(ofPlain: "Sounds good.\(separator)See you at five.\(separator)\(separator)Bob")
        #expect(text.text == "Sounds good.\nSee you at five.\n\nBob")
        #expect(!text.originalText.contains(separator))
    }

    @Test("a quote behind a line separator is found like one behind a newline")
    func quoteBehindLineSeparator() {
        let body =
            "Yes.\u{2029}\u{2029}On Mon, Jan 1, 2024 at 10:00 AM Ann <ann@example.com> wrote:\u{2028}> Lunch?\u{2028}> At noon?"
        #expect(TextPipeline().text(ofPlain: body).text == "Yes.")
    }

    @Test("French text, whose é shares bytes with the separators, is left alone")
    func frenchText() {
        #expect(TextPipeline().text(ofPlain: "Déjà vu, très élégant.").text == "Déjà vu, très élégant.")
    }
}

extension String {
    /// Test helper: the expected text of the tidy row, written readably above.
    fileprivate var trimmingBlankStart: String {
        String(drop { $0 == " " || $0 == "\n" })
    }
}
