import ChatmailStore
import Foundation
import GRDB
import GmailAPI
import GmailEmulator
import MailText
import Testing

@testable import ChatmailSync

/// An emulator on port 0 and a fresh store, both torn down whatever happens.
func withSyncSetup(
    mailbox: EmulatorConfiguration.MailboxSource, account email: String = "me@example.org", aliases: [String] = [],
    _ body: (RunningEmulator, ChatmailStore, Account, URL) async throws -> Void
) async throws {
    var configuration = EmulatorConfiguration()
    configuration.mailbox = mailbox
    configuration.account = email
    configuration.aliases = aliases
    let emulator = try await EmulatorServer.start(configuration)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-sync-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
    do {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("chatmail.sqlite")
        let store = try ChatmailStore(path: path.path, subjectBase: ReplySubject.topicBase)
        let account = try await store.write { tx in try tx.ensureAccount(email: email) }
        let stored = try #require(try store.accounts().first { $0.id == account })
        try await body(emulator, store, stored, path)
    } catch {
        await emulator.shutdown()
        throw error
    }
    await emulator.shutdown()
}

/// A Gmail client for the in-process emulator: real sockets, the emulator's static token, no pacing.
func emulatorClient(_ emulator: RunningEmulator) -> GmailClient {
    GmailClient(
        configuration: .init(baseURL: URL(string: emulator.baseURL)!), transport: URLSessionTransport(),
        tokens: StaticTokenSource(token: "emu-static-token"), pacer: QuotaPacer.unlimited())
}

/// A fresh engine (and tracker) per run, so each run's changed conversations can be asserted.
func makeEngine(_ emulator: RunningEmulator, _ store: ChatmailStore, reconcileEveryMs: Int64 = .max) -> SyncEngine {
    SyncEngine(store: store, gmail: emulatorClient(emulator), chunkSize: 7, reconcileEveryMs: reconcileEveryMs)
}

func rawMessage(
    _ id: Int, from: String, to: String = "me@example.org", cc: String? = nil, subject: String = "Hello",
    body: String = "Hi there"
) -> [UInt8] {
    var lines = ["From: \(from)", "To: \(to)"]
    if let cc { lines.append("Cc: \(cc)") }
    lines += [
        "Subject: \(subject) \(id)", "Date: Tue, \(id % 28 + 1) Mar 2025 10:00:00 +0000",
        "Message-ID: <m\(id)@example.org>", "", body + " \(id)",
    ]
    return Array(lines.joined(separator: "\r\n").utf8)
}

@Suite struct SyncEngineTests {
    static let demoMailbox = repositoryRoot.appendingPathComponent("Fixtures/demo-mailbox")

