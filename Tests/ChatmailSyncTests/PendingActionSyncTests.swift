import ChatmailStore
import Foundation
import GRDB
import GmailAPI
import MailText
import Synchronization
import Testing

@testable import ChatmailSync
@testable import GmailEmulator

/// "Now" for a test, moved by hand: the queue's backoff is persisted, so tests jump over it.
final class TestClock: Sendable {
    private let value: Mutex<Int64>
    init(_ start: Int64 = 1_741_176_000_000) { value = Mutex(start) }
    var now: Int64 { value.withLock { $0 } }
    func advance(ms: Int64) { value.withLock { $0 += ms } }
    var clock: ChatmailStore.Clock { { [self] in now } }
}

/// An in-process emulator (real sockets), a store on the test clock, and a sync engine whose pusher is
/// the real queue with exact jitter.
struct QueueHarness {
    let emulator: RunningEmulator
    let store: ChatmailStore
    let account: Account
    let path: URL
    let clock: TestClock

    var client: GmailClient { emulatorClient(emulator) }

    var sender: PendingActionSender {
        PendingActionSender(store: store, gmail: client, clock: clock.clock, random: FixedRandom(fraction: 0.5))
    }

    var queue: ActionQueue { ActionQueue(store: store) }

    /// A sync whose push and pull share one tracker, as `chatmail sync` does.
    func sync() async throws -> SyncReport {
        let tracker = ModificationTracker()
        let pusher = PendingActionSender(
            store: store, gmail: client, clock: clock.clock, random: FixedRandom(fraction: 0.5), tracker: tracker)
        return try await SyncEngine(
            store: store, gmail: client, pusher: pusher, tracker: tracker, chunkSize: 50, reconcileEveryMs: .max
        ).run(account: account)
    }

    /// Gmail ids in the order of their Date header (rawMessage numbers).
    func ids() async -> [String] {
        await emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 100_000).page
            .sorted { ($0.internalDateMs, $0.id) < ($1.internalDateMs, $1.id) }.map(\.id)
    }

    func serverLabels() async -> [String: Set<String>] {
        var labels: [String: Set<String>] = [:]
        for message in await emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 100_000).page {
            labels[message.id] = Set(message.labelIds)
        }
        return labels
    }

    func localLabels() async throws -> [String: Set<String>] {
        let ids = try await store.write { [account] tx in Array(try tx.storedGmailIDs(in: account.id)) }
        return try await store.write { [account] tx in try tx.labelIDs(ofMessages: ids, in: account.id) }
    }

    func actions() async throws -> [PendingAction] {
        try store.pendingActions(of: account.id, includeCompleted: true)
    }

    func conversation(_ person: String) throws -> ConversationID {
        guard case .found(let match, _) = try store.resolvePerson(person, in: account.id) else {
            Issue.record("no single conversation for \(person)")
            return ConversationID(rawValue: -1)
        }
        return match.id
    }

    func perform(_ kind: PendingActionKind, on person: String) async throws -> ActionQueue.Outcome {
        try await queue.perform(
            kind, on: .conversation(try conversation(person), description: person), account: account.id)
    }

    func setFaults(_ rules: [FaultRule]) async { await emulator.faults.set(rules) }

    /// Successful Gmail requests of one method, by path.
    func successes(_ method: String) async -> [String] {
        await emulator.requestLog.all.filter { $0.gmailMethod == method && (200..<300).contains($0.status) }.map(\.path)
    }

    func attempts(_ method: String) async -> Int {
        await emulator.requestLog.all.filter { $0.gmailMethod == method }.count
    }

    /// The label changes Gmail recorded after `start`, as (message id, added, removed).
    func labelHistory(after start: UInt64) async throws -> [(id: String, added: [String], removed: [String])] {
        var changes: [(id: String, added: [String], removed: [String])] = []
        for record in try await emulator.mailbox.history(after: start, upperBound: nil).records {
            for change in record.changes {
                switch change {
                case .labelsAdded(let message, let labels): changes.append((message.id, labels, []))
                case .labelsRemoved(let message, let labels): changes.append((message.id, [], labels))
                case .messageAdded, .messageDeleted: break
                }
            }
        }
        return changes
    }
}

