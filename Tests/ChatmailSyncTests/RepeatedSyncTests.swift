import ChatmailStore
import Foundation
import GmailAPI
import Testing

@testable import ChatmailSync
@testable import GmailEmulator

/// What only shows over several runs of one engine: the periodic reconciliation (Gmail's history
/// occasionally misses a label change; re-reading recent messages' labels heals such drift within the
/// hour instead of leaving it for ever), and per-run change tracking.
@Suite struct RepeatedSyncTests {
    @Test("drift that history never reported is caught by reconciliation, and only when it is due")
    func driftHeals() async throws {
        let seeded: [([UInt8], [String]?)] = [
            (rawMessage(1, from: "Alice <alice@example.com>"), ["INBOX", "UNREAD"]),
            (rawMessage(2, from: "Bob <bob@example.com>"), ["INBOX"]),
        ]
        try await withSyncSetup(mailbox: .messages(seeded)) { emulator, store, account, _ in
            _ = try await makeEngine(emulator, store, reconcileEveryMs: .max).run(account: account)
            let remote = await emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 10).page
            let alice = try #require(remote.first { String(decoding: $0.raw, as: UTF8.self).contains("<m1@") }).id
            let bob = try #require(remote.first { String(decoding: $0.raw, as: UTF8.self).contains("<m2@") }).id
            let historyBefore = await emulator.mailbox.currentHistoryId

            // Alice's message is read and Bob's archived on the server, with no history record.
            try await emulator.mailbox.modifyWithoutHistory(alice, add: [], remove: ["UNREAD"])
            try await emulator.mailbox.modifyWithoutHistory(bob, add: ["STARRED"], remove: ["INBOX"])
            #expect(await emulator.mailbox.currentHistoryId == historyBefore)

            func localLabels() async throws -> [String: Set<String>] {
                try await store.write { tx in try tx.labelIDs(ofMessages: [alice, bob], in: account.id) }.mapValues(
                    Set.init)
            }
            // An incremental sync alone cannot see it: history is empty.
            let blind = try await makeEngine(emulator, store, reconcileEveryMs: .max).run(account: account)
            #expect(blind.labelChanges == 0)
            #expect(try await localLabels()[alice]?.contains("UNREAD") == true)

            // Reconciliation, once due, brings both messages back in line with Gmail.
            let healing = makeEngine(emulator, store, reconcileEveryMs: 0)
            let healed = try await healing.run(account: account)
            #expect(healed.labelChanges == 2)
            let labels = try await localLabels()
            #expect(labels[alice] == ["INBOX"])
            #expect(labels[bob] == ["STARRED"])
            let conversations = try store.conversations(in: account.id, filter: .init(visibility: .all))
            #expect(conversations.allSatisfy { $0.unreadCount == 0 })
            #expect(conversations.first { $0.title.hasPrefix("Bob") }?.isArchived == true)
            #expect(await healing.tracker.changed.count == 2)
        }
    }

    @Test("an engine reused across runs reports each run's changed conversations, not all since it was made")
    func trackerIsPerRun() async throws {
        let seeded: [([UInt8], [String]?)] = [
            (rawMessage(1, from: "Alice <alice@example.com>"), ["INBOX", "UNREAD"]),
            (rawMessage(2, from: "Bob <bob@example.com>"), ["INBOX"]),
            (rawMessage(3, from: "Carol <carol@example.com>"), ["INBOX"]),
        ]
        try await withSyncSetup(mailbox: .messages(seeded)) { emulator, store, account, _ in
            let engine = makeEngine(emulator, store)
            let initial = try await engine.run(account: account)
            #expect(initial.conversationsUpdated == 3)
            _ = await emulator.mailbox.insert(
                raw: rawMessage(4, from: "Alice <alice@example.com>"), labelNames: ["INBOX"])
            let incremental = try await engine.run(account: account)
            #expect(incremental.mode == .incremental)
            #expect(incremental.conversationsUpdated == 1)
            #expect(await engine.tracker.changed.count == 1)
        }
    }
}
