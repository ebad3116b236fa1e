import MailText
import Testing

/// Outlook, Apple Mail, phones and Thunderbird in some modes send the original under the attribution without `>`.
@Suite struct UnquotedOriginalTests {
    @Test(
        "cuts an unquoted original under an attribution, whatever the original holds",
        arguments: [
            // Apple Mail on iOS: footer, attribution, the original as plain paragraphs.
            "Yes, see you there!\n\nSent from my iPhone\n\nOn Jan 1, 2024, at 10:00, Ann Smith <ann@example.com> wrote:\n\n"
                + "Hi Bob,\nare you coming tonight?\n\nAnn",
            // The original holds an older, `>`-quoted reply of its own.
            "Yes, see you there!\n\nOn Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:\nAre you coming?\n\n"
                + "On Sun, Dec 31, 2023 at 9:00 PM Bob <bob@example.com> wrote:\n> Maybe.",
            // Two attributions, both unquoted originals.
            "Yes, see you there!\n\nOn Mon, Feb 1, 2016 at 4:58 AM -0800, \"Ann\" <ann@example.com> wrote:\n\nAre you coming?\n\n"
                + "On Sun, Jan 31, 2016 at 9:58 PM -0800, \"Bob\" <bob@example.com> wrote:\n\nMaybe.",
        ])
    func cutsUnquotedOriginal(body: String) {
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == "Yes, see you there!")
        #expect(cleaned.removedQuote)
    }

    @Test(
        "an attribution with nothing of the reply above it is not a cut",
        arguments: [
            "On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:\nthe plan is fine.\n\nBob",
            "\n\nAm 01.01.2024 um 10:00 schrieb Anna Schmidt <anna@example.de>:\n\nDer Plan passt.",
            "> Earlier quote\n\nOn Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:\nthe plan is fine.",
        ])
    func nothingAbove(body: String) {
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text.contains("plan") || cleaned.text.contains("Plan"))
    }

    @Test("an interleaved reply keeps its answers and the quotes they answer; the attribution goes")
    func interleaved() {
        let body = """
            Hi Ann,

            On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:
            > Can you bring the slides?
            Yes, both decks.

            > And the projector?
            The room has one.

            Bob
            """
        let cleaned = PlainTextCleaner.clean(body)
        #expect(
            cleaned.text == """
                Hi Ann,

                > Can you bring the slides?
                Yes, both decks.

                > And the projector?
                The room has one.

                Bob
                """)
        #expect(cleaned.removedQuote)
    }

    @Test("a bottom-posted reply under a quoted original is kept")
    func bottomPosted() {
        let body =
            "On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:\n> Can you come?\n> At five?\n\nYes, at five."
        #expect(PlainTextCleaner.clean(body).text == "Yes, at five.")
    }

    @Test(
        "an attribution without date or address does not cut unquoted text",
        arguments: [
            "Sounds good.\n\nAnn Smith wrote:\nthe plan is fine.",  // name only
            "Sounds good.\n\nOn Friday, Ann wrote:\nthe plan is fine.",  // lead, no date
            "Sounds good.\n\nHere is what the reviewer wrote:\nthe code is fine.",  // prose
        ])
    func weakAttribution(body: String) {
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == body)
        #expect(!cleaned.removedQuote)
    }
}

/// Lines that look like attributions or header blocks in patches and notifications.
@Suite struct AttributionLookalikeTests {
    @Test("a patch is never cut: trailers above its rule, in-body headers below its diff")
    func patch() {
        let body = """
            Fixes the crash on empty input.

            Signed-off-by: Ann Smith <ann.1998@example.com>
            ---
             parser.c | 2 +-
             1 file changed, 1 insertion(+), 1 deletion(-)

            diff --git a/parser.c b/parser.c
            --- a/parser.c
            +++ b/parser.c
            @@ -1,3 +1,3 @@
            -int x;
            +int y;
            Date: Tue, 23 May 2017 13:29:39 +0800
            From: Ann Smith <ann@example.com>
            """
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text.contains("From: Ann Smith <ann@example.com>"))
        #expect(cleaned.text.contains("Signed-off-by"))
        #expect(!cleaned.removedQuote)
    }

    @Test("an honorific in a quoted name is not a sentence end")
    func honorific() {
        let body =
            "There is a new ticket.\n\n\"Mr. Angela Van Poort\" <angela@example.it> wrote:\n> Please check.\n> Thanks"
        #expect(PlainTextCleaner.clean(body).text == "There is a new ticket.")
    }

    @Test("an attribution over a `>` quote with notes in it is not an unquoted original")
    func quoteWithNotes() {
        let body = """
            There is a new ticket:

            "Angela" <angela@example.it> wrote:
            <snip>
            > [...]
            <snip>

            http://tickets.example.com/5512

            Your Ticket System
            """
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text.contains("http://tickets.example.com/5512"))
        #expect(cleaned.text.contains("Your Ticket System"))
    }
}
