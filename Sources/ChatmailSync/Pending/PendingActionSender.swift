import ChatmailStore
import Foundation
import GmailAPI

/// Sends due actions to Gmail (`chatmail sync` before it pulls, and `chatmail pending run`), then
/// re-reads the labels the queue asked for.
///
/// One run:
/// 1. actions left `processing` by a crashed run go back to `pending` (they are absolute, so resending
///    is safe; ids Gmail already accepted are in `sent_message_ids` and are not sent again);
/// 2. live actions are walked oldest first. An action is sent only when it is due and no earlier
///    unfinished action shares a message with it, so Gmail sees changes in the order they were made;
/// 3. each send is claimed (`processing`, attempts + 1) in its own transaction before any request, and
///    its outcome is recorded in another: completed, failed with a persisted `next_attempt_at_ms`
///    (``BackoffSchedule``), or abandoned (a permanent error, or the last allowed attempt);
/// 4. the labels of completed, abandoned, dismissed and cancelled actions' messages are re-read.
///
/// Attempts count Gmail's answers. When Gmail cannot be reached at all (offline, DNS, a dropped
/// connection), the action waits as `failed` with the reason, the attempt is not counted, and the run
/// stops sending: people act offline and expect the result to stick, so being offline for five syncs
/// must not abandon their actions and roll them back. The wait then grows with the action's age
/// (``BackoffSchedule/unreachableDelayMs(waitedMs:unit:)``), so one action whose request always breaks
/// the connection cannot stop every run before the actions behind it.
///
/// Runs never sleep: an action that is not due waits for a later run. Callers hold the account's sync
/// lock, so no two runs send at once.
public struct PendingActionSender: PendingActionPusher {
    public let store: ChatmailStore
    /// Reads (label re-reads) go through this client with its usual retries.
    public let gmail: GmailClient
    /// Label changes go through a one-attempt copy: the queue's own backoff replaces inline retries.
    let sender: GmailClient
    public let schedule: BackoffSchedule
    public let clock: ChatmailStore.Clock
    public let random: any RandomSource
    /// Completed actions are kept this long (for `pending list --all`), then pruned.
    public let keepCompletedMs: Int64
    /// Every conversation whose local labels the push changes (confirmed or restored from Gmail) is
    /// reported here, which recomputes its rollups in the same transaction; a sync shares its own, so
    /// its summary counts them.
    public let tracker: ModificationTracker
    /// Where a test may kill the process (unarmed outside tests).
    let crashes: CrashPoints
    /// The zone of the Date header of sent messages.
    let timeZone: TimeZone

    /// Below this many ids an action uses one `modify` per message (5 units each, and each answer
    /// confirms the message's labels); from it on, `batchModify` (50 units per 1000 ids).
    public static let batchThreshold = 10

    public init(
        store: ChatmailStore, gmail: GmailClient, schedule: BackoffSchedule = BackoffSchedule(),
        clock: @escaping ChatmailStore.Clock = ChatmailStore.systemClock,
        random: any RandomSource = SystemRandomSource(),
        keepCompletedMs: Int64 = 7 * 86_400_000, tracker: ModificationTracker = ModificationTracker(),
        crashes: CrashPoints = CrashPoints(), timeZone: TimeZone = .current
    ) {
        self.timeZone = timeZone
        self.store = store
        self.gmail = gmail
        self.sender = gmail.retrying(maxAttempts: 1)
        self.schedule = schedule
        self.clock = clock
        self.random = random
        self.keepCompletedMs = keepCompletedMs
        self.tracker = tracker
        self.crashes = crashes
    }

    /// What one run did.
    public struct Summary: Sendable, Equatable {
        /// Actions Gmail accepted in full.
        public var sent = 0
        /// Actions that failed and will be retried later.
        public var failed = 0
        /// Actions given up in this run.
        public var abandoned = 0
        /// Actions not due yet, or waiting behind an earlier action on the same messages.
        public var waiting = 0
        /// Messages whose labels were re-read from Gmail.
        public var rechecked = 0
        /// Why Gmail could not be reached, when it could not: the run stopped there.
        public var unreachable: GmailAPIError?
    }

    public func pushDue(account: AccountID) async throws -> Int {
        try await sendDue(account: account).sent
    }

    public func settleAfterPull(account: AccountID) async throws {
        _ = try await outbox.settleUnknownOutcomes(account: account)
    }

