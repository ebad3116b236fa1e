import ChatmailStore
import Foundation
import GRDB
import GmailAPI
import GmailEmulator
import Synchronization
import Testing

@testable import ChatmailSync

/// Rollups are recomputed for exactly the conversations reported to the ModificationTracker.
///
/// Each test first spoils every conversation's rollups with values no recompute produces; afterwards the
/// conversations whose rollups were rewritten are exactly those a reporter named, and their rollups equal
/// what a full recompute gives.
@Suite struct ModificationTrackerTests {
    static let people: [(raw: [UInt8], labels: [String]?)] = [
        (rawMessage(1, from: "Alice <alice@example.com>"), ["INBOX", "UNREAD"]),
        (rawMessage(2, from: "Alice <alice@example.com>"), ["INBOX"]),
        (rawMessage(3, from: "Bob <bob@example.net>"), ["INBOX", "UNREAD"]),
        (rawMessage(4, from: "Carol <carol@example.org>"), ["INBOX"]),
    ]
    static let spoiled = "spoiled by the test"

    /// Gives every conversation rollups that no recompute produces.
    func spoilRollups(_ harness: QueueHarness) throws {
        try DatabaseQueue(path: harness.path.path).write { db in
            try db.execute(
                sql: "UPDATE conversation SET snippet = ?, unread_count = 99, message_count = 99",
                arguments: [Self.spoiled])
        }
    }

    /// The conversations whose rollups were rewritten since ``spoilRollups(_:)``.
    func recomputed(_ harness: QueueHarness) throws -> Set<ConversationID> {
        try DatabaseQueue(path: harness.path.path).read { db in
            Set(
                try Int64.fetchAll(db, sql: "SELECT id FROM conversation WHERE snippet <> ?", arguments: [Self.spoiled])
                    .map(ConversationID.init(rawValue:)))
        }
    }

