import MailText
import Testing

@Suite struct QuoteStripperTests {
    static func strip(_ text: String) -> (kept: String, removed: Bool, forwarded: Bool) {
        let result = QuoteStripper.strip(text.split(separator: "\n", omittingEmptySubsequences: false))
        return (result.kept.joined(separator: "\n"), result.removed, result.forwarded)
    }

    @Test(
        "removes `>` blocks of two or more lines",
        arguments: [
            ("Yes.\n\n> Can you come?\n> At five?", "Yes.\n"),  // trailing block
            ("Yes.\n\n> Can you come?\n>\n> At five?", "Yes.\n"),  // bare ">" inside the block
            ("Yes.\n\n> Can you come?\n\n> At five?", "Yes.\n"),  // blank line inside the block
            ("Yes.\n\n>> Older\n>> quote\n> newer", "Yes.\n"),  // nested depths are one block
            ("Yes.\n\n  > indented\n  > quote", "Yes.\n"),  // spaces before ">"
        ])
    func removesBlocks(input: String, expected: String) {
        let result = Self.strip(input)
        #expect(result.kept == expected)
        #expect(result.removed)
    }

    @Test("keeps a single `>` line that touches prose")
    func singleQuoteLineInProse() {
        let input = "Run this:\n> make install\nand it works."
        #expect(Self.strip(input).kept == input)
        #expect(!Self.strip(input).removed)
    }

    @Test("removes a single trailing `>` line")
    func singleTrailingQuoteLine() {
        #expect(Self.strip("Done.\n\n> Thanks!").kept == "Done.\n")
    }

