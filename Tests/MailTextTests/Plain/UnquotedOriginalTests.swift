import MailText
import Testing

/// Outlook, Apple Mail, phones and Thunderbird in some modes send the original under the attribution without `>`.
@Suite struct UnquotedOriginalTests {
    @Test("cuts an unquoted original under an attribution, whatever the original holds", arguments: [
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

    @Test("an attribution with nothing of the reply above it is not a cut", arguments: [
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
        #expect(cleaned.text == """
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
        let body = "On Mon, Jan 1, 2024 at 10:00 AM Ann Smith <ann@example.com> wrote:\n> Can you come?\n> At five?\n\nYes, at five."
        #expect(PlainTextCleaner.clean(body).text == "Yes, at five.")
    }

    @Test("an attribution without date or address does not cut unquoted text", arguments: [
        "Sounds good.\n\nAnn Smith wrote:\nthe plan is fine.",                      // name only
        "Sounds good.\n\nOn Friday, Ann wrote:\nthe plan is fine.",                 // lead, no date
        "Sounds good.\n\nHere is what the reviewer wrote:\nthe code is fine.",      // prose
    ])
    func weakAttribution(body: String) {
        let cleaned = PlainTextCleaner.clean(body)
        #expect(cleaned.text == body)
        #expect(!cleaned.removedQuote)
    }
}
