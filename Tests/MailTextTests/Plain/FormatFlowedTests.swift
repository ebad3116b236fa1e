import MailText
import Testing

@Suite struct FormatFlowedTests {
    @Test(
        "joins flowed lines and keeps fixed lines",
        arguments: [
            ("Hello \nworld", false, "Hello world"),  // trailing space = soft break
            ("Hello \nworld", true, "Helloworld"),  // delsp=yes deletes that one space
            ("Long word-\u{20}\nsplit", true, "Long word-split"),  // delsp joins words split by the sender
            ("one \ntwo \nthree\nfour", false, "one two three\nfour"),  // a fixed line ends the paragraph
            (" From here\n >quoted", false, "From here\n>quoted"),  // space-stuffing removed
            ("para \n\nnext", false, "para \n\nnext"),  // a flowed line never swallows the blank line
            ("text \n-- \nBob", false, "text \n-- \nBob"),  // "-- " is never flowed and is not joined into
        ])
    func decodes(input: String, delSp: Bool, expected: String) {
        #expect(FormatFlowed.decode(input, delSp: delSp) == expected)
    }

    @Test(
        "joins quoted lines only at the same quote depth",
        arguments: [
            ("> a \n> b", "> a b"),  // same depth joins
            (">> a \n>> b", ">> a b"),  // same depth two joins
            ("> a \n>> b", "> a \n>> b"),  // deeper next line: no join
            (">> a \n> b", ">> a \n> b"),  // shallower next line: no join
            ("> a \nb", "> a \nb"),  // quote then unquoted: no join
        ])
    func quoteDepth(input: String, expected: String) {
        #expect(FormatFlowed.decode(input, delSp: false) == expected)
    }

    @Test("a flowed body goes through the cleaner without the line-length unwrapper")
    func cleanerSkipsUnwrapper() {
        let body = "Short flowed line \nthat continues.\nA fixed short line\nand another one.\n"
        let cleaned = PlainTextCleaner.clean(body, isFlowed: true)
        #expect(cleaned.text == "Short flowed line that continues.\nA fixed short line\nand another one.")
    }

    @Test("a flowed reply still loses its quote")
    func flowedQuote() {
        let body =
            "Yes, see you \nthen.\n\nOn Mon, Jan 1, 2024 at 10:00 AM Ann <ann@example.com> wrote:\n> Are you \n> coming?\n"
        let cleaned = PlainTextCleaner.clean(body, isFlowed: true, delSp: false)
        #expect(cleaned.text == "Yes, see you then.")
        #expect(cleaned.removedQuote)
    }
}
