import Foundation
import GmailModel
import MailText
import Testing

/// What ``ParsedMessage`` exposes from the list and address headers, through both doors.
@Suite struct ParsedMessageHeadersTests {
    static func message(_ headerLines: String...) -> ParsedMessage {
        ParsedMessage(raw: Array((headerLines + ["Subject: x", "", "body"]).joined(separator: "\r\n").utf8))
    }

    @Test("a list post exposes its list, posting address, Reply-To and Mail-Followup-To")
    func listPost() {
        let message = Self.message(
            "From: Jane Doe <jane@example.org>",
            "To: dev@lists.example.org",
            "Reply-To: Dev List <dev@lists.example.org>, jane@example.org",
            "Mail-Followup-To: dev@lists.example.org,",
            " \"Doe, Jane\" <jane@example.org>",
            "List-Id: =?UTF-8?Q?D=C3=A9veloppeurs?=",
            "  <Dev.Lists.Example.org>",
            "List-Post: <mailto:dev@lists.example.org?subject=help>",
            "List-Unsubscribe: <mailto:dev-leave@lists.example.org>")
        #expect(message.mailingList == MailingList(id: "dev.lists.example.org", name: "Développeurs"))
        #expect(message.listPosting == .address(MailAddress(address: "dev@lists.example.org")))
        #expect(
            message.replyTo == [
                MailAddress(name: "Dev List", address: "dev@lists.example.org"),
                MailAddress(address: "jane@example.org"),
            ])
        #expect(
            message.mailFollowupTo == [
                MailAddress(address: "dev@lists.example.org"),
                MailAddress(name: "Doe, Jane", address: "jane@example.org"),
            ])
    }

    @Test("an announcement list is read-only; a message without list headers has none")
    func readOnlyAndNone() {
        let announce = Self.message(
            "From: CERT Advisory <cert-advisory@cert.example>", "List-Id: <cert-advisory.cert.example>",
            "List-Post: NO (posting not allowed on this list)")
        #expect(announce.listPosting == .readOnly)
        #expect(announce.mailingList?.id == "cert-advisory.cert.example")
        #expect(announce.mailingList?.name == nil)

        let person = Self.message("From: a@example.org", "To: b@example.org")
        #expect(person.mailingList == nil)
        #expect(person.listPosting == nil)
        #expect(person.mailFollowupTo.isEmpty)
        #expect(person.replyTo.isEmpty)
    }

    @Test("two From fields: the well-formed one gives the author, whichever comes first", arguments: [true, false])
    func mangledMboxFrom(mangledFirst: Bool) {
        let mangled = "From: someone@host  Fri Aug 23 11:08:46 2002"
        let real = "From: Some One <someone@host.example.com>"
        let message = mangledFirst ? Self.message(mangled, real) : Self.message(real, mangled)
        #expect(message.from == [MailAddress(name: "Some One", address: "someone@host.example.com")])
        #expect(message.sender?.address == "someone@host.example.com")
    }

    @Test("a lone malformed From is still salvaged, and an empty first From does not hide a later one")
    func salvage() {
        #expect(Self.message("From: someone@host  Fri Aug 23 11:08:46 2002").sender?.address == "someone@host")
        #expect(Self.message("From: Sen Fane <steom>", "From: avid Daney <om>").sender?.address == "steom")
        #expect(
            Self.message("From: undisclosed", "From: bob at example.com (Bob)").sender
                == MailAddress(name: "Bob", address: "bob@example.com"))
    }

    @Test("a From with several authors exposes all of them; the sender is the first")
    func severalAuthors() {
        let message = Self.message(
            "From: Alice <alice@example.org>, \"Smith, Bob\" <bob@example.org>", "Sender: alice@example.org")
        #expect(
            message.from == [
                MailAddress(name: "Alice", address: "alice@example.org"),
                MailAddress(name: "Smith, Bob", address: "bob@example.org"),
            ])
        #expect(message.sender == MailAddress(name: "Alice", address: "alice@example.org"))
    }

    @Test("the Gmail door exposes the same list and author facts")
    func gmailDoor() throws {
        let json = """
            {"partId": "", "mimeType": "text/plain", "filename": "",
             "headers": [{"name": "From", "value": "someone@host  Fri Aug 23 11:08:46 2002"},
                         {"name": "From", "value": "Some One <someone@host.example.com>"},
                         {"name": "List-Id", "value": "Dev Talk <dev.lists.example.org>"},
                         {"name": "List-Post", "value": "<mailto:dev%40lists.example.org>"},
                         {"name": "Mail-Followup-To", "value": "dev@lists.example.org"}],
             "body": {"size": 2, "data": "aGk="}}
            """
        let message = GmailPayloadAdapter.parse(try JSONDecoder().decode(MessagePart.self, from: Data(json.utf8)))
        #expect(message.sender == MailAddress(name: "Some One", address: "someone@host.example.com"))
        #expect(message.mailingList == MailingList(id: "dev.lists.example.org", name: "Dev Talk"))
        #expect(message.listPosting == .address(MailAddress(address: "dev@lists.example.org")))
        #expect(message.mailFollowupTo == [MailAddress(address: "dev@lists.example.org")])
    }
}