    /// Sends every due action, then re-reads the labels waiting to be re-read, holding the account's
    /// ``SyncLock`` throughout.
    /// - throws: ``SyncError/alreadyRunning`` when a sync or another queue run of the account is under way.
    public func run(account: AccountID) async throws -> Summary {
        let lock = try SyncLock(store: store, account: account)
        defer { lock.release() }
        return try await sendDue(account: account)
    }

    /// ``run(account:)`` without the lock, for a caller that holds it.
    func sendDue(account: AccountID) async throws -> Summary {
        let now = clock()
        let keep = keepCompletedMs
        let live = try await store.write { tx -> [PendingAction] in
            for var action in try tx.pendingActions(in: account, statuses: [.processing]) {
                action.status = .pending  // left by a run that crashed mid-send
                try tx.savePendingAction(action)
            }
            try tx.pruneCompletedActions(before: now - keep, in: account)
            return try tx.pendingActions(in: account, statuses: [.pending, .failed])
        }
        var summary = Summary()
        var blocked = Set<String>()
        var reachable = true
        for action in live {
            if !reachable || action.nextAttemptAtMs > clock() || action.targetIDs.contains(where: blocked.contains) {
                blocked.formUnion(action.targetIDs)
                summary.waiting += 1
                continue
            }
            let result =
                action.kind == .send
                ? try await outbox.send(action.id, account: account) : try await send(action.id, account: account)
            switch result {
            case .completed: summary.sent += 1
            case .failed:
                summary.failed += 1
                blocked.formUnion(action.targetIDs)
            case .abandoned: summary.abandoned += 1
            case .unreachable(let error):
                summary.failed += 1
                summary.unreachable = error
                reachable = false  // every other send would wait for the same timeout
            case .skipped: break
            }
        }
        if reachable { summary.rechecked = try await recheck(account: account) }
        return summary
    }

    /// Sends one queued message now (`chatmail reply` and `send`), holding the account's ``SyncLock``.
    /// - throws: ``SyncError/alreadyRunning`` when a sync or queue run holds the lock: the message stays
    ///   queued for that run's successor.
    public func sendMessage(_ id: PendingActionID, account: AccountID) async throws -> SendResult {
        let lock = try SyncLock(store: store, account: account)
        defer { lock.release() }
        return try await outbox.send(id, account: account)
    }

    /// Sends queued messages; label changes go through ``send(_:account:)``.
    var outbox: OutboxSender {
        OutboxSender(
            store: store, gmail: gmail, schedule: schedule, clock: clock, random: random, tracker: tracker,
            crashes: crashes, timeZone: timeZone)
    }

    public enum SendResult: Equatable, Sendable {
        case completed, failed, abandoned
        case unreachable(GmailAPIError)
        case skipped
    }

    /// Claims, sends and records one action.
    func send(_ id: PendingActionID, account: AccountID) async throws -> SendResult {
        let claimed = try await store.write { tx -> (PendingAction, PendingActionStatus)? in
            // Re-read: the user may have dismissed it, or coalescing shrunk it, since the run started.
            try tx.claimPendingAction(id, in: account)
        }
        guard let claimed else { return .skipped }
        var (action, previousStatus) = claimed
        var delivery = Delivery()
        do {
            try await deliver(&action, &delivery)
        } catch let error as GmailAPIError {
            // Gmail never answering is not counted against the action. It waits as failed, keeping the
            // reason, which also marks it as possibly applied (a request may have gone out before the
            // connection broke).
            guard
                let result = action.recordFailure(
                    error, unreachableStatus: .failed, schedule: schedule, nowMs: clock(), random: random)
            else {
                // A login problem is not the action's fault: put it back as it was, then stop the run.
                action.status = previousStatus
                action.attempts -= 1
                try await store.write { [action] tx in try tx.savePendingAction(action) }
                throw error
            }
            try await finish(action, delivery, account: account)
            return result
        }
        // Any other error (cancellation, the store) leaves the claim: the next run returns it to pending.
        action.status = .completed
        action.lastError = nil
        try await finish(action, delivery, account: account)
        return .completed
    }

    /// What Gmail said about the messages of one send.
    struct Delivery {
        /// Labels Gmail returned from `modify`: confirmed without another read.
        var confirmed: [String: [String]] = [:]
        /// Ids Gmail no longer has (404): dropped from the action and from the store.
        var gone: [String] = []
    }

