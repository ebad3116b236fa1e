import MailText
import Testing

@Suite struct UnwrapperTests {
    @Test("re-joins a real 72-column message and keeps its structure")
    func realMessage() throws {
        let input = try PlainFixtures.text("wrapped-72.txt")
        let expected = try PlainFixtures.text("wrapped-72.expected.txt")
        #expect(PlainTextCleaner.clean(input).text == expected)
    }

    @Test(
        "keeps what must stay on its own line",
        arguments: [
            // Paragraph breaks stay.
            "A first paragraph that is long enough to look like it was wrapped by mail.\n\nSecond paragraph.",
            // Greeting and sign-off are short lines.
            "Hi Bob,\nthanks for the quick reply to all of my questions about the migration plan.\nCheers,\nAnn",
            // List items each start a line.
            "Here is the list of changes that we discussed in the meeting this morning\n- first\n- second\n* third\n• fourth\n1. fifth\n2) sixth\na) seventh",
            // Code indented four spaces and a shell prompt.
            "To reproduce the crash on a clean checkout, run the following commands now\n    swift build --configuration release\n$ swift test",
            // Symbol-heavy line.
            "The function that fails is the one below, and only with optimizations on,\nif (x == nil) { return foo(bar[0]); }",
            // A line ending with a colon stays separate.
            "These are the three options we still have left for the venue in March:\nthe hall, the barn, or the garden.",
            // URL-only line.
            "The full report with all the charts is available on the internal wiki at\nhttps://wiki.example.com/reports/2024/q1/final-version-with-charts",
            // `>` lines stay.
            "I still disagree with this part of the proposal that you sent last week\n> we drop the cache\nfor the reasons above.",
            // Unwrapped text (a long natural line) is left alone.
            "This message was written without any hard wrapping at all, so every paragraph is one long line that goes well past a hundred columns.\nSecond line.",
        ])
    func keeps(input: String) {
        #expect(Unwrapper.unwrap(input) == input)
    }

    @Test("joins a wrapped paragraph by line length, not by punctuation")
    func joinsByLength() {
        let input = """
            We tested the release candidate on all three platforms yesterday.
            Everything passed except one flaky network test on the Linux runner,
            which we will look at today.
            """
        #expect(
            Unwrapper.unwrap(input)
                == "We tested the release candidate on all three platforms yesterday. Everything passed except one flaky network test on the Linux runner, which we will look at today."
        )
    }

    @Test("does not join a line that had room for the next word")
    func roomForNextWord() {
        let input = """
            The numbers in the appendix look right to me, but could you double-check
            the totals for March? They seem a little high compared with last week.

            The build is green again after the fix that Carol pushed.
            It was a bad cache in the test runner that nobody had cleared for weeks.
            """
        #expect(
            Unwrapper.unwrap(input).hasSuffix(
                "The build is green again after the fix that Carol pushed.\nIt was a bad cache in the test runner that nobody had cleared for weeks."
            ))
    }

    @Test(
        "does not join a sign-off to a full last line",
        arguments: [
            // ends with ","
            "I went through all of the comments and fixed the ones about the migration.\nCheers,\nAnn",
            // after a full stop
            "I went through all of the comments and fixed the ones about the migration.\nThanks!\nAnn",
        ])
    func signOff(input: String) {
        #expect(Unwrapper.unwrap(input) == input)
    }

    @Test("joins a list item's indented continuation lines")
    func listContinuation() {
        let input = """
            Notes from the review of the storage layer and the sync engine today:
            - the migration runner should refuse to start when the schema version is
              newer than the binary
            - fine
            """
        #expect(
            Unwrapper.unwrap(input) == """
                Notes from the review of the storage layer and the sync engine today:
                - the migration runner should refuse to start when the schema version is newer than the binary
                - fine
                """)
    }

    @Test("leaves patches and trailer fields alone")
    func patchesAndTrailers() {
        let input = """
            The cache key did not include the target triple, so the two builds shared
            Reviewed-by: Ann Smith <ann.smith@example.com>
            Signed-off-by: Bob Jones <bob.jones@example.com>
            ---
            diff --git a/Sources/Cache.swift b/Sources/Cache.swift
            --- a/Sources/Cache.swift
            +++ b/Sources/Cache.swift
            @@ -1,2 +1,2 @@ struct CacheKey {
            -    let name: String
            +    let name: String, triple: String
            """
        #expect(Unwrapper.unwrap(input) == input)
    }

    @Test("re-joins a word the wrapper split after its hyphen")
    func hyphenatedWord() {
        let input = """
            We finally have a reproducible build for the documentation site, the well-
            known problem with timestamps in the generated archives is gone.
            """
        #expect(
            Unwrapper.unwrap(input)
                == "We finally have a reproducible build for the documentation site, the well-known problem with timestamps in the generated archives is gone."
        )
    }

    @Test("leaves narrow text alone")
    func narrowText() {
        let input = "Roses are red,\nviolets are blue,\nthis is a poem\nand so are you."
        #expect(Unwrapper.unwrap(input) == input)
    }
}
