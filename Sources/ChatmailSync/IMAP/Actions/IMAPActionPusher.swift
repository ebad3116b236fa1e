import ChatmailStore
import Foundation
import GmailAPI
import IMAPClient

/// Sends an IMAP account's queued actions to its servers: label changes as IMAP commands, messages
/// over SMTP (``IMAPOutboxSender``). `chatmail sync` runs it before it pulls, `pending run` on its own.
///
/// It keeps the queue's rules as ``PendingActionSender`` keeps them for Gmail: actions oldest first, one
/// not sent while an earlier unfinished action shares a message with it, each claimed in its own
/// transaction before any command and its outcome recorded in another, progress kept per message
/// (`sent_message_ids`) so a retry resumes where the last attempt stopped, and a server that cannot be
/// reached stops the run without counting the attempt.
public struct IMAPActionPusher: PendingActionPusher {
    public let store: ChatmailStore
    public let link: IMAPAccountLink
    public let schedule: BackoffSchedule
    public let clock: ChatmailStore.Clock
    public let random: any RandomSource
    /// Completed actions are kept this long (for `pending list --all`), then pruned.
    public let keepCompletedMs: Int64
    public let tracker: ModificationTracker
    let crashes: CrashPoints
    let timeZone: TimeZone

    public init(
        store: ChatmailStore, link: IMAPAccountLink, schedule: BackoffSchedule = BackoffSchedule(),
        clock: @escaping ChatmailStore.Clock = ChatmailStore.systemClock,
        random: any RandomSource = SystemRandomSource(), keepCompletedMs: Int64 = 7 * 86_400_000,
        tracker: ModificationTracker = ModificationTracker(), crashes: CrashPoints = CrashPoints(),
        timeZone: TimeZone = .current
    ) {
        self.store = store
        self.link = link
        self.schedule = schedule
        self.clock = clock
        self.random = random
        self.keepCompletedMs = keepCompletedMs
        self.tracker = tracker
        self.crashes = crashes
        self.timeZone = timeZone
    }

    /// What one run did.
    public struct Summary: Sendable, Equatable {
        public var sent = 0
        public var failed = 0
        public var abandoned = 0
        /// Messages whose outcome became unknown in this run: they wait for a person to decide.
        public var unknown = 0
        public var waiting = 0
        /// Why the server could not be reached, when it could not: the run stopped there.
        public var unreachable: String?
    }

    /// How one action's attempt ended.
    public enum SendResult: Sendable, Equatable {
        case completed, failed, abandoned, skipped
        /// The connection broke after the whole message was written: it may have gone out.
        case unknown
        case unreachable(String)
    }

    public func pushDue(account: AccountID) async throws -> Int {
        try await sendDue(account: account).sent
    }

    public func settleAfterPull(account: AccountID) async throws {
        _ = try await outbox.settleFromStore(account: account)
    }

    /// Sends every due action, holding the account's ``SyncLock``.
    /// - throws: ``SyncError/alreadyRunning`` when a sync or another queue run of the account is under way.
    public func run(account: AccountID) async throws -> Summary {
        let lock = try SyncLock(store: store, account: account)
        defer { lock.release() }
        return try await sendDue(account: account)
    }

    /// Sends one queued message now (`reply`, `send`, the app), holding the account's ``SyncLock``.
    /// - parameter prepared: what ``prepareSending(account:)`` started before the message was queued.
    public func sendMessage(_ id: PendingActionID, account: AccountID, prepared: IMAPSendPreparation? = nil)
        async throws -> SendResult
    {
        let lock: SyncLock
        do {
            lock = try SyncLock(store: store, account: account)
        } catch {
            await prepared?.discard()
            throw error
        }
        defer { lock.release() }
        return try await outbox.send(id, account: account, prepared: prepared)
    }

    /// Asks for the credentials and starts opening the Sent copy's connection, for a send about to be
    /// queued.
    public func prepareSending(account: AccountID) async -> IMAPSendPreparation {
        await outbox.prepare(account: account)
    }

