import ChatmailStore
import Foundation
import GmailAPI
import IMAPClient

/// Runs one sync of one account: push queued actions, then pull from the account's ``MailSource``.
///
/// Gmail: initial (or `--full`) sync when the account has no history id or an interrupted full sync is
/// pending; incremental otherwise; recovery (a full relisting that downloads only unknown messages) when
/// Gmail's history has expired. IMAP: ``IMAPSyncOrchestrator``, initial, incremental or recovery per
/// folder. The engine only chooses and sequences orchestrators.
public struct SyncEngine: Sendable {
    public let store: ChatmailStore
    public let source: MailSource
    public let persister: MessagePersister
    public let pusher: any PendingActionPusher
    /// Which conversations this engine's runs changed; every rollup is recomputed from what it holds.
    public let tracker: ModificationTracker
    /// Where a test may kill the process (unarmed outside tests).
    let crashes: CrashPoints
    let chunkSize: Int
    /// Messages between an initial sync's rollup passes; tests lower it to reach the deferred path.
    var rollupInterval = InitialSyncOrchestrator.defaultRollupInterval
    let reconcileEveryMs: Int64
    let progress: @Sendable (SyncProgress) -> Void

    public init(
        store: ChatmailStore, gmail: GmailClient, persister: MessagePersister = MessagePersister(),
        pusher: (any PendingActionPusher)? = nil, tracker: ModificationTracker = ModificationTracker(),
        chunkSize: Int = 250, reconcileEveryMs: Int64 = 3_600_000, crashes: CrashPoints = CrashPoints(),
        progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) {
        self.store = store
        self.source = .gmail(gmail)
        self.persister = persister
        self.pusher = pusher ?? PendingActionSender(store: store, gmail: gmail, tracker: tracker, crashes: crashes)
        self.tracker = tracker
        self.chunkSize = max(1, chunkSize)
        self.reconcileEveryMs = reconcileEveryMs
        self.crashes = crashes
        self.progress = progress
    }

    /// An engine for an IMAP account. Queued actions wait in the queue: the pusher given sends them.
    public init(
        store: ChatmailStore, imap: IMAPConnector, pusher: any PendingActionPusher,
        persister: MessagePersister = MessagePersister(), tracker: ModificationTracker = ModificationTracker(),
        crashes: CrashPoints = CrashPoints(), progress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) {
        self.store = store
        self.source = .imap(imap)
        self.persister = persister
        self.pusher = pusher
        self.tracker = tracker
        self.chunkSize = 250
        self.reconcileEveryMs = 3_600_000
        self.crashes = crashes
        self.progress = progress
    }

    /// Runs one sync, holding the account's ``SyncLock`` throughout.
    /// - throws: ``SyncError/alreadyRunning`` when another sync or queue run of the account is under way.
    public func run(account: Account, full: Bool = false) async throws -> SyncReport {
        let lock = try SyncLock(store: store, account: account.id)
        defer { lock.release() }
        let start = ContinuousClock.now
        await tracker.beginRun()
        let gmail: GmailClient
        switch source {
        case .gmail(let client):
            gmail = client
        case .imap(let connector):
            let pendingSent = try await pusher.pushDue(account: account.id)
            let connection = try await connector.connect()
            var report: SyncReport
            do {
                report = try await IMAPSyncOrchestrator(
                    connection: connection, store: store, tracker: tracker, pipeline: persister.pipeline,
                    crashes: crashes, progress: progress
                ).run(account: account, full: full)
            } catch {
                await connection.logout()
                throw error
            }
            await connection.logout()
            try await pusher.settleAfterPull(account: account.id)
            report.pendingSent = pendingSent
            report.conversationsUpdated = await tracker.changed.count
            report.seconds = (ContinuousClock.now - start) / .seconds(1)
            return report
        }
        let pendingSent = try await pusher.pushDue(account: account.id)
        let (storedHistoryID, hasCursor) = try await store.write { tx in
            (try tx.historyID(of: account.id), try tx.syncCursor(of: account.id) != nil)
        }
        var report: SyncReport
        let historyID: UInt64
        let initial = InitialSyncOrchestrator(
            gmail: gmail, store: store, persister: persister, tracker: tracker, crashes: crashes, chunkSize: chunkSize,
            rollupInterval: rollupInterval, progress: progress)
        if full || hasCursor || storedHistoryID == nil {
            report = SyncReport(mode: .initial)
            historyID = try await initial.run(account: account, report: &report)
            try await markReconciled(account.id)
        } else if let storedHistoryID {
            report = SyncReport(mode: .incremental)
            do {
                historyID = try await IncrementalSyncOrchestrator(
                    gmail: gmail, store: store, persister: persister, tracker: tracker, crashes: crashes
                ).run(account: account.id, from: storedHistoryID, report: &report)
            } catch GmailAPIError.giveUp(.historyExpired) {
                report = SyncReport(mode: .recovery)
                historyID = try await initial.run(account: account, report: &report)
                try await markReconciled(account.id)
            }
            try await reconcileIfDue(account.id, gmail: gmail, report: &report)
        } else {
            preconditionFailure("Unreachable: a missing history id takes the full-sync branch")
        }
        try await ListHeaderBackfillPhase(gmail: gmail, store: store, tracker: tracker, chunkSize: chunkSize).run(
            in: account.id)
        try await pusher.settleAfterPull(account: account.id)
        report.pendingSent = pendingSent
        report.historyId = String(historyID)
        report.conversationsUpdated = await tracker.changed.count
        report.seconds = (ContinuousClock.now - start) / .seconds(1)
        return report
    }

    /// At most hourly, re-reads the labels of recent messages to catch drift history never reported.
    func reconcileIfDue(_ account: AccountID, gmail: GmailClient, report: inout SyncReport) async throws {
        let interval = reconcileEveryMs
        let recent = try await store.write { tx -> [String]? in
            if let last = try tx.lastReconciledAtMs(of: account), tx.nowMs - last < interval { return nil }
            return try tx.recentGmailIDs(in: account, limit: 200)
        }
        guard let recent else { return }
        let result = try await LabelRefreshPhase(gmail: gmail, store: store, tracker: tracker, chunkSize: 100).run(
            recent, in: account)
        report.labelChanges += result.relabelled
        report.messagesDeleted += result.deleted
        try await markReconciled(account)
    }

    /// A full read of the mailbox has just seen every label, so reconciliation is not due for an hour.
    func markReconciled(_ account: AccountID) async throws {
        try await store.write { tx in try tx.markReconciled(account) }
    }
}
