import MailText
import Testing

@Suite struct MailboxListCheckTests {
    @Test(
        "well-formed mailbox lists",
        arguments: [
            "bob@example.com",
            "Bob Smith <bob@example.com>",
            "\"Smith, Bob\" <bob@example.com>",
            "=?UTF-8?Q?Andr=C3=A9?= <andre@example.org>",
            "bob@example.com (Bob Smith)",
            "<bob@example.com>",
            "\"john doe\"@example.com",
            "bob@[192.0.2.1]",
            "<@relay.example:bob@example.com>",
            "Alice <a@example.org>, Bob <b@example.org>",
            "a@example.org,,b@example.org",
            "John Q. Public <jqp@example.org>",
        ])
    func wellFormed(value: String) {
        #expect(AddressListParser.isWellFormedMailboxList(Array(value.utf8)))
    }

    @Test(
        "values that are not mailbox lists, though the lenient parser may salvage an address",
        arguments: [
            // An mbox `From ` separator mangled into a header.
            "someone@host  Fri Aug 23 11:08:46 2002",
            "MAILER-DAEMON Fri Apr 06 16:46:09 2001",
            "Bob Smith bob@example.com",
            "Sen Fane <steom>",
            "bob at example.com (Bob Smith)",
            "Bob <bob@example.com> trailing",
            "Friends: a@example.org;",
            "",
            "Just A Name",
            "Alice <a@example.org>, broken",
        ])
    func notWellFormed(value: String) {
        #expect(!AddressListParser.isWellFormedMailboxList(Array(value.utf8)))
    }
}