    @Test("keeps an inline reply's answers and the quotes they answer; the attribution and unanswered tail go")
    func inlineReplies() throws {
        let cleaned = PlainTextCleaner.clean(try PlainFixtures.text("inline-replies.txt"))
        #expect(
            cleaned.text == """
                Hi Carol,

                answers inline.

                > Did the build pass on Linux?
                > And on macOS?

                Both pass now.

                > Can you tag the release?
                >
                > We need it by Friday.

                Tagged as 1.4.0 this morning.
                """)
        #expect(cleaned.removedQuote)
    }

    @Test(
        "a reply above or below one quote is not inline: the quote goes",
        arguments: [
            (
                "Sounds good.\n\nOn Mon, Jan 1, 2024 at 10:00 AM Ann <ann@example.com> wrote:\n> Lunch?\n> At noon?",
                "Sounds good."
            ),
            (
                "On Mon, Jan 1, 2024 at 10:00 AM Ann <ann@example.com> wrote:\n> Lunch?\n> At noon?\n\nSounds good.",
                "Sounds good."
            ),
            (
                "Hi Ann,\n\nOn Mon, Jan 1, 2024 Ann <ann@example.com> wrote:\n> Lunch?\n> At noon?\n\nSounds good.\n\nBob",
                "Hi Ann,\n\nSounds good.\n\nBob"
            ),  // greeting and sign-off
            (
                "Sounds good.\n\nOn Mon, Jan 1, 2024 Ann <ann@example.com> wrote:\n> Lunch?\n> At noon?\n\nCheers,\nBob",
                "Sounds good.\n\nCheers,\nBob"
            ),  // sign-off below the quote
            (
                "On Mon, Jan 1, 2024 Ann <ann@example.com> wrote:\n> Lunch?\n> At noon?\n\nSounds good.\n\n> Ann\n> ACME",
                "Sounds good."
            ),  // unanswered tail
        ])
    func notInline(body: String, reply: String) {
        #expect(PlainTextCleaner.clean(body).text == reply)
    }

    @Test("answers between quotes keep their quotes even when they are short")
    func shortAnswers() {
        let body = "> Is the venue booked?\n\nYes, the small hall.\n\n> And the caterer?\n\nStill waiting for a quote."
        #expect(PlainTextCleaner.clean(body).text == body)
    }

    @Test("removes the attribution with a wrapped Gmail reply quote")
    func gmailReply() throws {
        let cleaned = PlainTextCleaner.clean(try PlainFixtures.text("gmail-reply.txt"))
        #expect(
            cleaned.text == """
                Hi Ann,

                Tuesday works for me. I will book the small meeting room on the second floor and bring the printed agenda, so we do not need the projector.

                Best,
                Bob
                """)
    }

    @Test("a re-wrapped quote whose tail lost its `>` is still one quote")
    func lostContinuationMarker() {
        let body = """
            Agreed, let's do that.

            On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:
            >There is likely some setup done to the chip during stream creation,
            because
            > the chip needs to know about the stream parameters before it can
            start.
            > Calls like set_gain can all be done after the stream is created.
            """
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == "Agreed, let's do that.")
    }

    @Test("a link the quoting broke out of its line stays with the quote")
    func brokenLink() {
        let body =
            "Blah\n\nOn Thursday, October 25, 2012 at 3:03 PM, Bob <bob@example.com> wrote:\n\n>\n> Post a response\n>\n (http://example.com/c/YzOTYzMmE) >\n> life is short. (http://example.com/c/YzMmE)\n>\n"
        #expect(PlainTextCleaner.clean(body).text == "Blah")
    }

    @Test(
        "a line between `>` lines that answers or starts a sentence stays",
        arguments: [
            "> Can you send the March figures before the board meeting on Thursday, please\nYes.\n> And the plan?",
            "> Can you send the March figures before the board meeting on Thursday, please\nAgreed\n> And the plan?",
            "> Short question?\nyes\n> And the plan?",  // the quote line was not full
            // it ended
            "> Can you send the March figures before the board meeting on Thursday?\nsure\n> And the plan?",
        ])
    func answerBetweenQuoteLines(body: String) {
        let kept = PlainTextCleaner.clean(body).text
        let answer = body.split(separator: "\n")[1]
        #expect(kept.split(separator: "\n").contains(answer))
    }

    @Test(
        "\"on \" inside prose never starts a quote",
        arguments: [
            "Let's meet on Monday.\nI was on holiday when Bob wrote the draft.\n\nCheers",  // "on " mid-line
            "See you on Tuesday, as Ann wrote:\nthe room is booked.",  // "wrote:" but no quote, not at line start
            "We agreed on it. On balance it was fine.\nOn Friday we ship.",  // "On " at line start, no "wrote:"
        ])
    func onInProse(input: String) {
        let cleaned = PlainTextCleaner.clean(input)
        #expect(cleaned.text == input)
        #expect(!cleaned.removedQuote)
    }

    @Test("cuts at the line-start attribution, not at an earlier \"on \"")
    func cutsAtTheRightOn() {
        let input =
            "Thanks, on Monday we ship.\n\nOn Mon, Jan 1, 2024 at 10:00 AM Ann <ann@example.com> wrote:\n> x\n> y"
        #expect(PlainTextCleaner.clean(input).text == "Thanks, on Monday we ship.")
    }

    @Test(
        "a message that is only a quote keeps its content",
        arguments: [
            "> Can you come?\n> At five?",  // bare quote
            // attribution + quote
            "On Mon, Jan 1, 2024 at 10:00 AM Ann <ann@example.com> wrote:\n> Can you come?\n> At five?",
            // separator at the top
            "-----Original Message-----\nFrom: Ann\nSent: Monday\nTo: Bob\nSubject: Hi\n\nHello",
        ])
    func onlyQuote(input: String) {
        let result = Self.strip(input)
        #expect(result.kept == input)
        #expect(!result.removed)
        let cleaned = PlainTextCleaner.clean(input)
        #expect(!cleaned.text.isEmpty)
        #expect(!cleaned.removedQuote)
    }

    @Test("quote detection happens before unwrapping")
    func beforeUnwrapping() {
        // Unwrapping first would glue the long reply line, the attribution and the quote into one paragraph.
        let input = """
            I checked the logs again and the failure only happens when the cache is
            On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:
            > Any news on the flaky test? It failed twice overnight on the Linux
            > runner.
            """
        #expect(
            PlainTextCleaner.clean(input).text
                == "I checked the logs again and the failure only happens when the cache is")
    }
}
