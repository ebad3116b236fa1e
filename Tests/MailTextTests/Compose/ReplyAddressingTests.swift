import Foundation
import MailText
import Testing

@Suite struct ReplyAddressingTests {
    let me = MailAddress(name: "Me", address: "me@gmail.com")
    let work = MailAddress(name: "Me at work", address: "me@work.example")
    let ann = MailAddress(name: "Ann", address: "ann@example.org")
    let bob = MailAddress(name: "Bob", address: "bob@example.net")
    let carol = MailAddress(name: "Carol", address: "carol@example.com")
    let list = MailAddress(name: "Dev list", address: "dev@lists.example.org")

    func reply(
        _ participants: [MailAddress], _ latest: ReplyAddressing.LatestMessage,
        conversation: ReplyAddressing.Conversation = .direct,
        normalize: (String) -> String = { $0.lowercased() }
    ) throws -> ReplyAddressing.Recipients {
        try ReplyAddressing.recipients(
            participants: participants, primary: me, aliases: [work], conversation: conversation, latest: latest,
            normalize: normalize)
    }

    @Test("One-to-one: the other person, from the primary address")
    func oneToOne() throws {
        let result = try reply([ann, me], .init(from: [ann], to: [me]))
        #expect(result == .init(from: me, to: [ann]))
    }

    @Test("Group: every participant but me, the latest author first, order otherwise kept")
    func group() throws {
        let result = try reply([bob, me, carol, ann], .init(from: [ann], to: [me, bob, carol]))
        #expect(result.to == [ann, bob, carol])
        #expect(result.cc.isEmpty)
    }

    @Test("Group: those only in the latest message's Cc stay in Cc; participants it left out are in To")
    func groupCc() throws {
        let dave = MailAddress(address: "dave@example.org")
        let result = try reply([ann, bob, carol, dave, me], .init(from: [ann], to: [me, bob], cc: [carol]))
        #expect(result.to == [ann, bob, dave])
        #expect(result.cc == [carol])
    }

    @Test("Own addresses are never recipients, compared case-insensitively and through the caller's normalizer")
    func neverOwn() throws {
        let gmailNormalize: (String) -> String = { address in
            let lower = address.lowercased()
            guard lower.hasSuffix("@gmail.com") else { return lower }
            let local = lower.dropLast("@gmail.com".count).prefix { $0 != "+" }.filter { $0 != "." }
            return local + "@gmail.com"
        }
        let spelledOtherwise = [MailAddress(address: "M.E+news@Gmail.com"), MailAddress(address: "ME@WORK.example")]
        let result = try reply(
            spelledOtherwise + [ann], .init(from: [ann], to: spelledOtherwise), normalize: gmailNormalize)
        #expect(result.to == [ann])
        #expect(result.from == me)
    }

    @Test("Duplicates collapse to the first, which may take a later display name")
    func duplicates() throws {
        let bare = MailAddress(address: "ANN@example.org")
        let result = try reply([bare, ann, bob, MailAddress(address: "bob@example.net")], .init(from: [bob], to: [me]))
        #expect(result.to == [bob, MailAddress(name: "Ann", address: "ANN@example.org")])
    }

    @Test("From is the alias the latest message was sent to: To first, then Cc, then its own From")
    func fromAlias() throws {
        #expect(try reply([ann], .init(from: [ann], to: [work])).from == work)
        #expect(
            try reply([ann], .init(from: [ann], to: [bob], cc: [MailAddress(address: "ME@work.example")])).from == work)
        #expect(try reply([ann], .init(from: [ann], to: [me], cc: [work])).from == me)
        #expect(try reply([ann], .init(from: [work], to: [ann])).from == work)
        #expect(try reply([ann], .init(from: [ann], to: [bob])).from == me)
    }

    @Test("Replying to my own latest message goes to its recipients")
    func ownLatest() throws {
        let result = try reply([me, ann, bob], .init(from: [me], to: [ann], cc: [bob]))
        #expect(result == .init(from: me, to: [ann], cc: [bob]))
    }

    @Test("When only Cc recipients are left, they move up to To")
    func ccMovesUp() throws {
        let result = try reply([me, ann, bob], .init(from: [me], to: [work], cc: [ann, bob]))
        #expect(result == .init(from: work, to: [ann, bob]))
    }

    @Test("Reply-To adds its addresses and drops the author unless it names them")
    func replyToRedirects() throws {
        let noreply = MailAddress(address: "noreply@shop.example")
        let support = MailAddress(name: "Support", address: "support@shop.example")
        let result = try reply([noreply, me], .init(from: [noreply], to: [me], replyTo: [support]))
        #expect(result.to == [support])
        // A Reply-To that includes the author adds its other addresses.
        let both = try reply([ann, me], .init(from: [ann], to: [me], replyTo: [ann, bob]))
        #expect(both.to == [ann, bob])
    }

    @Test("Mailing list: the posting address, whatever Reply-To says")
    func listReply() throws {
        let conversation = ReplyAddressing.Conversation.mailingList(name: "dev", posting: list)
        let plain = try reply([ann, list, me], .init(from: [ann], to: [list]), conversation: conversation)
        #expect(plain == .init(from: me, to: [list]))
        let munged = try reply(
            [ann, list, me], .init(from: [ann], to: [list], replyTo: [list]), conversation: conversation)
        #expect(munged.to == [list])
        let personal = try reply(
            [ann, list, me], .init(from: [ann], to: [list], replyTo: [bob]), conversation: conversation)
        #expect(personal.to == [list])
        #expect(personal.cc.isEmpty)
    }

    @Test("Mailing list: Mail-Followup-To is honoured, minus my own addresses")
    func followupTo() throws {
        let conversation = ReplyAddressing.Conversation.mailingList(name: "dev", posting: list)
        let result = try reply(
            [ann, list, me], .init(from: [ann], to: [list], cc: [me], replyTo: [bob], mailFollowupTo: [list, ann, me]),
            conversation: conversation)
        #expect(result == .init(from: me, to: [list, ann]))
    }

    @Test("Mailing list: Mail-Followup-To works for a list whose posting address is unknown")
    func followupToWithoutPosting() throws {
        let result = try reply(
            [ann, me], .init(from: [ann], mailFollowupTo: [list]),
            conversation: .mailingList(name: "dev", posting: nil))
        #expect(result.to == [list])
    }

    @Test("A read-only list is an error that names the list")
    func readOnlyList() {
        let latest = ReplyAddressing.LatestMessage(from: [ann], to: [list], replyTo: [bob])
        #expect(throws: ReplyAddressingError.listDoesNotAcceptPosts("announce@example.org")) {
            try reply([ann, me], latest, conversation: .mailingList(name: "announce@example.org", posting: nil))
        }
        #expect(
            ReplyAddressingError.listDoesNotAcceptPosts("announce@example.org").localizedDescription
                == "announce@example.org does not accept posts.")
    }

    @Test("With nobody else in the conversation, the reply is a note to self from the chosen address")
    func noteToSelf() throws {
        #expect(try reply([me], .init(from: [me], to: [me])) == .init(from: me, to: [me]))
        #expect(try reply([work], .init(from: [work], to: [work])) == .init(from: work, to: [work]))
        let onlyMe = try reply(
            [ann, me], .init(from: [ann], mailFollowupTo: [me]), conversation: .mailingList(name: "dev", posting: list))
        #expect(onlyMe.to == [me])
    }
}
