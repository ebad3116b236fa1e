import ChatmailStore
import Foundation
import GmailEmulator
import Testing

@testable import ChatmailSync

/// Syncs and queue runs of one account are serialized by the sync layer itself: while any holder has
/// the account's lock, every writer is refused at once, and readers are not held up.
@Suite struct SyncLockTests {
    static let mailbox = EmulatorConfiguration.MailboxSource.messages(
        (1...5).map { (raw: rawMessage($0, from: "alice@example.com"), labels: nil) })

    @Test("while another holder has the lock, sync, queue runs and label re-reads are refused, and reads work")
    func secondWriterRefused() async throws {
        try await withSyncSetup(mailbox: Self.mailbox) { emulator, store, account, _ in
            let holder = try SyncLock(store: store, account: account.id)
            let engine = makeEngine(emulator, store)
            let sender = PendingActionSender(store: store, gmail: emulatorClient(emulator))

            await #expect(throws: SyncError.alreadyRunning) { try await engine.run(account: account) }
            await #expect(throws: SyncError.alreadyRunning) { try await sender.run(account: account.id) }
            await #expect(throws: SyncError.alreadyRunning) { try await sender.recheckLabels(account: account.id) }
            #expect(throws: SyncError.alreadyRunning) { try SyncLock(store: store, account: account.id) }
            #expect(try store.conversations(in: account.id, filter: ConversationFilter()).isEmpty, "nothing was synced")
            #expect(try store.status(of: account).messageCount == 0)

            holder.release()
            let report = try await engine.run(account: account)
            #expect(report.messagesAdded == 5)
            #expect(try store.conversations(in: account.id, filter: ConversationFilter()).count == 1)
        }
    }

    @Test("a run gives the lock back when it ends, also when it fails")
    func releasedAfterRuns() async throws {
        try await withSyncSetup(mailbox: Self.mailbox) { emulator, store, account, _ in
            _ = try await makeEngine(emulator, store).run(account: account)
            _ = try SyncLock(store: store, account: account.id)  // free again, and freed by deinit at once

            // A run that fails part-way gives the lock back all the same.
            let failing = SyncEngine(store: store, gmail: emulatorClient(emulator), pusher: FailingPusher())
            await #expect(throws: FailingPusher.Failure.self) { try await failing.run(account: account) }
            let again = try SyncLock(store: store, account: account.id)
            again.release()
        }
    }

    @Test("locks of different accounts are independent, and the file lives beside the database")
    func perAccount() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }  // best-effort cleanup
        let database = directory.appendingPathComponent("chatmail.sqlite").path
        let first = try SyncLock(forStoreAt: database, account: AccountID(rawValue: 1))
        let second = try SyncLock(forStoreAt: database, account: AccountID(rawValue: 2))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("sync-1.lock").path))
        #expect(throws: SyncError.alreadyRunning) {
            try SyncLock(forStoreAt: database, account: AccountID(rawValue: 1))
        }
        first.release()
        second.release()
    }
}

/// A queue push that always fails, to end a sync part-way.
struct FailingPusher: PendingActionPusher {
    struct Failure: Error {}
    func pushDue(account: AccountID) async throws -> Int { throw Failure() }
}