    var outbox: IMAPOutboxSender {
        IMAPOutboxSender(
            store: store, link: link, schedule: schedule, clock: clock, random: random, tracker: tracker,
            crashes: crashes, timeZone: timeZone)
    }

    /// ``run(account:)`` without the lock, for a caller that holds it.
    func sendDue(account: AccountID) async throws -> Summary {
        let now = clock()
        let keep = keepCompletedMs
        let live = try await store.write { tx -> [PendingAction] in
            for var action in try tx.pendingActions(in: account, statuses: [.processing]) {
                // Left by a run that stopped mid-attempt. A label change is safe to resume (the runner
                // looks before it moves); a message that was being submitted may have gone out.
                if action.kind == .send, try tx.outboxEntry(action.id, in: account)?.outcomeUnknown == true {
                    action.status = .abandoned
                    action.lastError = IMAPOutboxSender.unknownOutcomeNote(action.id, reason: "chatmail stopped")
                } else {
                    action.status = .pending
                }
                try tx.savePendingAction(action)
            }
            try tx.pruneCompletedActions(before: now - keep, in: account)
            return try tx.pendingActions(in: account, statuses: [.pending, .failed])
        }
        var summary = Summary()
        var session: IMAPActionSession?
        do {
            try await send(live, account: account, summary: &summary, session: &session)
        } catch {
            await session?.connection.logout()
            throw error
        }
        await session?.connection.logout()
        return summary
    }

    private func send(
        _ live: [PendingAction], account: AccountID, summary: inout Summary, session: inout IMAPActionSession?
    ) async throws {
        var blocked = Set<String>()
        for action in live {
            if summary.unreachable != nil || action.nextAttemptAtMs > clock()
                || action.targetIDs.contains(where: blocked.contains)
            {
                blocked.formUnion(action.targetIDs)
                summary.waiting += 1
                continue
            }
            let result =
                action.kind == .send
                ? try await outbox.send(action.id, account: account, prepared: nil)
                : try await apply(action.id, account: account, session: &session)
            switch result {
            case .completed: summary.sent += 1
            case .failed:
                summary.failed += 1
                blocked.formUnion(action.targetIDs)
            case .abandoned: summary.abandoned += 1
            case .unknown: summary.unknown += 1
            case .unreachable(let reason): summary.unreachable = reason
            case .skipped: break
            }
        }
    }

    /// Claims one label change, runs its steps message by message, and records the outcome.
    func apply(_ id: PendingActionID, account: AccountID, session: inout IMAPActionSession?) async throws
        -> SendResult
    {
        guard
            let (claimed, previousStatus) = try await store.write({ tx in try tx.claimPendingAction(id, in: account) })
        else { return .skipped }
        var action = claimed
        // Any attempt before this one (a failure, or a run killed mid-action: its claim counted) may have
        // changed the server already.
        let mayHaveRun =
            previousStatus == .failed || action.lastError != nil || action.attempts > 1 || !action.sentIDs.isEmpty
        do {
            if session == nil { session = try await IMAPActionSession.open(link.imap) }
            guard var open = session else { return .skipped }
            defer { session = open }
            for key in action.unsentIDs {
                guard let target = try await store.write({ tx in try tx.imapActionTarget(key: key, in: account) })
                else {
                    action.targetIDs.removeAll { $0 == key }
                    continue
                }
                var changes: [IMAPLocationChange] = []
                for step in IMAPActionPlan.steps(for: action.kind, target: target, folders: open.folders) {
                    changes += try await open.runner.run(
                        step, rfc822MessageID: target.rfc822MessageID, mayHaveRun: mayHaveRun)
                }
                crashes.reach(.actionSent)
                action.sentIDs.append(key)
                let (progress, done) = (action, changes)
                try await store.write { tx in
                    try IMAPLocationRecorder(account: account).record(done, of: target.message, tx: tx)
                    try tx.savePendingAction(progress)
                }
            }
        } catch let error as IMAPClientError {
            if !IMAPFailures.connectionSurvives(error) { session = nil }
            let disposition = IMAPFailures.disposition(of: error)
            guard
                let recorded = action.recordFailure(
                    disposition, reason: error.localizedDescription, unreachableStatus: .failed, schedule: schedule,
                    nowMs: clock(), random: random)
            else {
                action.status = previousStatus
                action.attempts -= 1
                try await store.write { [action] tx in try tx.savePendingAction(action) }
                throw error
            }
            try await store.write { [action] tx in
                try tx.savePendingAction(action)
                if action.status == .abandoned { try tx.enqueueLabelRecheck(action.targetIDs, in: account) }
            }
            switch recorded {
            case .failed: return .failed
            case .abandoned:
                try await restoreLabels(account: account)
                return .abandoned
            case .unreachable: return .unreachable(error.localizedDescription)
            }
        }
        action.status = .completed
        action.lastError = nil
        try await store.write { [action] tx in try tx.savePendingAction(action) }
        return .completed
    }

