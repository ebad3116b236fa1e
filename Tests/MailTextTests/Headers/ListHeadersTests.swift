import MailText
import Testing

@Suite struct ListHeadersTests {
    static func list(_ value: String) -> MailingList? {
        ListHeaders.mailingList(Array(value.utf8))
    }

    static func posting(_ value: String) -> ListPosting? {
        ListHeaders.posting(Array(value.utf8))
    }

    static func post(_ address: String) -> ListPosting {
        .address(MailAddress(address: address))
    }

    @Test(
        "List-Id: the id inside the last <…>, lowercased and trimmed; the phrase before it is the name",
        arguments: [
            ("<dev.lists.example.org>", MailingList(id: "dev.lists.example.org")),
            ("Dev Talk <dev.lists.example.org>", MailingList(id: "dev.lists.example.org", name: "Dev Talk")),
            // Case and whitespace inside the brackets.
            ("Dev Talk < Dev.Lists.Example.ORG >", MailingList(id: "dev.lists.example.org", name: "Dev Talk")),
            // A quoted phrase loses its quotes; runs of spaces collapse.
            (
                "\"Ubuntu user technical support,  not for general discussions\" <ubuntu-users.lists.ubuntu.com>",
                MailingList(
                    id: "ubuntu-users.lists.ubuntu.com",
                    name: "Ubuntu user technical support, not for general discussions")
            ),
            // Several brackets: the last one is the id, everything before it the name.
            ("Team <old> list <team.example.org>", MailingList(id: "team.example.org", name: "Team <old> list")),
            // Mailman 2's numeric character references, decimal and hex; a control or junk stays as written.
            (
                "Mozilla en Espa&#241;ol <mozillaes.mozdev.org>",
                MailingList(id: "mozillaes.mozdev.org", name: "Mozilla en Español")
            ),
            ("Caf&#xE9; &#x1F600; <cafe.example.org>", MailingList(id: "cafe.example.org", name: "Café 😀")),
            (
                "Bell&#7; &#; &#12a; AT&amp;T &#1114112; <odd.example.org>",
                MailingList(id: "odd.example.org", name: "Bell&#7; &#; &#12a; AT&amp;T &#1114112;")
            ),
            // An encoded-word name, bare or quoted.
            (
                "=?UTF-8?Q?Caf=C3=A9_lovers?= <cafe.example.org>",
                MailingList(id: "cafe.example.org", name: "Café lovers")
            ),
            (
                "\"=?ISO-8859-1?Q?Mozilla_en_Espa=F1ol?=\" <mozillaes.mozdev.org>",
                MailingList(id: "mozillaes.mozdev.org", name: "Mozilla en Español")
            ),
            // No brackets: the whole value is the id.
            ("  Dev.Lists.Example.org  ", MailingList(id: "dev.lists.example.org")),
            // An unclosed bracket still starts the id.
            ("Dev <dev.lists.example.org", MailingList(id: "dev.lists.example.org", name: "Dev")),
            // Folding whitespace before the id (unfolded by HeaderBlock into a tab).
            ("Dev\t<dev.lists.example.org>", MailingList(id: "dev.lists.example.org", name: "Dev")),
        ])
    func listID(value: String, expected: MailingList) {
        #expect(Self.list(value) == expected)
    }

    @Test("List-Id without an id is no list", arguments: ["", "   ", "Name only <>", "Name < >"])
    func emptyListID(value: String) {
        #expect(Self.list(value) == nil)
    }

    @Test(
        "List-Post: the first mailto URL that names an address",
        arguments: [
            ("<mailto:dev@lists.example.org>", post("dev@lists.example.org")),
            // Header fields of the URL are cut.
            ("<mailto:dev@lists.example.org?subject=list%20post&body=hi>", post("dev@lists.example.org")),
            // Percent-encoding is undone after cutting (an encoded `?` stays part of nothing it should not).
            ("<mailto:dev%40lists.example.org>", post("dev@lists.example.org")),
            ("<mailto:dev%2Bpost@lists.example.org?subject=x>", post("dev+post@lists.example.org")),
            // A malformed escape stays as written.
            ("<mailto:dev%zz@lists.example.org>", post("dev%zz@lists.example.org")),
            // Scheme in any case; a comment after the URL.
            ("<MAILTO:Dev@Lists.Example.org> (Postings are moderated)", post("Dev@Lists.Example.org")),
            // Several URLs: the web form is skipped, the first mailto wins.
            (
                "<https://lists.example.org/post>, <mailto:first@example.org>, <mailto:second@example.org>",
                post("first@example.org")
            ),
            // Whitespace folded into a long URL is ignored.
            ("<mailto:dev@lists.\r\n example.org>", post("dev@lists.example.org")),
            // A mailto without an address is skipped for the next one.
            ("<mailto:?subject=x>, <mailto:dev@lists.example.org>", post("dev@lists.example.org")),
            // Several addresses in one mailto: the first.
            ("<mailto:a@example.org,b@example.org>", post("a@example.org")),
        ])
    func postingAddress(value: String, expected: ListPosting) {
        #expect(Self.posting(value) == expected)
    }

    @Test(
        "List-Post: NO, in any case and with a comment, is a read-only list",
        arguments: [
            "NO", "no", " No ", "NO (posting not allowed on this list)", "(announcements only) NO",
        ])
    func readOnly(value: String) {
        #expect(Self.posting(value) == .readOnly)
    }

    @Test(
        "List-Post with neither a mail address nor NO",
        arguments: [
            "<https://lists.example.org/post>", "", "NOPE", "<mailto:>", "no thanks",
        ])
    func unknownPosting(value: String) {
        #expect(Self.posting(value) == nil)
    }
}
