import MailText
import Testing

@Suite struct AddressListParserTests {
    /// Shorthand for expected mailboxes.
    static func m(_ name: String?, _ address: String) -> MailAddress {
        MailAddress(name: name, address: address)
    }

    @Test(
        "Parses address lists like RFC 5322 and real mail",
        arguments: [
            // Bare address.
            ("bob@example.com", [m(nil, "bob@example.com")]),
            // Name and angle address.
            ("Bob Smith <bob@example.com>", [m("Bob Smith", "bob@example.com")]),
            // A comma inside a quoted name must not split.
            ("\"Last, First\" <x@y.org>", [m("Last, First", "x@y.org")]),
            // Escapes inside quotes are resolved.
            ("\"Bob \\\"the\\\" Builder\" <b@x.org>", [m("Bob \"the\" Builder", "b@x.org")]),
            // Comment serves as the name when there is no phrase.
            ("bob@x.org (Bob Smith)", [m("Bob Smith", "bob@x.org")]),
            // Nested comments, comma inside a comment.
            ("bob@x.org (Bob (a, b) Smith), c@d.org", [m("Bob (a, b) Smith", "bob@x.org"), m(nil, "c@d.org")]),
            // A group's members are returned, its name is not.
            ("Friends: a@x.org, b@y.org;", [m(nil, "a@x.org"), m(nil, "b@y.org")]),
            // An empty group yields nothing.
            ("undisclosed-recipients:;", []),
            // Group followed by a normal address.
            ("Team: A <a@x.org>;, c@z.org", [m("A", "a@x.org"), m(nil, "c@z.org")]),
            // Obsolete route is dropped.
            ("<@relay1,@relay2:user@host.org>", [m(nil, "user@host.org")]),
            // Phrase with dots (obsolete, common).
            ("John Q. Public <jqp@x.org>", [m("John Q. Public", "jqp@x.org")]),
            // Encoded words in the name are decoded after tokenizing.
            ("=?UTF-8?Q?Andr=C3=A9?= <andre@x.org>", [m("André", "andre@x.org")]),
            // An encoded word containing a comma must not split the list.
            ("=?UTF-8?Q?Doe,_John?= <jd@x.org>", [m("Doe, John", "jd@x.org")]),
            // Encoded word inside quotes (non-standard, common).
            ("\"=?UTF-8?B?Q2Fmw6k=?=\" <c@x.org>", [m("Café", "c@x.org")]),
            // Raw UTF-8 name.
            ("Jürgen Müller <jm@x.de>", [m("Jürgen Müller", "jm@x.de")]),
            // A bare name without address is dropped.
            ("Just A Name", []),
            // Spaces around @ are removed.
            ("bob @ example.com", [m(nil, "bob@example.com")]),
            // Missing angle brackets: name followed by address.
            ("Bob Smith bob@x.org", [m("Bob Smith", "bob@x.org")]),
            // Unbalanced quote: the stray quote is dropped and the rest parsed.
            ("\"Bob <bob@x.org>", [m("Bob", "bob@x.org")]),
            // Unclosed angle bracket: the address is still found.
            ("Bob <bob@x.org", [m("Bob", "bob@x.org")]),
            // Unclosed angle bracket followed by another address.
            ("Bob <bob@x.org, c@d.org", [m("Bob", "bob@x.org"), m(nil, "c@d.org")]),
            // Multiple addresses, extra commas.
            ("a@x.org,, ,b@y.org,", [m(nil, "a@x.org"), m(nil, "b@y.org")]),
            // Whitespace in names is collapsed.
            ("\"  Bob   \t Smith \" <b@x.org>", [m("Bob Smith", "b@x.org")]),
            // Angle address without a domain (MAILER-DAEMON) is kept.
            ("Mail Delivery System <MAILER-DAEMON>", [m("Mail Delivery System", "MAILER-DAEMON")]),
            // mailto: inside the angle brackets is removed.
            ("Bob <mailto:bob@x.org>", [m("Bob", "bob@x.org")]),
            // Domain literal.
            ("root@[192.0.2.1]", [m(nil, "root@[192.0.2.1]")]),
            // Quoted local part keeps its quotes.
            ("\"john doe\"@x.org", [m(nil, "\"john doe\"@x.org")]),
            // Folded header value.
            ("Bob\r\n Smith <b@x.org>,\r\n\tc@d.org", [m("Bob Smith", "b@x.org"), m(nil, "c@d.org")]),
            // Mailing list archives write `at` for `@`; the comment is the name.
            ("andy at example.com (Andy Grunwald)", [m("Andy Grunwald", "andy@example.com")]),
            // ...but prose with "at" and no dotted domain is not an address.
            ("Meet me at noon", []),
            // Empty input.
            ("", []),
            // Two addresses without a comma between them.
            ("a@x.org b@y.org", [m(nil, "a@x.org"), m(nil, "b@y.org")]),
        ])
    func parses(raw: String, expected: [MailAddress]) {
        #expect(AddressListParser.parse(raw) == expected)
    }

    @Test("Raw windows-1252 name bytes are decoded")
    func latin1Name() {
        let raw: [UInt8] = Array("J".utf8) + [0xFC] + Array("rgen <j@x.de>".utf8)
        #expect(AddressListParser.parse(raw) == [MailAddress(name: "Jürgen", address: "j@x.de")])
    }

    @Test("Random input never crashes or hangs")
    func fuzz() {
        var generator = SplitMix64(seed: 5322)
        let alphabet = Array("ab@.<>,:;()\"\\ =?[]".utf8) + [0xC3, 0xA9, 0x0A]
        for _ in 0..<2000 {
            let length = Int(generator.next() % 40)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            for address in AddressListParser.parse(bytes) {
                #expect(!address.address.isEmpty)
            }
        }
    }
}