    @Test("an initial sync of the demo mailbox matches an independent computation of conversations, counts and unread")
    func initialSyncMatchesIndependentComputation() async throws {
        let me = try String(contentsOf: Self.demoMailbox.appendingPathComponent("ME"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try await withSyncSetup(mailbox: .path(Self.demoMailbox.path), account: me) { emulator, store, account, path in
            let report = try await makeEngine(emulator, store).run(account: account)
            #expect(report.mode == .initial)

            // Independently: group the emulator's messages by list (List-Id, or my post to a list's
            // posting address) or else by participant set, count and unread them.
            let all = await emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 10_000).page
            let visible = all.filter { !$0.labelIds.contains("SPAM") && !$0.labelIds.contains("TRASH") }
            let meKey = EmailNormalizer.identityKey(for: me)
            var postingLists: [String: String] = [:]
            for message in all {
                let headers = HeaderBlock.parse(message.raw[...]).fields
                if let list = headers.first("List-Id").flatMap(ListHeaders.mailingList),
                    case .address(let post) = headers.first("List-Post").flatMap(ListHeaders.posting)
                {
                    postingLists[EmailNormalizer.identityKey(for: post.address)] = list.id
                }
            }
            var groups: [Set<String>: (count: Int, unread: Int)] = [:]
            for message in visible {
                let headers = HeaderBlock.parse(message.raw[...]).fields
                let people = ["From", "To", "Cc"].flatMap { headers.all($0).flatMap(AddressListParser.parse) }
                var keys = Set(
                    people.map { EmailNormalizer.identityKey(for: $0.address) }.filter { $0 != meKey && !$0.isEmpty })
                let from = headers.first("From").flatMap { AddressListParser.parse($0).first }
                let recipients = ["To", "Cc"].flatMap { headers.all($0).flatMap(AddressListParser.parse) }
                if let list = headers.first("List-Id").flatMap(ListHeaders.mailingList) {
                    keys = ["list " + list.id]
                } else if from.map({ EmailNormalizer.identityKey(for: $0.address) }) == meKey,
                    let list = recipients.lazy.compactMap({ postingLists[EmailNormalizer.identityKey(for: $0.address)] }
                    )
                    .first
                {
                    keys = ["list " + list]
                }
                let unread = message.labelIds.contains("UNREAD") && message.labelIds.contains("INBOX") ? 1 : 0
                groups[keys, default: (0, 0)].count += 1
                groups[keys, default: (0, 0)].unread += unread
            }
            let conversations = try store.conversations(in: account.id, filter: .init(visibility: .all))
            #expect(report.messagesAdded == visible.count)
            #expect(conversations.count == groups.count)
            #expect(groups.keys.contains { $0.first?.hasPrefix("list ") == true })
            let listOf = try await DatabaseQueue(path: path.path).read { db in
                try Dictionary(
                    uniqueKeysWithValues: Row.fetchAll(
                        db, sql: "SELECT id, list_id FROM conversation WHERE list_id IS NOT NULL"
                    ).map { (ConversationID(rawValue: $0["id"]), $0["list_id"] as String) })
            }
            var actual: [Set<String>: (count: Int, unread: Int)] = [:]
            for conversation in conversations {
                let keys =
                    listOf[conversation.id].map { ["list " + $0] }
                    ?? Set(
                        conversation.participants.map(\.normalizedAddress))
                actual[keys] = (conversation.messageCount, conversation.unreadCount)
            }
            for (keys, expected) in groups {
                #expect(actual[keys]?.count == expected.count, "\(keys)")
                #expect(actual[keys]?.unread == expected.unread, "\(keys)")
            }
            #expect(await makeEngine(emulator, store).tracker.changed.isEmpty)
            let status = try store.status(of: try #require(try store.accounts().first))
            #expect(status.account.historyID != nil)
        }
    }

    @Test("incremental sync applies every kind of remote change, and only touched conversations are recomputed")
    func incrementalChanges() async throws {
        let seeded: [([UInt8], [String]?)] = [
            (rawMessage(1, from: "Alice <alice@example.com>"), ["INBOX", "UNREAD"]),
            (rawMessage(2, from: "Alice <alice@example.com>"), ["INBOX"]),
            (rawMessage(3, from: "Bob <bob@example.com>"), ["INBOX", "UNREAD"]),
            (rawMessage(4, from: "Carol <carol@example.com>"), ["INBOX"]),
            (rawMessage(5, from: "Dave <dave@example.com>"), ["INBOX"]),
            (rawMessage(6, from: "Erin <erin@example.com>"), ["SPAM"]),  // never stored by the initial sync
            (rawMessage(7, from: "Frank <frank@example.com>"), ["INBOX"]),
        ]
        try await withSyncSetup(mailbox: .messages(seeded)) { emulator, store, account, _ in
            _ = try await makeEngine(emulator, store).run(account: account)
            let ids = await emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 100).page
            func id(_ number: Int) -> String {
                ids.first { String(decoding: $0.raw, as: UTF8.self).contains("<m\(number)@") }!.id
            }
            let conversationOf = { (gmailID: String) throws -> ConversationID? in
                try store.write { tx in try tx.messageRows(forGmailIDs: [gmailID], in: account.id).first?.conversation }
            }
            let alice = try #require(try conversationOf(id(1)))
            let bob = try #require(try conversationOf(id(3)))
            let carol = try #require(try conversationOf(id(4)))
            let dave = try #require(try conversationOf(id(5)))
            let untouched = try #require(try conversationOf(id(7)))
            #expect(try conversationOf(id(6)) == nil)

            // Remote changes: new mail to an existing and a new person, read, archive, star, trash,
            // permanent delete, and Erin's message moved out of spam.
            _ = await emulator.mailbox.insert(
                raw: rawMessage(8, from: "Alice <alice@example.com>"), labelNames: ["INBOX", "UNREAD"])
            _ = await emulator.mailbox.insert(
                raw: rawMessage(9, from: "Grace <grace@example.com>"), labelNames: ["INBOX"])
            _ = try await emulator.mailbox.modify(id(3), add: [], remove: ["UNREAD"])
            _ = try await emulator.mailbox.modify(id(4), add: [], remove: ["INBOX"])
            _ = try await emulator.mailbox.modify(id(2), add: ["STARRED"], remove: [])
            _ = try await emulator.mailbox.trash(id(5))
            try await emulator.mailbox.delete(id(1))
            _ = try await emulator.mailbox.modify(id(6), add: ["INBOX"], remove: ["SPAM"])

            let engine = makeEngine(emulator, store)
            let report = try await engine.run(account: account)
            #expect(report.mode == .incremental)
            #expect(report.messagesAdded == 3)  // 8, 9 and Erin's 6
            #expect(report.messagesDeleted == 1)
            let changed = await engine.tracker.changed
            #expect(changed.isSuperset(of: [alice, bob, carol, dave]))
            #expect(!changed.contains(untouched))
            #expect(changed.count == 6)  // alice, bob, carol, dave, grace, erin

            // The store now agrees with Gmail, message by message.
            let remote = await emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 100).page
            let local = try await store.write { tx in try tx.labelIDs(ofMessages: remote.map(\.id), in: account.id) }
            for message in remote {
                #expect(local[message.id] == Set(message.labelIds), "message \(message.id)")
            }
            #expect(local[id(1)] == nil)
            #expect(try store.conversation(bob)?.unreadCount == 0)
            #expect(try store.conversation(carol)?.isArchived == true)
            #expect(try store.conversation(dave)?.messageCount == 0)  // trashed
            #expect(try store.conversation(alice)?.messageCount == 2)
        }
    }