    /// The rollup columns of `conversations`.
    func rollups(_ harness: QueueHarness, _ conversations: Set<ConversationID>) throws -> [String] {
        try DatabaseQueue(path: harness.path.path).read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, title, snippet, message_count, unread_count, has_inbox, archived_at_ms IS NULL, last_message_at_ms
                    FROM conversation WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id
                    """, arguments: ["[" + conversations.map { String($0.rawValue) }.joined(separator: ",") + "]"]
            ).map(\.description)
        }
    }

    /// Asserts the recomputed rollups of `conversations` match a full recompute of them.
    func expectCorrect(_ harness: QueueHarness, _ conversations: Set<ConversationID>) async throws {
        let incremental = try rollups(harness, conversations)
        try await harness.store.write { tx in try tx.recomputeRollups(for: conversations) }
        #expect(try rollups(harness, conversations) == incremental)
        #expect(incremental.count == conversations.count)
    }

    @Test("a message the persister stores leads to its conversation's rollups, and no other's, being recomputed")
    func persisterReports() async throws {
        try await withQueueHarness(Self.people) { harness in
            let alice = try harness.conversation("alice")
            try spoilRollups(harness)
            _ = await harness.emulator.mailbox.insert(
                raw: rawMessage(5, from: "Alice <alice@example.com>"), labelNames: ["INBOX", "UNREAD"])

            let tracker = ModificationTracker()
            let engine = SyncEngine(
                store: harness.store, gmail: harness.client, tracker: tracker, reconcileEveryMs: .max)
            let report = try await engine.run(account: harness.account)
            #expect(report.messagesAdded == 1)
            #expect(await tracker.changed == [alice])
            #expect(await tracker.staleConversations.isEmpty)
            #expect(try recomputed(harness) == [alice])
            try await expectCorrect(harness, [alice])
            let summary = try #require(
                try harness.store.conversations(in: harness.account.id, filter: ConversationFilter()).first {
                    $0.id == alice
                })
            #expect(summary.messageCount == 3)
            #expect(summary.unreadCount == 2)
        }
    }

    @Test("a label change the history processor applies leads to exactly its conversation's rollups being recomputed")
    func historyProcessorReports() async throws {
        try await withQueueHarness(Self.people) { harness in
            let bob = try harness.conversation("bob")
            let ids = await harness.ids()
            try spoilRollups(harness)
            // Bob's, read and archived
            _ = try await harness.emulator.mailbox.modify(ids[2], add: [], remove: ["UNREAD", "INBOX"])

            let tracker = ModificationTracker()
            let engine = SyncEngine(
                store: harness.store, gmail: harness.client, tracker: tracker, reconcileEveryMs: .max)
            let report = try await engine.run(account: harness.account)
            #expect(report.messagesAdded == 0, "nothing to download: the persister reports nothing")
            #expect(report.labelChanges > 0)
            #expect(await tracker.changed == [bob])
            #expect(try recomputed(harness) == [bob])
            try await expectCorrect(harness, [bob])
            let summary = try #require(
                try harness.store.conversations(in: harness.account.id, filter: .init(visibility: .all)).first {
                    $0.id == bob
                })
            #expect(summary.unreadCount == 0)
            #expect(summary.archivedAtMs != nil)
        }
    }

    @Test(
        "labels the pending-action sender takes from Gmail lead to exactly that conversation's rollups being recomputed"
    )
    func pendingActionSenderReports() async throws {
        try await withQueueHarness(Self.people) { harness in
            let carol = try harness.conversation("carol")
            let ids = await harness.ids()
            _ = try await harness.perform(.archive, on: "carol")
            // Starred in Gmail meanwhile: the archive's answer carries a label the local copy lacks.
            _ = try await harness.emulator.mailbox.modify(ids[3], add: ["STARRED"], remove: [])
            try spoilRollups(harness)

            let tracker = ModificationTracker()
            let sender = PendingActionSender(
                store: harness.store, gmail: harness.client, clock: harness.clock.clock,
                random: FixedRandom(fraction: 0.5), tracker: tracker)
            let summary = try await sender.run(account: harness.account.id)
            #expect(summary.sent == 1)
            #expect(try await harness.localLabels()[ids[3]] == ["STARRED"])
            #expect(await tracker.changed == [carol])
            #expect(try recomputed(harness) == [carol])
            try await expectCorrect(harness, [carol])
        }
    }

    @Test(
        "deferred writes stay stale in the tracker until a recompute drains them; the next immediate write includes them"
    )
    func trackerDrainsWhatWasReported() async throws {
        try await withQueueHarness(Self.people) { harness in
            let (alice, bob, carol) = (
                try harness.conversation("alice"), try harness.conversation("bob"), try harness.conversation("carol")
            )
            let ids = await harness.ids()
            let account = harness.account.id
            let tracker = ModificationTracker()
            try spoilRollups(harness)

            try await tracker.write(in: harness.store, rollups: .deferred) { tx, modifications in
                modifications.report(
                    try tx.modifyLabels(adding: [], removing: ["UNREAD"], onMessages: [ids[0]], in: account))
            }
            #expect(await tracker.staleConversations == [alice])
            #expect(try recomputed(harness).isEmpty, "a deferred write commits no rollups")

            // A failed immediate write rolls back and leaves the debt where it was.
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await tracker.write(in: harness.store) { tx, modifications in
                    modifications.report(
                        try tx.modifyLabels(adding: ["STARRED"], removing: [], onMessages: [ids[3]], in: account))
                    throw Abort()
                }
            }
            #expect(await tracker.staleConversations == [alice])
            #expect(try recomputed(harness).isEmpty)

            // The next immediate write recomputes what it reports and what was stale, nothing else.
            try await tracker.write(in: harness.store) { tx, modifications in
                modifications.report(
                    try tx.modifyLabels(adding: ["STARRED"], removing: [], onMessages: [ids[2]], in: account))
            }
            #expect(await tracker.staleConversations.isEmpty)
            #expect(try recomputed(harness) == [alice, bob])
            #expect(await tracker.changed == [alice, bob])
            try await expectCorrect(harness, [alice, bob])

            // An explicit recompute drains deferred reports, and with an account repairs all of it.
            try await tracker.write(in: harness.store, rollups: .deferred) { tx, modifications in
                modifications.report(
                    try tx.modifyLabels(adding: ["UNREAD"], removing: [], onMessages: [ids[0]], in: account))
            }
            try spoilRollups(harness)
            try await tracker.recomputeStaleRollups(in: harness.store)
            #expect(await tracker.staleConversations.isEmpty)
            #expect(try recomputed(harness) == [alice])
            try await tracker.recomputeStaleRollups(in: harness.store, repairing: account)
            #expect(try recomputed(harness) == [alice, bob, carol])
            try await expectCorrect(harness, [alice, bob, carol])
        }
    }

    @Test("an initial sync defers rollups between marks, and the final pass leaves nothing stale")
    func initialSyncDefersRollups() async throws {
        try await withSyncSetup(mailbox: .messages(Self.people)) { emulator, store, account, path in
            // After each chunk commits: how many messages the conversations' rollups count.
            let counted = Mutex<[Int]>([])
            let tracker = ModificationTracker()
            var engine = SyncEngine(
                store: store, gmail: emulatorClient(emulator), tracker: tracker, chunkSize: 1, reconcileEveryMs: .max,
                progress: { progress in
                    guard progress.phase == "downloading",
                        let sum = try? DatabaseQueue(path: path.path).read({ db in
                            try Int.fetchOne(db, sql: "SELECT SUM(message_count) FROM conversation")
                        })
                    else { return }
                    counted.withLock { $0.append(sum) }
                })
            engine.rollupInterval = 2
            let report = try await engine.run(account: account)
            #expect(report.messagesAdded == 4)
            // Chunks 1 and 3 defer their rollups; chunks 2 and 4 reach the mark and settle everything stale.
            #expect(counted.withLock { $0 } == [0, 2, 2, 4])
            #expect(await tracker.changed.count == 3)
            #expect(await tracker.staleConversations.isEmpty)
            let conversations = try store.conversations(in: account.id, filter: ConversationFilter())
            #expect(conversations.map(\.messageCount).sorted() == [1, 1, 2])
        }
    }

    @Test(
        "a sync that dies with rollups deferred leaves them stale; the resumed run, with a fresh tracker, repairs them")
    func deferredRollupsRepairedOnResume() async throws {
        try await withSyncSetup(mailbox: .messages(Self.people)) { emulator, store, account, path in
            let listed = try await emulatorClient(emulator).listAllMessages().map(\.id)
            // The second chunk's message is refused with an expired token: the run stops after chunk 1 committed.
            await emulator.faults.set([
                FaultRule(method: "messages.get", probability: 1, kind: .unauthorized, messageId: listed[1])
            ])
            var dying = SyncEngine(store: store, gmail: emulatorClient(emulator), chunkSize: 1, reconcileEveryMs: .max)
            dying.rollupInterval = 3
            await #expect(throws: (any Error).self) { try await dying.run(account: account) }
            let afterDeath = try await DatabaseQueue(path: path.path).read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT SUM(message_count) FROM conversation") ?? -1
                )
            }
            #expect(afterDeath.0 == 1, "chunk 1 committed")
            #expect(afterDeath.1 == 0, "its rollups were deferred and never computed")
            #expect(await dying.tracker.staleConversations.count == 1)

            await emulator.faults.set([])
            let tracker = ModificationTracker()  // the dead run's memory is gone, as after kill -9
            var resumed = SyncEngine(
                store: store, gmail: emulatorClient(emulator), tracker: tracker, chunkSize: 1, reconcileEveryMs: .max)
            resumed.rollupInterval = 3
            let report = try await resumed.run(account: account)
            #expect(report.messagesAdded == 3)
            #expect(await tracker.staleConversations.isEmpty)
            let conversations = try store.conversations(in: account.id, filter: ConversationFilter())
            #expect(conversations.map(\.messageCount).sorted() == [1, 1, 2])
            let before = try await DatabaseQueue(path: path.path).read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM conversation ORDER BY id")
            }
            try await store.write { tx in try tx.recomputeRollups(for: try tx.conversationIDs(in: account.id)) }
            let after = try await DatabaseQueue(path: path.path).read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM conversation ORDER BY id")
            }
            #expect(before == after, "every rollup already matches a full recompute")
        }
    }
}
