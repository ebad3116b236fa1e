import Foundation
import GRDB
import Testing

@testable import ChatmailStore

/// The screener: conversations with people the account has never written to wait until it writes to
/// one of them or allows them.
@Suite struct ScreenerTests {
    static let t0: Int64 = 1_700_000_000_000
    static let screener = ConversationFilter(section: .screener)

    static func ids(_ store: ChatmailStore, _ account: AccountID, _ filter: ConversationFilter = .init()) throws
        -> Set<ConversationID>
    {
        Set(try store.conversations(in: account, filter: filter).map(\.id))
    }

    @Test("the screener is off until turned on, and its section is listed either way")
    func offByDefault() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([message("a", from: alice)])
            #expect(try !store.screenerEnabled(in: account))
            #expect(try Self.ids(store, account) == [results[0].conversationID])
            #expect(try Self.ids(store, account, Self.screener) == [results[0].conversationID])
            #expect(try store.screenerCount(in: account) == 1)
            try store.write { tx in try tx.setScreener(enabled: true, in: account) }
            #expect(try store.screenerEnabled(in: account))
            #expect(try Self.ids(store, account).isEmpty)
            #expect(try store.screenerCount(in: account) == 1)
            try store.write { tx in try tx.setScreener(enabled: false, in: account) }
            #expect(try Self.ids(store, account) == [results[0].conversationID])
        }
    }

    @Test("writing to someone records them, by identity key, and lets their conversations through")
    func heldUntilIWrite() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("a", from: alice, at: Self.t0), message("b", from: bob, at: Self.t0 + 1),
                message("c", from: carol, at: Self.t0 + 2),
            ])
            try store.write { tx in try tx.setScreener(enabled: true, in: account) }
            #expect(try store.screenerCount(in: account) == 3)
            #expect(try Self.ids(store, account).isEmpty)

            // To, cc and bcc all count; any spelling of the address is the same person.
            let toBob = EmailAddress(address: "bob.smith+x@googlemail.com")
            let toCarol = EmailAddress(address: "CAROL@example.net")
            let (_, mine) = try store.seed([
                MessageInput(
                    gmailID: "mine", threadID: "t", internalDateMs: Self.t0 + 3, from: me,
                    to: [EmailAddress(address: "dave@elsewhere.org")], bcc: [toBob, toCarol], labelIDs: ["SENT"])
            ])
            #expect(
                try store.correspondents(
                    among: ["bobsmith@gmail.com", "carol@example.net", "alice@example.com"],
                    in: account) == ["bobsmith@gmail.com", "carol@example.net"])
            #expect(try Self.ids(store, account, Self.screener) == [results[0].conversationID])
            #expect(try store.screenerCount(in: account) == 1)
            #expect(
                try Self.ids(store, account) == [
                    results[1].conversationID, results[2].conversationID, mine[0].conversationID,
                ])
        }
    }

    @Test("a conversation passes when the account wrote to any one of its people")
    func anyPersonLetsThrough() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("group", from: alice, to: [me, bob]),
                message("reply", from: me, to: [bob], labels: ["SENT"]),
            ])
            try store.write { tx in try tx.setScreener(enabled: true, in: account) }
            #expect(try Self.ids(store, account, Self.screener).isEmpty)
            #expect(try Self.ids(store, account) == Set(results.map(\.conversationID)))
        }
    }

    @Test("mail I received from someone, or sent to myself, does not make them a correspondent")
    func onlyMyOwnMailCounts() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("a", from: alice, to: [me, carol]),
                message("note", from: me, to: [me], labels: ["SENT", "INBOX"]),
            ])
            #expect(try store.correspondents(among: ["carol@example.net", "alice@example.com"], in: account).isEmpty)
            #expect(try Self.ids(store, account, Self.screener) == [results[0].conversationID])
            // A note to myself has no people to screen.
            #expect(try store.conversation(results[1].conversationID)?.participants == [])
        }
    }

    @Test("an allow rule lets a conversation through, and removing it holds it again")
    func allowLetsThrough() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([message("a", from: alice), message("b", from: bob)])
            try store.write { tx in try tx.setScreener(enabled: true, in: account) }
            let allow = try store.addRule(.allow, .domain, "example.com", in: account)
            #expect(allow.conversations == [results[0].conversationID])
            #expect(try Self.ids(store, account) == [results[0].conversationID])
            #expect(try Self.ids(store, account, Self.screener) == [results[1].conversationID])
            #expect(try store.screenerCount(in: account) == 1)
            try store.removeRule(allow.added[0].id, in: account)
            #expect(try Self.ids(store, account).isEmpty)
            #expect(try store.screenerCount(in: account) == 2)
        }
    }

    @Test("mailing lists are never held: joining one was the user's choice")
    func listsExcluded() async throws {
        try await withTemporaryStore { store, _ throws in
            var post = message("l", from: carol, to: [EmailAddress(address: "swift@lists.example")])
            post.mailingList = MessageInput.MailingList(id: "swift.lists.example", name: "Swift")
            let (account, results) = try store.seed([post, message("a", from: alice)])
            try store.write { tx in try tx.setScreener(enabled: true, in: account) }
            #expect(try store.conversation(results[0].conversationID)?.list != nil)
            #expect(try Self.ids(store, account) == [results[0].conversationID])
            #expect(try Self.ids(store, account, Self.screener) == [results[1].conversationID])
            #expect(try store.screenerCount(in: account) == 1)
        }
    }

    @Test("the count leaves out archived, filtered and emptied conversations; the section honours visibility")
    func countAndVisibility() async throws {
        try await withTemporaryStore { store, _ throws in
            let dave = EmailAddress(address: "dave@example.org")
            let (account, results) = try store.seed([
                message("active", from: alice), message("archived", from: bob, labels: []),
                message("denied", from: carol), message("trashed", from: dave, labels: ["TRASH"]),
            ])
            try store.addRule(.deny, .sender, carol.address, in: account)
            #expect(try store.screenerCount(in: account) == 1)
            #expect(try Self.ids(store, account, Self.screener) == [results[0].conversationID])
            let archived = ConversationFilter(visibility: .archived, section: .screener)
            #expect(try Self.ids(store, account, archived) == [results[1].conversationID])
            // Filtered belongs to deny rules' section, not the screener's.
            let filtered = ConversationFilter(visibility: .all, section: .filtered)
            #expect(try Self.ids(store, account, filtered) == [results[2].conversationID])
        }
    }

    @Test("with the screener on, the main list keeps everything else: known people, lists, my own threads")
    func mainListWithScreener() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("sent", from: me, to: [bob], at: Self.t0, labels: ["SENT"]),
                message("bob", from: bob, at: Self.t0 + 1, labels: ["INBOX", "UNREAD"]),
                message("stranger", from: alice, at: Self.t0 + 2, labels: ["INBOX", "UNREAD"]),
            ])
            let bobs = results[1].conversationID
            #expect(results[0].conversationID == bobs)
            let off = try store.conversations(in: account)
            #expect(off.map(\.id) == [results[2].conversationID, bobs])
            try store.write { tx in try tx.setScreener(enabled: true, in: account) }
            #expect(try store.conversations(in: account).map(\.id) == [bobs])
            #expect(try store.conversations(in: account, filter: .init(unreadOnly: true)).map(\.id) == [bobs])
            #expect(try store.conversations(in: account, filter: .init(limit: 1)).map(\.id) == [bobs])
            // Only the main section depends on the switch.
            #expect(try Self.ids(store, account, Self.screener) == [results[2].conversationID])
        }
    }

    @Test("status counts the unread conversations the screener holds only while it is off")
    func statusUnread() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                message("sent", from: me, to: [bob], labels: ["SENT"]),
                message("bob", from: bob, labels: ["INBOX", "UNREAD"]),
                message("stranger", from: alice, labels: ["INBOX", "UNREAD"]),
            ])
            let row = try #require(try store.accounts().first { $0.id == account })
            #expect(try store.status(of: row).unreadConversationCount == 2)
            try store.write { tx in try tx.setScreener(enabled: true, in: account) }
            #expect(try store.status(of: row).unreadConversationCount == 1)
            #expect(try store.conversations(in: account, filter: .init(unreadOnly: true)).count == 1)
        }
    }
}
