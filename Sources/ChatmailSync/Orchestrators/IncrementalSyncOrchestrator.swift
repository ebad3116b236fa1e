import ChatmailStore
import GmailAPI

/// Incremental sync: every history page since `start` → fetch new messages → apply deletions and label
/// changes → commit the history id, all of the store work in ONE transaction (so the history id never moves past a
/// change that is not stored), which also
/// recomputes the rollups of the conversations reported to the tracker.
struct IncrementalSyncOrchestrator: Sendable {
    let gmail: GmailClient
    let store: ChatmailStore
    let persister: MessagePersister
    let tracker: ModificationTracker
    let crashes: CrashPoints

    /// Runs from `start`; returns the committed history id. Messages that failed before are retried.
    /// - parameter finishingFullSync: also clears the full-sync cursor in the same transaction.
    /// - throws: `GmailAPIError.giveUp(.historyExpired)` when Gmail no longer has history from `start`.
    func run(account: AccountID, from start: UInt64, finishingFullSync: Bool = false, report: inout SyncReport)
        async throws -> UInt64
    {
        let listing = try await gmail.listHistory(startHistoryID: start)  // every page, never truncated
        let plan = HistoryPlan(records: listing.records)
        let candidates = plan.candidateIDs
        let (stored, retry) = try await store.write { tx in
            (try tx.storedGmailIDs(among: candidates, in: account), try tx.failedGmailIDs(in: account))
        }
        let toFetch =
            plan.idsToFetch(stored: stored) + retry.filter { !plan.deleted.contains($0) && !stored.contains($0) }
        let fetched = try await FetchPhase(gmail: gmail).run(Array(NSOrderedSetLite(toFetch)))
        let inputs = await persister.prepareAll(fetched.messages)
        let finalHistoryID = max(start, listing.finalHistoryID ?? start)
        let freshIDs = Set(inputs.map(\.gmailID))
        let failed = fetched.failed
        let gone = fetched.gone
        let deleted = try await tracker.write(in: store) { tx, modifications -> Int in
            try MessagePersister.persist(inputs, in: account, tx: tx, reportingTo: &modifications)
            for failure in failed { try tx.recordFailure(gmailID: failure.id, error: failure.error, in: account) }
            modifications.report(try tx.deleteMessages(gmailIDs: gone, in: account))
            try tx.clearFailures(gmailIDs: gone, in: account)
            let protected = try tx.protectedGmailIDs(in: account)
            let deleted = try HistoryProcessor.apply(
                plan, skippingLabelsOf: freshIDs.union(protected), in: account, tx: tx, reportingTo: &modifications)
            crashes.reach(.historyApplied)
            try tx.commitHistoryID(finalHistoryID, for: account)
            if finishingFullSync { try tx.setSyncCursor(nil, of: account) }
            return deleted + gone.count
        }
        crashes.reach(.historyCommitted)
        report.messagesAdded += inputs.count
        report.messagesDeleted += deleted
        report.labelChanges += plan.labelChangeCount
        report.abandoned += failed.count
        return finalHistoryID
    }
}

/// Order-preserving de-duplication of ids.
struct NSOrderedSetLite: Sequence {
    private let items: [String]

    init(_ ids: [String]) {
        var seen = Set<String>()
        items = ids.filter { seen.insert($0).inserted }
    }

    func makeIterator() -> IndexingIterator<[String]> { items.makeIterator() }
}