    /// Gives the messages of dismissed or abandoned actions the labels of their copies on the server (as
    /// sync last saw them), now that no action protects them.
    /// - returns: how many messages changed.
    @discardableResult
    public func restoreLabels(account: AccountID) async throws -> Int {
        try await tracker.write(in: store) { tx, modifications in
            let keys = try tx.labelRechecks(in: account, limit: 100_000)
            let messages = Set(try tx.messageRows(forGmailIDs: keys, in: account).map(\.message))
            let refreshed = try tx.refreshIMAPLabels(of: messages, in: account)
            modifications.report(refreshed.conversations)
            try tx.clearLabelRechecks(keys, in: account)
            return refreshed.changed
        }
    }

}

/// One connection for a run's label changes, with the server's folder roles.
struct IMAPActionSession {
    let connection: IMAPConnection
    let folders: IMAPServerFolders
    var runner: IMAPStepRunner

    static func open(_ connector: IMAPConnector) async throws -> IMAPActionSession {
        let connection = try await connector.connect()
        let folders = IMAPServerFolders(listing: try await connection.listFolders(), isGmail: connection.isGmail)
        return IMAPActionSession(
            connection: connection, folders: folders, runner: IMAPStepRunner(connection: connection))
    }
}

/// Writes what the server did to a message's copies into the store.
struct IMAPLocationRecorder {
    let account: AccountID

    func record(_ changes: [IMAPLocationChange], of message: MessageID, tx: StoreTransaction) throws {
        for change in changes {
            switch change {
            case .flags(let copy, let seen, let flagged):
                try tx.setIMAPCopyFlags(folder: copy.folder, uid: copy.uid, seen: seen, flagged: flagged)
            case .removed(let copy):
                _ = try tx.removeIMAPCopies([copy.uid], folder: copy.folder)
            case .moved(let copy, let folder, let uidValidity, let uid):
                let destination = try syncedFolder(folder, uidValidity: uidValidity, tx: tx)
                try tx.moveIMAPCopy(
                    of: message, from: copy.folder, uid: copy.uid, to: destination, newUID: uid, state: copy.state)
            case .copied(let copy, let folder, let uidValidity, let uid):
                if let destination = try syncedFolder(folder, uidValidity: uidValidity, tx: tx), let uid {
                    try tx.setIMAPCopy(message, folder: destination, uid: uid, state: copy.state)
                }
            }
        }
    }

    /// The folder sync reads under this name and UIDVALIDITY; `nil` for any other (a new UID under
    /// another UIDVALIDITY would name the wrong message).
    private func syncedFolder(_ name: String, uidValidity: UInt32?, tx: StoreTransaction) throws -> IMAPFolderID? {
        guard let uidValidity, let folder = try tx.imapFolder(named: name, in: account),
            folder.uidValidity == uidValidity
        else { return nil }
        return folder.id
    }
}
