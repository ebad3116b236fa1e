import ChatmailStore
import Foundation
import GRDB
import GmailAPI
import Testing

@testable import ChatmailSync
@testable import GmailEmulator

/// `count` messages from Alice, all in the inbox.
func aliceInbox(_ count: Int) -> [(raw: [UInt8], labels: [String]?)] {
    (1...count).map { (rawMessage($0, from: "Alice <alice@example.com>"), ["INBOX"]) }
}

@Suite struct PendingActionFaultTests {
    @Test(
        "modify / batchModify failing with 503 for two syncs: attempts and next attempt grow, then the action is applied exactly once",
        arguments: [(3, "messages.modify"), (12, "messages.batchModify")])
    func transientFaults(count: Int, method: String) async throws {
        try await withQueueHarness(aliceInbox(count)) { harness in
            let ids = await harness.ids()
            let start = await harness.emulator.mailbox.currentHistoryId
            await harness.setFaults([FaultRule(method: method, probability: 1, kind: .unavailable)])
            _ = try await harness.perform(.archive, on: "alice")

            let t0 = harness.clock.now
            let first = try await harness.sync()
            #expect(first.pendingSent == 0)
            var action = try #require(try await harness.actions().first)
            #expect(action.status == .failed && action.attempts == 1)
            #expect(action.nextAttemptAtMs == t0 + 2_000)
            #expect(action.lastError?.contains("503") == true)

            // Not due yet: a run sends nothing and never sleeps.
            harness.clock.advance(ms: 1_000)
            let tried = await harness.attempts(method)
            _ = try await harness.sync()
            #expect(await harness.attempts(method) == tried)
            #expect(try await harness.actions().first?.attempts == 1)

            harness.clock.advance(ms: 1_500)
            _ = try await harness.sync()
            action = try #require(try await harness.actions().first)
            #expect(action.status == .failed && action.attempts == 2)
            #expect(action.nextAttemptAtMs == harness.clock.now + 4_000)
            // Meanwhile local state stays what the user did.
            #expect(try await harness.localLabels().values.allSatisfy { !$0.contains("INBOX") })

            await harness.setFaults([])
            harness.clock.advance(ms: 4_000)
            let last = try await harness.sync()
            #expect(last.pendingSent == 1)
            action = try #require(try await harness.actions().first)
            #expect(action.status == .completed && action.attempts == 3 && action.lastError == nil)
            #expect(await harness.serverLabels().values.allSatisfy { !$0.contains("INBOX") })
            // Exactly once: one accepted request per message (modify) or one for all (batchModify), and
            // exactly one INBOX removal per message in Gmail's history.
            let accepted = await harness.successes(method)
            #expect(accepted.count == (count < PendingActionSender.batchThreshold ? count : 1))
            let history = try await harness.labelHistory(after: start)
            #expect(history.count == count)
            #expect(Set(history.map(\.id)) == Set(ids) && history.allSatisfy { $0.removed == ["INBOX"] })
            #expect(try await harness.localLabels() == (await harness.serverLabels()))
        }
    }

    @Test("a transient failure on the fifth attempt abandons the action and gives the messages Gmail's labels back")
    func fiveAttempts() async throws {
        try await withQueueHarness(aliceInbox(2)) { harness in
            await harness.setFaults([FaultRule(method: "messages.modify", probability: 1, kind: .backendError)])
            _ = try await harness.perform(.archive, on: "alice")
            for _ in 1...5 {
                _ = try await harness.sync()
                harness.clock.advance(ms: 600_000)
            }
            let action = try #require(try await harness.actions().first)
            #expect(action.status == .abandoned && action.attempts == 5)
            #expect(action.lastError?.hasPrefix("Gave up after 5 attempts.") == true)
            #expect(try await harness.localLabels().values.allSatisfy { $0 == ["INBOX"] })
            // back in the inbox
            #expect(try harness.store.conversations(in: harness.account.id, filter: .init()).count == 1)
        }
    }

