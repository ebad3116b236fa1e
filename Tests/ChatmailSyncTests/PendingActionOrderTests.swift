import ChatmailStore
import Foundation
import GRDB
import GmailAPI
import Testing

@testable import ChatmailSync
@testable import GmailEmulator

/// The queue against the emulator: large actions in chunks, remote changes while an action waits, ids
/// Gmail no longer has, a crash mid-send, and the order in which actions on the same messages reach Gmail.
@Suite struct PendingActionOrderTests {
    @Test("archiving 2,500 messages sends three batchModify chunks of at most 1000 ids")
    func chunks() async throws {
        try await withQueueHarness(aliceInbox(2_500)) { harness in
            let outcome = try await harness.perform(.archive, on: "alice")
            #expect(outcome.action?.targetIDs.count == 2_500)
            let report = try await harness.sync()
            #expect(report.pendingSent == 1)
            // The emulator answers 400 to more than 1000 ids, so three accepted calls are three chunks.
            #expect(await harness.successes("messages.batchModify").count == 3)
            #expect(await harness.attempts("messages.batchModify") == 3)
            #expect(await harness.serverLabels().values.allSatisfy { $0.isEmpty })
            #expect(try await harness.localLabels().values.allSatisfy { $0.isEmpty })
            #expect(try await harness.actions().first?.sentIDs.count == 2_500)
        }
    }

    @Test(
        "conflict: a remote label change while the action waits does not overwrite local state; after completion Gmail's state is re-read"
    )
    func conflict() async throws {
        try await withQueueHarness(castMessages) { harness in
            let ids = await harness.ids()
            await harness.setFaults([FaultRule(method: "messages.modify", probability: 1, kind: .unavailable)])
            _ = try await harness.perform(.star, on: "alice")  // stars ids[2]
            _ = try await harness.emulator.mailbox.modify(ids[2], add: ["UNREAD"], remove: ["INBOX"])  // elsewhere
            _ = try await harness.sync()  // push fails; the pull skips ids[2]'s labels
            #expect(try await harness.actions().first?.status == .failed)
            #expect(try await harness.localLabels()[ids[2]] == ["INBOX", "STARRED"])

            await harness.setFaults([])
            harness.clock.advance(ms: 10_000)
            _ = try await harness.sync()
            #expect(try await harness.actions().first?.status == .completed)
            #expect(await harness.serverLabels()[ids[2]] == ["UNREAD", "STARRED"])
            #expect(try await harness.localLabels()[ids[2]] == ["UNREAD", "STARRED"])
            let alice = try harness.store.conversations(in: harness.account.id, filter: .init(visibility: .all))
                .first { $0.participants.map(\.address) == ["alice@example.com"] }
            #expect(alice?.isArchived == false)  // ids[1] is still in the inbox
        }
    }

    @Test(
        "conflict on the batchModify path: the remote change is held off while the action waits, then re-read after it completes"
    )
    func conflictBatch() async throws {
        try await withQueueHarness(aliceInbox(12)) { harness in
            let ids = await harness.ids()
            await harness.setFaults([FaultRule(method: "messages.batchModify", probability: 1, kind: .unavailable)])
            #expect(try await harness.perform(.archive, on: "alice").action?.targetIDs.count == 12)
            _ = try await harness.emulator.mailbox.modify(ids[0], add: ["STARRED", "INBOX"], remove: [])  // elsewhere
            _ = try await harness.sync()
            #expect(try await harness.actions().first?.status == .failed)
            #expect(try await harness.localLabels()[ids[0]] == [])  // still what the user did here

            await harness.setFaults([])
            harness.clock.advance(ms: 10_000)
            let summary = try await harness.sender.run(account: harness.account.id)
            #expect(summary.sent == 1 && summary.rechecked == 12)  // batchModify answers nothing: re-read
            #expect(await harness.serverLabels()[ids[0]] == ["STARRED"])
            #expect(try await harness.localLabels() == (await harness.serverLabels()))
            #expect(try harness.store.labelRecheckCount(of: harness.account.id) == 0)
        }
    }

    @Test("a message deleted on Gmail (404) is dropped from the action, which completes; the store forgets it")
    func goneMessage() async throws {
        try await withQueueHarness(castMessages) { harness in
            let ids = await harness.ids()
            _ = try await harness.queue.perform(.read, on: .message(gmailID: ids[0]), account: harness.account.id)
            try await harness.emulator.mailbox.delete(ids[0])
            let summary = try await harness.sender.run(account: harness.account.id)
            #expect(summary.sent == 1)
            let action = try #require(try await harness.actions().first)
            #expect(action.status == .completed && action.targetIDs.isEmpty)
            #expect(try await harness.localLabels()[ids[0]] == nil)
        }
    }

    @Test("a crash mid-send: the processing action returns to pending, ids already accepted are not sent again")
    func crashRecovery() async throws {
        try await withQueueHarness(aliceInbox(3)) { harness in
            let ids = await harness.ids()
            let start = await harness.emulator.mailbox.currentHistoryId
            let action = try #require(try await harness.perform(.archive, on: "alice").action)
            // What a killed run leaves: claimed, one message accepted by Gmail and recorded, then nothing.
            _ = try await harness.emulator.mailbox.modify(action.targetIDs[0], add: [], remove: ["INBOX"])
            try await harness.store.write { tx in
                var claimed = action
                claimed.status = .processing
                claimed.attempts = 1
                claimed.sentIDs = [action.targetIDs[0]]
                try tx.savePendingAction(claimed)
            }
            let summary = try await harness.sender.run(account: harness.account.id)
            #expect(summary.sent == 1)
            let finished = try #require(try await harness.actions().first)
            #expect(finished.status == .completed && finished.attempts == 2)
            #expect(await harness.successes("messages.modify").count == 2)  // the two not yet sent
            let history = try await harness.labelHistory(after: start)
            #expect(history.count == 3 && Set(history.map(\.id)) == Set(ids))
            #expect(await harness.serverLabels().values.allSatisfy { $0.isEmpty })
        }
    }

    @Test("a later action on the same messages waits behind an earlier one that failed, so Gmail sees them in order")
    func ordering() async throws {
        try await withQueueHarness(castMessages) { harness in
            let ids = await harness.ids()
            await harness.setFaults([
                FaultRule(method: "messages.modify", probability: 1, kind: .unavailable, remaining: 1)
            ])
            _ = try await harness.queue.perform(.trash, on: .message(gmailID: ids[2]), account: harness.account.id)
            _ = try await harness.queue.perform(.star, on: .message(gmailID: ids[2]), account: harness.account.id)
            let summary = try await harness.sender.run(account: harness.account.id)
            #expect(summary.failed == 1 && summary.waiting == 1 && summary.sent == 0)
            harness.clock.advance(ms: 5_000)
            let second = try await harness.sender.run(account: harness.account.id)
            #expect(second.sent == 2)
            #expect(await harness.serverLabels()[ids[2]] == ["TRASH", "STARRED"])
        }
    }
}
