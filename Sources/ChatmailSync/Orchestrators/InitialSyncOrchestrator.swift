import ChatmailStore
import Foundation
import GmailAPI

/// Full sync, initial or after expired history, resumable at any point:
///
/// profile (history id read BEFORE listing) → labels and aliases → list every id, queue the unknown ones
/// (persisted) → refresh labels of the known ones (recovery; minimal format) → download and persist the
/// queue in transactions of a few hundred messages, reporting their conversations to the tracker → rollups
/// (every 20,000 messages, with the chunk that reaches the mark, and once at the end for the whole account)
/// → an incremental pass from the profile's history id → commit the history id (and clear the cursor)
/// with that pass's changes.
///
/// Killed at any moment, the next run finds the cursor and the queue and continues: nothing stored is
/// downloaded again.
struct InitialSyncOrchestrator: Sendable {
    let gmail: GmailClient
    let store: ChatmailStore
    let persister: MessagePersister
    let tracker: ModificationTracker
    let crashes: CrashPoints
    let chunkSize: Int
    var rollupInterval = Self.defaultRollupInterval
    let progress: @Sendable (SyncProgress) -> Void

    /// The persisted position of a full sync.
    struct Cursor: Codable, Sendable {
        var startHistoryId: String
    }

    func run(account: Account, report: inout SyncReport) async throws -> UInt64 {
        let accountPhase = AccountPhase(gmail: gmail, store: store)
        let savedCursor = try await store.write { tx in try tx.syncCursor(of: account.id) }
        var startHistoryID: UInt64
        if let savedCursor, let cursor = try? JSONDecoder().decode(Cursor.self, from: Data(savedCursor.utf8)),
            let resumeFrom = UInt64(cursor.startHistoryId)
        {
            startHistoryID = resumeFrom  // resuming: the queue holds what is left to download
        } else {
            let profile = try await accountPhase.profile(expecting: account)
            startHistoryID = profile.historyID
            try await accountPhase.storeLabelsAndAliases(of: account.id)
            progress(SyncProgress(phase: "listing", done: 0, total: profile.messagesTotal))
            let listed = try await gmail.listAllMessages().map(\.id)
            let cursorJSON = String(
                decoding: try JSONEncoder().encode(Cursor(startHistoryId: String(startHistoryID))), as: UTF8.self)
            let known = try await store.write { tx -> [String] in
                let stored = try tx.storedGmailIDs(in: account.id)
                try tx.enqueueDownloads(listed.filter { !stored.contains($0) }, in: account.id)
                try tx.setSyncCursor(cursorJSON, of: account.id)
                // Stored messages Gmail no longer lists were deleted or moved to spam/trash: re-read them too.
                let listedSet = Set(listed)
                return listed.filter { stored.contains($0) } + stored.subtracting(listedSet).sorted()
            }
            crashes.reach(.idsListed)
            if !known.isEmpty {
                progress(SyncProgress(phase: "refreshing labels", done: 0, total: known.count))
                let refreshed = try await LabelRefreshPhase(
                    gmail: gmail, store: store, tracker: tracker, chunkSize: 500
                )
                .run(known, in: account.id)
                report.labelChanges += refreshed.relabelled
                report.messagesDeleted += refreshed.deleted
            }
        }
        try await downloadQueue(account: account.id, report: &report)
        progress(SyncProgress(phase: "catching up", done: 0, total: 0))
        return try await IncrementalSyncOrchestrator(
            gmail: gmail, store: store, persister: persister, tracker: tracker, crashes: crashes
        )
        .run(account: account.id, from: startHistoryID, finishingFullSync: true, report: &report)
    }

    /// Downloads the queued ids chunk by chunk; each chunk's messages, its failures and the removal of
    /// its ids from the queue commit together. The next chunk downloads while this one finishes (its
    /// last retries wait out their backoff) and commits, so the batches never idle between chunks;
    /// chunks still commit one at a time, in queue order.
    func downloadQueue(account: AccountID, report: inout SyncReport) async throws {
        let total = try await store.write { tx in try tx.queuedDownloadCount(in: account) }
        var done = 0
        var ids = try await store.write { tx in try tx.queuedDownloads(in: account, limit: chunkSize) }
        var download: Task<FetchPhase.Outcome, any Error>? = ids.isEmpty ? nil : fetch(ids)
        while let current = download {
            // Ids still queued after this chunk's: the next chunk.
            let following = try await store.write { [chunkSize] tx in
                try tx.queuedDownloads(in: account, limit: chunkSize * 2)
            }
            let currentSet = Set(ids)
            let next = Array(following.filter { !currentSet.contains($0) }.prefix(chunkSize))
            let upcoming = next.isEmpty ? nil : fetch(next)
            download = upcoming
            let fetched: FetchPhase.Outcome
            do {
                // Cancelling the sync cancels both downloads, as it cancelled the inline one before.
                fetched = try await withTaskCancellationHandler {
                    try await current.value
                } onCancel: {
                    current.cancel()
                    upcoming?.cancel()
                }
            } catch {
                upcoming?.cancel()
                throw error
            }
            let inputs = await persister.prepareAll(fetched.messages)
            let failed = fetched.failed
            let gone = fetched.gone
            done += ids.count
            let rollUpNow = done % rollupInterval < ids.count || total <= rollupInterval
            let chunk = ids
            let crashes = self.crashes
            do {
                // The chunk that reaches the mark also recomputes every conversation left stale since the last one.
                try await tracker.write(in: store, rollups: rollUpNow ? .inTransaction : .deferred) {
                    tx, modifications in
                    try MessagePersister.persist(inputs, in: account, tx: tx, reportingTo: &modifications)
                    for failure in failed {
                        try tx.recordFailure(gmailID: failure.id, error: failure.error, in: account)
                    }
                    try tx.dequeueDownloads(chunk, in: account)
                    crashes.reach(.chunkPersisted)
                }
            } catch {
                upcoming?.cancel()
                throw error
            }
            crashes.reach(.chunkCommitted)
            report.messagesAdded += inputs.count
            report.abandoned += failed.count
            _ = gone  // gone before we got to it: nothing to store, nothing to delete
            progress(SyncProgress(phase: "downloading", done: done, total: total))
            ids = next
        }
        // The rollups phase: every conversation of the account once, so a run resumed after a crash
        // also settles the conversations an earlier, killed run left stale (that run's tracker died with it).
        try await tracker.recomputeStaleRollups(in: store, repairing: account)
        crashes.reach(.rollupsCommitted)
    }

    /// Starts downloading one chunk.
    private func fetch(_ ids: [String]) -> Task<FetchPhase.Outcome, any Error> {
        let gmail = self.gmail
        return Task { try await FetchPhase(gmail: gmail).run(ids) }
    }

    /// Messages between intermediate rollup passes. Recomputing after every chunk re-reads the same
    /// growing conversations again and again (quadratic in a large initial sync); every 20,000 messages
    /// still lets `conversations` show progress during a long first sync.
    static let defaultRollupInterval = 20_000
}