func withQueueHarness(
    _ messages: [(raw: [UInt8], labels: [String]?)], _ body: (QueueHarness) async throws -> Void
) async throws {
    var configuration = EmulatorConfiguration()
    configuration.mailbox = .messages(messages)
    configuration.account = "me@example.org"
    let emulator = try await EmulatorServer.start(configuration)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-queue-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
    do {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("chatmail.sqlite")
        let clock = TestClock()
        let store = try ChatmailStore(path: path.path, clock: clock.clock, subjectBase: ReplySubject.topicBase)
        let id = try await store.write { tx in try tx.ensureAccount(email: "me@example.org") }
        let account = try #require(try store.accounts().first { $0.id == id })
        let harness = QueueHarness(emulator: emulator, store: store, account: account, path: path, clock: clock)
        _ = try await harness.sync()
        try await body(harness)
    } catch {
        await emulator.shutdown()
        throw error
    }
    await emulator.shutdown()
}

/// Alice: an archived unread message, a starred one, and the newest; Bob: one message nobody touches.
let castMessages: [(raw: [UInt8], labels: [String]?)] = [
    (rawMessage(1, from: "Alice <alice@example.com>"), ["UNREAD"]),
    (rawMessage(2, from: "Alice <alice@example.com>"), ["INBOX", "STARRED"]),
    (rawMessage(3, from: "Alice <alice@example.com>"), ["INBOX"]),
    (rawMessage(4, from: "Bob <bob@example.net>"), ["INBOX", "UNREAD"]),
]

func applying(_ kind: PendingActionKind, to labels: Set<String>) -> Set<String> {
    labels.subtracting(kind.removeLabels).union(kind.addLabels)
}

@Suite struct PendingActionSyncTests {
    @Test(
        "each action kind is visible locally at once; after sync Gmail has exactly those labels on exactly those messages",
        arguments: [
            (PendingActionKind.archive, [1, 2]),  // indices into Alice's messages, oldest first
            (.unarchive, [0]),
            (.read, [0]),
            (.unread, [2]),
            (.star, [2]),
            (.unstar, [1]),
            (.trash, [0, 1, 2]),
        ])
    func eachKind(kind: PendingActionKind, changed: [Int]) async throws {
        try await withQueueHarness(castMessages) { harness in
            let ids = await harness.ids()
            let before = await harness.serverLabels()
            var expected = before
            for index in changed { expected[ids[index]] = applying(kind, to: before[ids[index]] ?? []) }

            let outcome = try await harness.perform(kind, on: "alice@example.com")
            #expect(outcome.messagesChanged == changed.count)
            #expect(Set(try #require(outcome.action).targetIDs) == Set(changed.map { ids[$0] }))
            #expect(try await harness.localLabels() == expected)  // at once, before any network
            #expect(await harness.serverLabels() == before)
            let conversation = try harness.store.conversations(in: harness.account.id, filter: .init(visibility: .all))
                .first { $0.participants.map(\.address) == ["alice@example.com"] }
            switch kind {
            case .archive: #expect(conversation?.isArchived == true)
            case .unarchive: #expect(conversation?.isArchived == false && conversation?.unreadCount == 1)
            case .read: #expect(conversation?.unreadCount == 0)
            case .unread: #expect(conversation?.unreadCount == 1)
            case .trash: #expect(conversation == nil || conversation?.messageCount == 0)
            case .star, .unstar, .untrash, .send: break
            }

            let report = try await harness.sync()
            #expect(report.pendingSent == 1)
            #expect(await harness.serverLabels() == expected)
            #expect(try await harness.localLabels() == expected)
            #expect(try await harness.actions().map(\.status) == [.completed])
        }
    }
}