    @Test(
        "permanent 403 insufficientPermissions: abandoned at once with the reason, labels restored from Gmail; retry requeues it"
    )
    func permanentForbidden() async throws {
        try await withQueueHarness(castMessages) { harness in
            let before = await harness.serverLabels()
            await harness.setFaults([FaultRule(method: "messages.modify", probability: 1, kind: .insufficientScope)])
            _ = try await harness.perform(.archive, on: "alice")
            let report = try await harness.sync()
            // No mail changed in Gmail, but restoring Alice's labels changed her conversation locally.
            #expect(report.conversationsUpdated == 1 && report.labelChanges == 0)
            var action = try #require(try await harness.actions().first)
            #expect(action.status == .abandoned && action.attempts == 1)
            #expect(action.lastError?.contains("insufficientPermissions") == true)
            #expect(await harness.attempts("messages.modify") == 1)  // never retried
            #expect(try await harness.localLabels() == before)
            #expect(await harness.serverLabels() == before)
            // Conflict protection is released: a remote change now reaches the local copy.
            let ids = await harness.ids()
            _ = try await harness.emulator.mailbox.modify(ids[2], add: ["STARRED"], remove: [])
            _ = try await harness.sync()
            #expect(try await harness.localLabels()[ids[2]] == ["INBOX", "STARRED"])

            let requeued = try await harness.queue.retry(.all, account: harness.account.id)
            #expect(requeued.map(\.id) == [action.id])
            action = try #require(try await harness.actions().first)
            #expect(action.status == .pending && action.attempts == 0)
            #expect(action.lastError?.contains("insufficientPermissions") == true)  // why it failed before
            #expect(try await harness.localLabels()[ids[2]] == ["STARRED"])  // applied locally again
            await harness.setFaults([])
            _ = try await harness.sync()
            #expect(try await harness.actions().first?.status == .completed)
            #expect(await harness.serverLabels()[ids[2]] == ["STARRED"])
            #expect(await harness.serverLabels()[ids[1]] == ["STARRED"])
        }
    }

    @Test("400 is permanent too; dismissing an abandoned action drops it and keeps Gmail's labels")
    func badRequestAndDismiss() async throws {
        try await withQueueHarness(castMessages) { harness in
            let before = await harness.serverLabels()
            await harness.setFaults([FaultRule(method: "messages.modify", probability: 1, kind: .invalidArgument)])
            _ = try await harness.perform(.star, on: "alice")
            let summary = try await harness.sender.run(account: harness.account.id)
            #expect(summary.abandoned == 1 && summary.sent == 0)
            #expect(try await harness.actions().first?.lastError?.contains("invalid") == true)
            let dropped = try await harness.queue.dismiss(.all, account: harness.account.id)
            #expect(dropped.count == 1)
            _ = try await harness.sender.recheckLabels(account: harness.account.id)
            #expect(try await harness.actions().isEmpty)
            #expect(try await harness.localLabels() == before)
            #expect(try harness.store.labelRecheckCount(of: harness.account.id) == 0)
        }
    }

    @Test("opposite actions coalesce: read then unread, archive then unarchive → nothing reaches Gmail")
    func coalescing() async throws {
        try await withQueueHarness(castMessages) { harness in
            let before = await harness.serverLabels()
            let first = await harness.ids()[0]
            _ = try await harness.queue.perform(.read, on: .message(gmailID: first), account: harness.account.id)
            let undo = try await harness.queue.perform(
                .unread, on: .message(gmailID: first), account: harness.account.id)
            #expect(undo.action == nil && undo.cancelled == 1 && undo.messagesChanged == 1)
            #expect(try await harness.actions().isEmpty)
            _ = try await harness.perform(.archive, on: "alice")
            let unarchive = try await harness.perform(.unarchive, on: "alice")
            // unarchive also puts back the message that was archived before: only that one is sent.
            #expect(unarchive.cancelled == 2 && unarchive.action?.targetIDs == [first])
            #expect(try await harness.actions().count == 1)
            let report = try await harness.sync()
            #expect(report.pendingSent == 1)
            #expect(await harness.successes("messages.modify").count == 1)
            var expected = before
            expected[first]?.insert("INBOX")
            #expect(await harness.serverLabels() == expected)
            #expect(try await harness.localLabels() == expected)
        }
    }

    @Test(
        "undo after a failed send: Gmail may have applied the first action without answering, so the undo is sent, not cancelled"
    )
    func undoAfterFailedSend() async throws {
        try await withQueueHarness(castMessages) { harness in
            let first = await harness.ids()[0]  // unread, archived
            await harness.setFaults([FaultRule(method: "messages.modify", probability: 1, kind: .unavailable)])
            _ = try await harness.queue.perform(.read, on: .message(gmailID: first), account: harness.account.id)
            let summary = try await harness.sender.run(account: harness.account.id)
            #expect(summary.failed == 1)
            // What a lost answer looks like: Gmail applied the change, the client saw only an error.
            _ = try await harness.emulator.mailbox.modify(first, add: [], remove: ["UNREAD"])

            let undo = try await harness.queue.perform(
                .unread, on: .message(gmailID: first), account: harness.account.id)
            #expect(undo.cancelled == 0 && undo.action?.targetIDs == [first])
            #expect(try await harness.localLabels()[first] == ["UNREAD"])

            await harness.setFaults([])
            harness.clock.advance(ms: 10_000)
            let report = try await harness.sync()
            #expect(report.pendingSent == 2)
            #expect(await harness.serverLabels()[first] == ["UNREAD"])  // the user's last word
            #expect(try await harness.localLabels()[first] == ["UNREAD"])
        }
    }

