import Foundation
import MailText
import Testing

@Suite struct ReplyQuoteTests {
    let ann = MailAddress(name: "Ann Smith", address: "ann@example.org")
    let utc = TimeZone(secondsFromGMT: 0)!

    @Test("The attribution names the author and the date, the text is quoted line by line")
    func quotes() {
        let quote = ReplyQuote(author: ann, date: composeTestDate, timeZone: utc, text: "Lunch?\n\nAt noon.\n")
        #expect(quote.attribution == "On Wed, 25 Nov 2026 at 21:39, Ann Smith wrote:")
        #expect(quote.lines == ["> Lunch?", ">", "> At noon."])
        #expect(quote.text == "On Wed, 25 Nov 2026 at 21:39, Ann Smith wrote:\n> Lunch?\n>\n> At noon.")
    }

    @Test("Quoted lines get one more level, and no line ends in whitespace")
    func nestedQuotes() {
        let text = "\n\nYes.  \r\n> Lunch?\r\n>> Hungry?\r\n>\n\tindented\t\n\n"
        let quote = ReplyQuote(author: ann, date: composeTestDate, timeZone: utc, text: text)
        #expect(quote.lines == ["> Yes.", ">> Lunch?", ">>> Hungry?", ">>", "> \tindented"])
    }

    @Test("Without a display name the address is the attribution's name; the date is in the zone given")
    func addressAndZone() {
        let quote = ReplyQuote(
            author: MailAddress(address: "bob@example.net"), date: composeTestDate,
            timeZone: TimeZone(secondsFromGMT: 5 * 3600)!, text: "x")
        #expect(quote.attribution == "On Thu, 26 Nov 2026 at 02:39, bob@example.net wrote:")
    }

    @Test("A name with a line break stays on the attribution line")
    func nameWithLineBreak() {
        let quote = ReplyQuote(
            author: MailAddress(name: "Ann\nEvil", address: "a@x"), date: composeTestDate, timeZone: utc, text: "x")
        #expect(quote.attribution == "On Wed, 25 Nov 2026 at 21:39, Ann Evil wrote:")
    }

    @Test("The reply goes below the quote, after a blank line")
    func bottomPosting() {
        let quote = ReplyQuote(author: ann, date: composeTestDate, timeZone: utc, text: "Lunch?")
        #expect(
            quote.withReplyBelow("Noon works.")
                == "On Wed, 25 Nov 2026 at 21:39, Ann Smith wrote:\n> Lunch?\n\nNoon works.\n")
        #expect(quote.withReplyBelow("Noon.\n").hasSuffix("\n\nNoon.\n"))
    }

    @Test("chatmail's own text pipeline recognises the quote and shows only the reply")
    func recognisedByCleaner() {
        let quote = ReplyQuote(author: ann, date: composeTestDate, timeZone: utc, text: "Lunch?\nAt noon?")
        let cleaned = PlainTextCleaner.clean(quote.withReplyBelow("Noon works for me."))
        #expect(cleaned.text == "Noon works for me.")
        #expect(cleaned.removedQuote)
    }
}
