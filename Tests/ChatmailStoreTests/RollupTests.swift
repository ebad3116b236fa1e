import Foundation
import GRDB
import Testing

@testable import ChatmailStore

@Suite struct RollupTests {
    static let t0: Int64 = 1_700_000_000_000
    static let minute: Int64 = 60_000

    @Test("last message time, count and snippet come from the newest message")
    func basics() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                message("m2", from: alice, at: Self.t0 + 2 * Self.minute, text: "second"),
                message("m1", from: alice, at: Self.t0, text: "first"),
            ])
            let row = try #require(try store.conversations(in: account).first)
            #expect(row.lastMessageAtMs == Self.t0 + 2 * Self.minute)
            #expect(row.messageCount == 2)
            #expect(row.snippet == "second")
        }
    }

    @Test("a newsletter's snippet is its subject, and a conversation of newsletters is a newsletter")
    func newsletterSnippet() async throws {
        try await withTemporaryStore { store, _ throws in
            let news = EmailAddress(address: "news@shop.example", name: "Shop")
            let (account, _) = try store.seed([
                message("n1", from: news, text: "Long marketing body", subject: "Autumn sale", newsletter: true)
            ])
            let row = try #require(try store.conversations(in: account).first)
            #expect(row.snippet == "Autumn sale")
            #expect(row.isNewsletter)
        }
    }

    @Test("my reply turns a newsletter sender into a person conversation")
    func replyMakesPerson() async throws {
        try await withTemporaryStore { store, _ throws in
            let news = EmailAddress(address: "news@shop.example", name: "Shop")
            let (account, _) = try store.seed([
                message("n1", from: news, at: Self.t0, newsletter: true),
                message("r1", from: me, to: [news], at: Self.t0 + Self.minute, labels: ["SENT"]),
            ])
            #expect(try store.conversations(in: account).first?.isNewsletter == false)
        }
    }

    @Test("unread counts only messages that are both UNREAD and in INBOX")
    func unreadCounting() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                message("a", from: alice, labels: ["INBOX", "UNREAD"]),
                message("b", from: alice, labels: ["UNREAD"]),  // archived but unread: not counted
                message("c", from: alice, labels: ["INBOX"]),  // read
                message("d", from: alice, labels: ["INBOX", "UNREAD", "STARRED"]),
            ])
            let row = try #require(try store.conversations(in: account).first)
            #expect(row.unreadCount == 2)
            #expect(row.hasInbox)
        }
    }

    @Test("archived when INBOX leaves every message; un-archived when new mail arrives")
    func archiveAndUnarchive() async throws {
        try await withTemporaryStore(now: Self.t0 + 99) { store, _ throws in
            let (account, results) = try store.seed([
                message("a", from: alice, labels: ["INBOX", "UNREAD"]),
                message("b", from: alice, labels: ["INBOX"]),
            ])
            let conversation = results[0].conversationID
            try store.write { tx in
                let changed = try tx.modifyLabels(adding: [], removing: ["INBOX"], onMessages: ["a", "b"], in: account)
                try tx.recomputeRollups(for: changed)
            }
            var row = try #require(try store.conversation(conversation))
            #expect(row.archivedAtMs == Self.t0 + 99)
            #expect(!row.hasInbox && row.unreadCount == 0)
            #expect(try store.conversations(in: account).isEmpty)
            #expect(
                try store.conversations(in: account, filter: .init(visibility: .archived)).map(\.id) == [conversation])

            try store.write { tx in
                let stored = try tx.upsert(
                    message("c", from: alice, at: Self.t0 + Self.minute, labels: ["INBOX", "UNREAD"]), in: account)
                try tx.recomputeRollups(for: stored.affectedConversations)
            }
            row = try #require(try store.conversation(conversation))
            #expect(row.archivedAtMs == nil)
            #expect(row.unreadCount == 1)
            #expect(try store.conversations(in: account).map(\.id) == [conversation])
        }
    }

    @Test("a conversation where every message is from me stays visible without INBOX")
    func sentOnlyStaysVisible() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([message("s1", from: me, to: [carol], labels: ["SENT"])])
            let row = try #require(try store.conversations(in: account).first)
            #expect(row.archivedAtMs == nil)
            #expect(!row.hasInbox)
            #expect(row.title == "Carol Danvers")
        }
    }

    @Test("archived_at keeps the time it was first archived")
    func archiveTimeIsStable() async throws {
        var now = Self.t0
        try await withTemporaryStore(now: Self.t0) { store, path throws in
            let (account, results) = try store.seed([message("a", from: alice, labels: [])])
            now = try #require(try store.conversation(results[0].conversationID)?.archivedAtMs)
            let later = try ChatmailStore(path: path.path, clock: { Self.t0 + 10 * Self.minute })
            try later.write { tx in
                try tx.modifyLabels(adding: ["STARRED"], removing: [], onMessages: ["a"], in: account)
                try tx.recomputeRollups(for: [results[0].conversationID])
            }
            #expect(try later.conversation(results[0].conversationID)?.archivedAtMs == now)
        }
    }

    @Test("trashed messages leave the rollups, and a fully trashed conversation leaves the list")
    func trash() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("a", from: alice, at: Self.t0, text: "kept"),
                message("b", from: alice, at: Self.t0 + Self.minute, text: "trashed"),
            ])
            try store.write { tx in
                let changed = try tx.modifyLabels(
                    adding: ["TRASH"], removing: ["INBOX"], onMessages: ["b"], in: account)
                try tx.recomputeRollups(for: changed)
            }
            var row = try #require(try store.conversation(results[0].conversationID))
            #expect(row.messageCount == 1 && row.snippet == "kept" && row.lastMessageAtMs == Self.t0)
            try store.write { tx in
                let changed = try tx.modifyLabels(
                    adding: ["TRASH"], removing: ["INBOX"], onMessages: ["a"], in: account)
                try tx.recomputeRollups(for: changed)
            }
            row = try #require(try store.conversation(results[0].conversationID))
            #expect(row.messageCount == 0)
            #expect(try store.conversations(in: account, filter: .init(visibility: .all)).isEmpty)
        }
    }

    @Test("deleting every message deletes the conversation")
    func deleteAll() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([message("a", from: alice)])
            try store.write { tx in
                try tx.recomputeRollups(for: tx.deleteMessages(gmailIDs: ["a", "never-stored"], in: account))
            }
            #expect(try store.conversation(results[0].conversationID) == nil)
        }
    }

    @Test("recomputing one conversation leaves every other conversation untouched")
    func onlyTrackedConversations() async throws {
        try await withTemporaryStore { store, path throws in
            let (account, results) = try store.seed([
                message("a", from: alice, labels: ["INBOX", "UNREAD"]),
                message("b", from: bob, labels: ["INBOX", "UNREAD"]),
            ])
            let aliceConversation = results[0].conversationID
            let bobConversation = results[1].conversationID
            // Change labels on both conversations' messages, but recompute only Alice's.
            try store.write { tx in
                try tx.modifyLabels(adding: [], removing: ["UNREAD"], onMessages: ["a", "b"], in: account)
                try tx.recomputeRollups(for: [aliceConversation])
            }
            #expect(try store.conversation(aliceConversation)?.unreadCount == 0)
            #expect(try store.conversation(bobConversation)?.unreadCount == 1)  // stale on purpose: not tracked
            // And the statement touched one row only.
            let changes = try DatabaseQueue(path: path.path).write { db in
                let tx = StoreTransaction(db: db, clock: { 0 }, subjectBase: ChatmailStore.testSubjectBase)
                let before = db.totalChangesCount
                try tx.recomputeRollups(for: [aliceConversation])
                return db.totalChangesCount - before
            }
            #expect(changes == 1)
        }
    }

    @Test("their messages and my replies, none in INBOX: archived (only all-from-me stays visible)")
    func mixedWithoutInboxIsArchived() async throws {
        try await withTemporaryStore(now: Self.t0 + 5) { store, _ throws in
            let (account, results) = try store.seed([
                message("a", from: alice, at: Self.t0, labels: []),
                message("b", from: me, to: [alice], at: Self.t0 + Self.minute, labels: ["SENT"]),
            ])
            let row = try #require(try store.conversation(results[0].conversationID))
            #expect(row.archivedAtMs == Self.t0 + 5)
            #expect(try store.conversations(in: account).isEmpty)
        }
    }

    @Test("a conversation deleted by rollups is not reused by a later message in the same transaction")
    func deletedConversationNotCached() async throws {
        try await withTemporaryStore { store, _ throws in
            let account = try store.write { tx in try tx.ensureAccount(email: me.address) }
            let second = try store.write { tx -> MessageUpsert in
                let first = try tx.upsert(message("a", from: alice), in: account)
                try tx.recomputeRollups(for: first.affectedConversations)
                try tx.recomputeRollups(for: tx.deleteMessages(gmailIDs: ["a"], in: account))
                let second = try tx.upsert(message("b", from: alice), in: account)
                try tx.recomputeRollups(for: second.affectedConversations)
                return second
            }
            #expect(try store.conversation(second.conversationID)?.messageCount == 1)
        }
    }

    @Test("titles follow the participants' latest names")
    func titleFollowsNames() async throws {
        try await withTemporaryStore { store, _ throws in
            let unnamed = EmailAddress(address: "dave@example.com")
            let (account, results) = try store.seed([message("a", from: unnamed)])
            #expect(try store.conversation(results[0].conversationID)?.title == "dave@example.com")
            try store.write { tx in
                let stored = try tx.upsert(
                    message("b", from: EmailAddress(address: "dave@example.com", name: "Dave Lister")), in: account)
                try tx.recomputeRollups(for: stored.affectedConversations)
            }
            #expect(try store.conversation(results[0].conversationID)?.title == "Dave Lister")
        }
    }

    @Test("the newest message's name wins, whatever order and transactions messages arrive in")
    func newestNameWins() async throws {
        try await withTemporaryStore { store, _ throws in
            func named(_ id: String, _ name: String, at: Int64) -> MessageInput {
                message(id, from: EmailAddress(address: "dave@example.com", name: name), at: Self.t0 + at)
            }
            let (account, results) = try store.seed([named("n1", "Dave A", at: 100), named("n3", "Dave A", at: 300)])
            let conversation = results[0].conversationID
            // An older message with another name arrives later, in its own transaction.
            try store.write { tx in
                try tx.recomputeRollups(
                    for: tx.upsert(named("n2", "Dave B", at: 200), in: account).affectedConversations)
            }
            #expect(try store.conversation(conversation)?.title == "Dave A")
            // Newest first in one transaction, as an initial sync stores them.
            try store.write { tx in
                var touched = Set<ConversationID>()
                touched.formUnion(try tx.upsert(named("n5", "Dave L.", at: 500), in: account).affectedConversations)
                touched.formUnion(try tx.upsert(named("n4", "Old Dave", at: 400), in: account).affectedConversations)
                try tx.recomputeRollups(for: touched)
            }
            #expect(try store.conversation(conversation)?.title == "Dave L.")
            // Deleting the newest named message falls back to the next newest name.
            try store.write { tx in try tx.recomputeRollups(for: tx.deleteMessages(gmailIDs: ["n5"], in: account)) }
            #expect(try store.conversation(conversation)?.title == "Old Dave")
        }
    }
}