    /// Sends the action's unsent ids, recording progress in `action.sentIDs` as Gmail accepts them.
    func deliver(_ action: inout PendingAction, _ delivery: inout Delivery) async throws {
        let unsent = action.unsentIDs
        if unsent.count < Self.batchThreshold {
            for id in unsent {
                do {
                    let message = try await sender.modify(id: id, add: action.addLabels, remove: action.removeLabels)
                    crashes.reach(.actionSent)
                    delivery.confirmed[id] = message.labelIds
                } catch GmailAPIError.giveUp(.notFound) {
                    delivery.gone.append(id)
                }
                action.sentIDs.append(id)
                try await store.write { [action] tx in try tx.savePendingAction(action) }
            }
            return
        }
        do {
            try await sender.batchModify(ids: unsent, add: action.addLabels, remove: action.removeLabels)
            crashes.reach(.actionSent)
            action.sentIDs += unsent
        } catch GmailAPIError.giveUp(.batchPartsFailed(let failedIDs, let first)) {
            let failed = Set(failedIDs)
            action.sentIDs += unsent.filter { !failed.contains($0) }
            try await store.write { [action] tx in try tx.savePendingAction(action) }
            guard case .giveUp(.notFound) = first else { throw first }
            // Gmail's batchModify skips unknown ids as far as anyone has seen; should it answer 404 instead,
            // find the gone ids, drop them, and send the rest once more.
            let outcome = try await FetchPhase(gmail: gmail).run(failedIDs, format: .minimal)
            delivery.gone += outcome.gone
            let remaining = failedIDs.filter { !Set(outcome.gone).contains($0) }
            if !remaining.isEmpty {
                try await sender.batchModify(ids: remaining, add: action.addLabels, remove: action.removeLabels)
            }
            action.sentIDs += failedIDs
        }
    }

    /// Records the outcome of a send, and what it means for the local copy, in one transaction.
    func finish(_ action: PendingAction, _ delivery: Delivery, account: AccountID) async throws {
        var action = action
        let gone = Set(delivery.gone)
        action.targetIDs.removeAll { gone.contains($0) }
        action.sentIDs.removeAll { gone.contains($0) }
        let finished = action
        try await tracker.write(in: store) { tx, modifications in
            try tx.savePendingAction(finished)
            modifications.report(try tx.deleteMessages(gmailIDs: delivery.gone, in: account))
            if !finished.isLive {
                // The action no longer protects its messages: give them Gmail's labels. Labels Gmail
                // returned from modify are current; the others are re-read (after this transaction).
                let protected = try tx.protectedGmailIDs(in: account)
                let local = try tx.labelIDs(ofMessages: Array(delivery.confirmed.keys), in: account)
                var recheck: [String] = []
                for id in finished.targetIDs where !protected.contains(id) {
                    guard let labels = delivery.confirmed[id], finished.status == .completed else {
                        recheck.append(id)
                        continue
                    }
                    if let current = local[id], current != Set(labels),
                        let conversation = try tx.replaceLabels(labels, onMessage: id, in: account)
                    {
                        modifications.report(conversation)
                    }
                }
                try tx.enqueueLabelRecheck(recheck, in: account)
            }
        }
    }

    // MARK: Errors

    typealias Disposition = FailureDisposition

    static func disposition(of error: GmailAPIError) -> Disposition {
        switch error {
        case .retryLater(.rateLimited(let retryAfter)):
            .retryLater(retryAfterMs: retryAfter.map { Int64($0.components.seconds) * 1000 })
        case .retryLater(.server):
            .retryLater(retryAfterMs: nil)
        case .retryLater(.transport):
            .unreachable
        // Only messages.send has an unknown outcome, and a queued action is never a send.
        case .retryLater(.outcomeUnknown):
            .retryLater(retryAfterMs: nil)
        case .logInAgain:
            .stopRun
        case .giveUp(.batchPartsFailed(_, let first)):
            disposition(of: first)
        // A queued action outlives one run: tomorrow's quota or a well-formed answer next time can
        // still deliver it, so these are retried on the action's own schedule.
        case .giveUp(.dailyLimitExceeded), .giveUp(.decoding):
            .retryLater(retryAfterMs: nil)
        case .giveUp(.notFound), .giveUp(.historyExpired), .giveUp(.permissionDenied), .giveUp(.unexpectedStatus),
            .giveUp(.messageTooLarge), .badRequest:
            .abandon
        }
    }

    /// The one line stored as `last_error`.
    static func describe(_ error: GmailAPIError) -> String {
        if case .giveUp(.batchPartsFailed(_, let first)) = error { return describe(first) }
        return error.localizedDescription
    }
}
