import ChatmailStore
import Foundation
import GRDB
import GmailAPI
import GmailEmulator
import MailText
import Testing

@testable import ChatmailSync

/// A list message as a list server delivers it: List-Id, and List-Post unless `post` is `nil`.
func rawListMessage(
    _ id: Int, from: String, listID: String = "Dev talk <dev.lists.example.org>",
    post: String? = "<mailto:dev@lists.example.org>", extraHeaders: [String] = []
) -> [UInt8] {
    var lines = ["From: \(from)", "To: dev@lists.example.org", "List-Id: \(listID)"]
    if let post { lines.append("List-Post: \(post)") }
    lines += extraHeaders
    lines += [
        "Subject: Re: release \(id)", "Date: Tue, \(id % 28 + 1) Mar 2025 10:00:00 +0000",
        "Message-ID: <m\(id)@example.org>", "", "List body \(id)",
    ]
    return Array(lines.joined(separator: "\r\n").utf8)
}

@Suite struct MailingListSyncTests {
    /// My own post as Gmail keeps it: the Sent copy, without List-Id.
    static let myPost = rawMessage(1, from: "Me <me@example.org>", to: "dev@lists.example.org", cc: "carol@example.com")
    static let aliceReply = rawListMessage(
        2, from: "Alice <alice@example.com>",
        extraHeaders: ["Reply-To: dev@lists.example.org", "Mail-Followup-To: dev@lists.example.org"])
    static let bobPost = rawListMessage(3, from: "Bob <bob@example.com>", post: nil)
    static let private1 = rawMessage(4, from: "Alice <alice@example.com>")
    static let coAuthored = rawMessage(5, from: "Alice <alice@example.com>, Dan <dan@example.com>")