    @Test("expired history recovers by listing again: no stored message is downloaded in full again")
    func recoveryDownloadsOnlyUnknownMessages() async throws {
        let seeded = (1...12).map {
            (rawMessage($0, from: "P\($0 % 4) <p\($0 % 4)@example.com>"), ["INBOX"] as [String]?)
        }
        try await withSyncSetup(mailbox: .messages(seeded)) { emulator, store, account, _ in
            _ = try await makeEngine(emulator, store).run(account: account)
            let stored = await emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 100).page.map(\.id)
            let fresh = await emulator.mailbox.insert(
                raw: rawMessage(13, from: "New <new@example.com>"), labelNames: ["INBOX"])
            _ = try await emulator.mailbox.modify(stored[0], add: ["STARRED"], remove: [])
            await emulator.mailbox.expireHistory(before: nil)
            await emulator.requestLog.clear()

            let report = try await makeEngine(emulator, store).run(account: account)
            #expect(report.mode == .recovery)
            let fullFetches = await emulator.requestLog.all.filter {
                $0.gmailMethod == "messages.get" && $0.query.contains("format=full")
            }
            #expect(fullFetches.count == 1)
            #expect(fullFetches.allSatisfy { $0.path.hasSuffix(fresh.id) })
            let labels = try await store.write { tx in
                try tx.labelIDs(ofMessages: [stored[0], fresh.id], in: account.id)
            }
            #expect(labels[stored[0]]?.contains("STARRED") == true)
            #expect(labels[fresh.id] == ["INBOX"])
        }
    }

    @Test("a message sent from an alias does not create a conversation that contains yourself")
    func aliases() async throws {
        let seeded: [([UInt8], [String]?)] = [
            (rawMessage(1, from: "Alice <alice@example.com>", to: "Me at work <me.work@example.net>"), ["INBOX"]),
            (
                rawMessage(
                    2, from: "Me at work <me.work@example.net>", to: "Alice <alice@example.com>", cc: "me@example.org"),
                ["SENT"]
            ),
            (rawMessage(3, from: "me@example.org", to: "Alice <alice@example.com>"), ["SENT"]),
        ]
        try await withSyncSetup(mailbox: .messages(seeded), aliases: ["me.work@example.net"]) {
            emulator, store, account, _ in
            _ = try await makeEngine(emulator, store).run(account: account)
            let conversations = try store.conversations(in: account.id, filter: .init(visibility: .all))
            #expect(conversations.count == 1)
            #expect(conversations.first?.participants.map(\.address) == ["alice@example.com"])
            #expect(conversations.first?.messageCount == 3)
        }
    }

    @Test("a message with a pending action keeps its local labels while the action is pending")
    func conflictProtection() async throws {
        let seeded = [(rawMessage(1, from: "Alice <alice@example.com>"), ["INBOX", "UNREAD"] as [String]?)]
        try await withSyncSetup(mailbox: .messages(seeded)) { emulator, store, account, path in
            _ = try await makeEngine(emulator, store).run(account: account)
            let id = await emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 10).page[0].id
            // The user marked it read locally; the action failed once and waits to be retried (not due).
            _ = try await store.write { tx in
                try tx.modifyLabels(adding: [], removing: ["UNREAD"], onMessages: [id], in: account.id)
            }
            try await DatabaseQueue(path: path.path).write { db in
                try db.execute(
                    sql: """
                        INSERT INTO pending_action (account_id, kind, target_message_ids, remove_labels, status, next_attempt_at_ms, created_at_ms, updated_at_ms)
                        VALUES (?, 'read', ?, '["UNREAD"]', 'failed', 9223372036854775807, 0, 0)
                        """,
                    arguments: [account.id, "[\"\(id)\"]"])
            }
            _ = try await emulator.mailbox.modify(id, add: ["STARRED"], remove: [])  // a server change meanwhile
            _ = try await makeEngine(emulator, store).run(account: account)
            let labels = try await store.write { tx in try tx.labelIDs(ofMessages: [id], in: account.id) }
            #expect(labels[id] == ["INBOX"])  // still read locally; STARRED waits for the action to finish
        }
    }
}