    @Test(
        "retrying an old action keeps its place in the queue: a later action on the same message still wins, locally at once and on Gmail"
    )
    func retryKeepsQueueOrder() async throws {
        try await withQueueHarness(castMessages) { harness in
            let first = await harness.ids()[0]  // unread, archived
            await harness.setFaults([FaultRule(method: "messages.modify", probability: 1, kind: .insufficientScope)])
            let read = try #require(
                try await harness.queue.perform(.read, on: .message(gmailID: first), account: harness.account.id).action
            )
            _ = try await harness.sender.run(account: harness.account.id)
            #expect(try await harness.actions().first?.status == .abandoned)
            #expect(try await harness.localLabels()[first] == ["UNREAD"])  // Gmail's labels again

            // Read elsewhere; then the user marks it unread here (a new action, queued after the read).
            _ = try await harness.emulator.mailbox.modify(first, add: [], remove: ["UNREAD"])
            _ = try await harness.sync()
            #expect(try await harness.localLabels()[first] == [])
            let unread = try #require(
                try await harness.queue.perform(.unread, on: .message(gmailID: first), account: harness.account.id)
                    .action)
            #expect(unread.id > read.id)

            _ = try await harness.queue.retry(.one(read.id), account: harness.account.id)
            // Queue order is read, then unread: Gmail will end unread, so the local copy shows it already.
            #expect(try await harness.localLabels()[first] == ["UNREAD"])
            await harness.setFaults([])
            let report = try await harness.sync()
            #expect(report.pendingSent == 2)
            #expect(await harness.serverLabels()[first] == ["UNREAD"])
            #expect(try await harness.localLabels()[first] == ["UNREAD"])
        }
    }

    @Test(
        "offline: Gmail unreachable for many runs never abandons an action or rolls it back; one try per run; sent once back online"
    )
    func offline() async throws {
        try await withQueueHarness(castMessages) { harness in
            let before = await harness.serverLabels()
            let offline = PendingActionSender(
                store: harness.store,
                gmail: GmailClient(
                    configuration: .init(baseURL: URL(string: "http://127.0.0.1:1")!), transport: URLSessionTransport(),
                    tokens: StaticTokenSource(token: "emu-static-token"), pacer: QuotaPacer.unlimited()),
                clock: harness.clock.clock, random: FixedRandom(fraction: 0.5))
            _ = try await harness.perform(.archive, on: "alice")
            _ = try await harness.perform(.read, on: "bob")
            let archived = try await harness.localLabels()
            for _ in 1...7 {
                let summary = try await offline.run(account: harness.account.id)
                #expect(summary.failed == 1 && summary.waiting == 1 && summary.abandoned == 0)
                harness.clock.advance(ms: 600_000)
            }
            let actions = try await harness.actions()
            #expect(actions.map(\.status) == [.failed, .pending])  // the second was never tried
            #expect(actions[0].attempts == 0 && actions[0].lastError?.contains("Could not reach Gmail") == true)
            #expect(actions[0].mayHaveReachedGmail)
            #expect(try await harness.localLabels() == archived)  // nothing rolled back
            #expect(await harness.serverLabels() == before)

            let report = try await harness.sync()
            #expect(report.pendingSent == 2)
            #expect(try await harness.actions().map(\.status) == [.completed, .completed])
            #expect(await harness.serverLabels() == archived)
        }
    }

    @Test(
        "an action whose request always drops the connection waits longer and longer, so the actions behind it still go out"
    )
    func droppedConnectionDoesNotStarve() async throws {
        try await withQueueHarness(
            aliceInbox(12) + [(rawMessage(13, from: "Bob <bob@example.net>"), ["INBOX", "UNREAD"])]
        ) { harness in
            await harness.setFaults([FaultRule(method: "messages.batchModify", probability: 1, kind: .drop)])
            let archive = try #require(try await harness.perform(.archive, on: "alice").action)  // 12 ids: batchModify
            let read = try #require(try await harness.perform(.read, on: "bob").action)  // 1 id: modify
            #expect(archive.id < read.id)
            var runs: [PendingActionSender.Summary] = []
            for _ in 1...5 {
                runs.append(try await harness.sender.run(account: harness.account.id))
                harness.clock.advance(ms: 60_000)
            }
            // Ages 0, 60, 120, 180 s: the archive is due and breaks the run; waits 2, 30, 60, 90 s. At 240 s
            // it is not due (180 + 90), so the read behind it is sent.
            #expect(runs.map(\.sent) == [0, 0, 0, 0, 1])
            #expect(runs.prefix(4).allSatisfy { $0.unreachable != nil && $0.waiting == 1 })
            #expect(runs[4].unreachable == nil && runs[4].waiting == 1)
            let actions = try await harness.actions()
            #expect(actions.map(\.status) == [.failed, .completed])
            #expect(actions[0].attempts == 0 && actions[0].mayHaveReachedGmail)
        }
    }
}