    @Test("an initial sync puts a list's messages and my posts to it in one conversation titled by the list")
    func initialSync() async throws {
        let seeded: [([UInt8], [String]?)] = [
            (Self.myPost, ["SENT"]), (Self.aliceReply, ["INBOX"]), (Self.bobPost, ["INBOX", "UNREAD"]),
            (Self.private1, ["INBOX"]), (Self.coAuthored, ["INBOX"]),
        ]
        try await withSyncSetup(mailbox: .messages(seeded)) { emulator, store, account, path in
            _ = try await makeEngine(emulator, store).run(account: account)
            let conversations = try store.conversations(in: account.id, filter: .init(visibility: .all))
            let list = try #require(conversations.first { $0.title == "Dev talk" })
            #expect(list.messageCount == 3)
            #expect(Set(list.participants.map(\.address)) == ["alice@example.com", "bob@example.com"])
            // Alice alone, and Alice with her co-author Dan: two more conversations.
            #expect(conversations.count == 3)
            #expect(
                conversations.contains {
                    Set($0.participants.map(\.address)) == ["alice@example.com", "dan@example.com"]
                })

            let stored = try await DatabaseQueue(path: path.path).read { db in
                try Row.fetchOne(
                    db,
                    sql: """
                        SELECT list_id, list_name, list_post_address, reply_to, mail_followup_to FROM message
                        WHERE reply_to IS NOT NULL
                        """)
            }
            let row = try #require(stored)
            #expect(row["list_id"] as String? == "dev.lists.example.org" && row["list_name"] as String? == "Dev talk")
            #expect(row["list_post_address"] as String? == "dev@lists.example.org")
            #expect((row["reply_to"] as String?)?.contains("dev@lists.example.org") == true)
            #expect((row["mail_followup_to"] as String?)?.contains("dev@lists.example.org") == true)
        }
    }

    @Test("my post synced before any List-Post moves into the list later; the end state equals a fresh sync")
    func arrivalOrderReversed() async throws {
        // Incrementally: my post first, then the reply that teaches the posting address, then Bob.
        let incremental = try await Self.finalState { emulator, store, account, _ in
            _ = await emulator.mailbox.insert(raw: Self.private1, labelNames: ["INBOX"])
            _ = try await makeEngine(emulator, store).run(account: account)
            _ = await emulator.mailbox.insert(raw: Self.myPost, labelNames: ["SENT"])
            _ = try await makeEngine(emulator, store).run(account: account)
            let before = try #require(try store.conversations(in: account.id).first { $0.title != "Alice" })
            _ = await emulator.mailbox.insert(raw: Self.aliceReply, labelNames: ["INBOX"])
            let engine = makeEngine(emulator, store)
            let report = try await engine.run(account: account)
            #expect(report.mode == .incremental)
            // The tracker saw the conversation my post left as well as the list it joined.
            #expect(await engine.tracker.changed.contains(before.id))
            #expect(try store.conversation(before.id) == nil)
            _ = await emulator.mailbox.insert(raw: Self.bobPost, labelNames: ["INBOX", "UNREAD"])
            _ = try await makeEngine(emulator, store).run(account: account)
        }
        // Fresh: everything in the mailbox before the first sync.
        let fresh = try await Self.finalState { emulator, store, account, _ in
            for (raw, labels) in [
                (Self.bobPost, ["INBOX", "UNREAD"]), (Self.aliceReply, ["INBOX"]), (Self.myPost, ["SENT"]),
                (Self.private1, ["INBOX"]),
            ] {
                _ = await emulator.mailbox.insert(raw: raw, labelNames: labels)
            }
            _ = try await makeEngine(emulator, store).run(account: account)
        }
        #expect(incremental == fresh)
        #expect(fresh.contains { $0.hasPrefix("conversation Dev talk 3 ") })
    }

    @Test("deleting the last message that taught a posting address moves my posts back; equals a fresh sync")
    func deletionForgetsPostAddress() async throws {
        let incremental = try await Self.finalState { emulator, store, account, _ in
            var ids: [String: String] = [:]
            for (name, raw, labels) in [
                ("mine", Self.myPost, ["SENT"]), ("alice", Self.aliceReply, ["INBOX"]),
                ("bob", Self.bobPost, ["INBOX", "UNREAD"]), ("private", Self.private1, ["INBOX"]),
            ] {
                ids[name] = await emulator.mailbox.insert(raw: raw, labelNames: labels).id
            }
            _ = try await makeEngine(emulator, store).run(account: account)
            let list = try #require(try store.conversations(in: account.id).first { $0.title == "Dev talk" })
            #expect(list.messageCount == 3)
            try await emulator.mailbox.delete(try #require(ids["alice"]))
            let engine = makeEngine(emulator, store)
            #expect(try await engine.run(account: account).mode == .incremental)
            // The list lost Alice's message and my post: both are in what the tracker saw.
            #expect(await engine.tracker.changed.contains(list.id))
            let mine = try #require(
                try store.conversations(in: account.id).first {
                    Set($0.participants.map(\.address)) == ["dev@lists.example.org", "carol@example.com"]
                })
            #expect(mine.messageCount == 1)
            #expect(await engine.tracker.changed.contains(mine.id))
        }
        let fresh = try await Self.finalState { emulator, store, account, _ in
            for (raw, labels) in [
                (Self.myPost, ["SENT"]), (Self.bobPost, ["INBOX", "UNREAD"]), (Self.private1, ["INBOX"]),
            ] {
                _ = await emulator.mailbox.insert(raw: raw, labelNames: labels)
            }
            _ = try await makeEngine(emulator, store).run(account: account)
        }
        #expect(incremental == fresh)
        #expect(fresh.contains { $0.hasPrefix("conversation Dev talk 1 ") })
        #expect(!fresh.contains { $0.hasPrefix("post ") })
    }

    @Test("deleting every message of a list forgets the list and its conversation; equals a fresh sync")
    func deletionForgetsList() async throws {
        let incremental = try await Self.finalState { emulator, store, account, _ in
            var listMessages: [String] = []
            _ = await emulator.mailbox.insert(raw: Self.myPost, labelNames: ["SENT"])
            _ = await emulator.mailbox.insert(raw: Self.private1, labelNames: ["INBOX"])
            listMessages.append(await emulator.mailbox.insert(raw: Self.aliceReply, labelNames: ["INBOX"]).id)
            listMessages.append(await emulator.mailbox.insert(raw: Self.bobPost, labelNames: ["INBOX"]).id)
            _ = try await makeEngine(emulator, store).run(account: account)
            for id in listMessages { try await emulator.mailbox.delete(id) }
            _ = try await makeEngine(emulator, store).run(account: account)
        }
        let fresh = try await Self.finalState { emulator, store, account, _ in
            _ = await emulator.mailbox.insert(raw: Self.myPost, labelNames: ["SENT"])
            _ = await emulator.mailbox.insert(raw: Self.private1, labelNames: ["INBOX"])
            _ = try await makeEngine(emulator, store).run(account: account)
        }
        #expect(incremental == fresh)
        #expect(!fresh.contains { $0.hasPrefix("list ") || $0.contains("Dev talk") })
    }

    @Test("a list's name and posting address follow its newest message, also when that one is deleted")
    func deletionRecomputesListDetails() async throws {
        let renamed = rawListMessage(
            20, from: "Erin <erin@example.com>", listID: "Developers <dev.lists.example.org>",
            post: "<mailto:developers@lists.example.org>")
        let incremental = try await Self.finalState { emulator, store, account, _ in
            _ = await emulator.mailbox.insert(raw: Self.aliceReply, labelNames: ["INBOX"])
            _ = await emulator.mailbox.insert(raw: Self.myPost, labelNames: ["SENT"])
            let newest = await emulator.mailbox.insert(raw: renamed, labelNames: ["INBOX"]).id
            _ = try await makeEngine(emulator, store).run(account: account)
            let names = try store.conversations(in: account.id).map(\.title)
            #expect(names.contains("Developers"))
            try await emulator.mailbox.delete(newest)
            _ = try await makeEngine(emulator, store).run(account: account)
        }
        let fresh = try await Self.finalState { emulator, store, account, _ in
            _ = await emulator.mailbox.insert(raw: Self.aliceReply, labelNames: ["INBOX"])
            _ = await emulator.mailbox.insert(raw: Self.myPost, labelNames: ["SENT"])
            _ = try await makeEngine(emulator, store).run(account: account)
        }
        #expect(incremental == fresh)
        #expect(fresh.contains { $0.hasPrefix("list dev.lists.example.org Dev talk dev@lists.example.org") })
    }

    @Test("a recovery sync (history expired) that brings the List-Post moves my earlier post into the list too")
    func recovery() async throws {
        let recovered = try await Self.finalState { emulator, store, account, _ in
            _ = await emulator.mailbox.insert(raw: Self.private1, labelNames: ["INBOX"])
            _ = await emulator.mailbox.insert(raw: Self.myPost, labelNames: ["SENT"])
            _ = try await makeEngine(emulator, store).run(account: account)
            _ = await emulator.mailbox.insert(raw: Self.aliceReply, labelNames: ["INBOX"])
            _ = await emulator.mailbox.insert(raw: Self.bobPost, labelNames: ["INBOX", "UNREAD"])
            await emulator.mailbox.expireHistory(before: nil)
            let report = try await makeEngine(emulator, store).run(account: account)
            #expect(report.mode == .recovery)
        }
        let fresh = try await Self.finalState { emulator, store, account, _ in
            for (raw, labels) in [
                (Self.private1, ["INBOX"]), (Self.myPost, ["SENT"]), (Self.aliceReply, ["INBOX"]),
                (Self.bobPost, ["INBOX", "UNREAD"]),
            ] {
                _ = await emulator.mailbox.insert(raw: raw, labelNames: labels)
            }
            _ = try await makeEngine(emulator, store).run(account: account)
        }
        #expect(recovered == fresh)
        #expect(fresh.contains { $0.hasPrefix("conversation Dev talk 3 ") })
    }

    @Test("messages stored without list headers (before schema 010) are re-grouped by reading only their headers")
    func backfillAfterUpgrade() async throws {
        let mailbox: [([UInt8], [String])] = [
            (Self.myPost, ["SENT"]), (Self.aliceReply, ["INBOX"]), (Self.bobPost, ["INBOX", "UNREAD"]),
            (Self.private1, ["INBOX"]),
        ]
        let upgraded = try await Self.finalState { emulator, store, account, path in
            for (raw, labels) in mailbox { _ = await emulator.mailbox.insert(raw: raw, labelNames: labels) }
            // What an older chatmail stored: every message in full, grouped by participants, no list data.
            let gmail = emulatorClient(emulator)
            let ids = await emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 100).page.map(\.id)
            let fetched = try await gmail.getMessages(ids: ids, format: .full).values.map { try $0.get() }
            let old = fetched.map { message in
                var input = MessagePersister().prepare(message)
                (input.mailingList, input.listPosting, input.replyTo, input.mailFollowupTo) = (nil, nil, nil, nil)
                return input
            }
            let historyID = try await gmail.getProfile().historyID
            let before = try await store.write { tx in
                let stored = try old.map { try tx.upsert($0, in: account.id) }
                try tx.recomputeRollups(for: Set(stored.flatMap(\.affectedConversations)))
                try tx.commitHistoryID(historyID, for: account.id)
                return Set(stored.map(\.conversationID)).count
            }
            #expect(before == 4)  // each list thread apart, as before lists were conversations
            // What migration 010 does to such a database: every stored message waits for its headers.
            try await DatabaseQueue(path: path.path).write { db in
                try db.execute(
                    sql:
                        "INSERT INTO list_header_backfill (account_id, gmail_id) SELECT account_id, gmail_id FROM message"
                )
                // An imported message waits too, but Gmail has no such id: only an import can fill it.
                try db.execute(
                    sql: "INSERT INTO list_header_backfill (account_id, gmail_id) VALUES (?, 'imp-0123456789abcdef')",
                    arguments: [account.id])
            }
            await emulator.requestLog.clear()

            let report = try await makeEngine(emulator, store).run(account: account)
            #expect(report.mode == .incremental)
            // Nothing is downloaded again: four header reads (the rest is the hourly label check, minimal).
            let gets = await emulator.requestLog.all.filter { $0.gmailMethod == "messages.get" }
            #expect(gets.filter { $0.query.contains("format=metadata") }.count == 4)
            #expect(gets.allSatisfy { $0.query.contains("format=metadata") || $0.query.contains("format=minimal") })
            let left = try await store.write { tx in try tx.listHeaderBackfillIDs(in: account.id) }
            #expect(left == ["imp-0123456789abcdef"])
            // A second sync has nothing left to read.
            await emulator.requestLog.clear()
            _ = try await makeEngine(emulator, store).run(account: account)
            let again = await emulator.requestLog.all.filter { $0.query.contains("format=metadata") }
            #expect(again.isEmpty)
        }
        let fresh = try await Self.finalState { emulator, store, account, _ in
            for (raw, labels) in mailbox { _ = await emulator.mailbox.insert(raw: raw, labelNames: labels) }
            _ = try await makeEngine(emulator, store).run(account: account)
        }
        #expect(upgraded == fresh)
    }

    /// Syncs an empty emulator mailbox through `body` and dumps the store by content (not by row id).
    static func finalState(
        _ body: (RunningEmulator, ChatmailStore, Account, URL) async throws -> Void
    ) async throws -> [String] {
        var state: [String] = []
        try await withSyncSetup(mailbox: .messages([])) { emulator, store, account, path in
            try await body(emulator, store, account, path)
            state = try await DatabaseQueue(path: path.path).read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT 'conversation ' || c.title || ' ' || c.message_count || ' ' || c.unread_count || ' '
                            || c.participant_hash || ' ' || (SELECT group_concat(m.subject, '|') FROM
                                (SELECT subject FROM message WHERE conversation_id = c.id ORDER BY subject) m)
                        FROM conversation c
                        UNION ALL
                        SELECT 'list ' || list_id || ' ' || coalesce(name, '-') || ' ' || coalesce(post_address, '-')
                            || ' ' || is_read_only || ' ' || first_seen_ms || ' ' || last_seen_ms
                        FROM mailing_list
                        UNION ALL
                        SELECT 'post ' || list_id || ' ' || address_normalized FROM mailing_list_post_address
                        ORDER BY 1
                        """)
            }
        }
        return state
    }
}

@Suite struct MailingListImportTests {
    @Test("importing again gives messages imported before schema 010 their list headers; sync never asks Gmail")
    func reimportBackfills() async throws {
        let raws = [
            RawMailboxMessage(bytes: MailingListSyncTests.myPost, origin: "mine.eml"),
            RawMailboxMessage(bytes: MailingListSyncTests.aliceReply, origin: "reply.eml"),
        ]
        try await withImportStore { store, path, account in
            // What an older chatmail imported: the same ids and text, no list data.
            let old = raws.compactMap { raw -> MessageInput? in
                guard
                    case .message(var input) = MailboxImporter.prepare(
                        raw, pipeline: TextPipeline(), aliases: ["me@example.org"])
                else { return nil }
                (input.mailingList, input.listPosting, input.replyTo, input.mailFollowupTo) = (nil, nil, nil, nil)
                return input
            }
            let before = try await store.write { tx in
                let stored = try old.map { try tx.upsert($0, in: account) }
                try tx.recomputeRollups(for: Set(stored.flatMap(\.affectedConversations)))
                return Set(stored.map(\.conversationID))
            }
            #expect(before.count == 2)
            try await DatabaseQueue(path: path.path).write { db in
                try db.execute(
                    sql:
                        "INSERT INTO list_header_backfill (account_id, gmail_id) SELECT account_id, gmail_id FROM message"
                )
            }

            let report = try await MailboxImporter(store: store).run(raws, into: account)
            #expect(report.inserted == 0)
            let conversations = try store.conversations(in: account, filter: .init(visibility: .all))
            #expect(conversations.map(\.title) == ["Dev talk"])
            #expect(conversations.first?.messageCount == 2)
            #expect(try await store.write { tx in try tx.listHeaderBackfillIDs(in: account) }.isEmpty)
        }
    }
}
