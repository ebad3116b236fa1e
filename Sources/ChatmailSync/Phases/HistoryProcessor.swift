import ChatmailStore

/// Applies a history plan's deletions and label changes inside the caller's transaction, with batched
/// lookups (one statement per group of identical changes, not one query per message).
///
/// Messages downloaded in this same run already carry their current labels, and messages with a live
/// action (pending, processing, or failed and waiting to retry) keep their local labels (conflict
/// protection: the server has not seen the user's change yet): neither gets the recorded label changes.
/// Every conversation a change reaches is reported, so its rollups are recomputed in the same transaction.
enum HistoryProcessor {
    /// - returns: how many deletions the plan holds.
    static func apply(
        _ plan: HistoryPlan, skippingLabelsOf skipped: Set<String>, in account: AccountID, tx: StoreTransaction,
        reportingTo modifications: inout Modifications
    ) throws -> Int {
        for group in plan.groupedDeltas(excluding: skipped) {
            modifications.report(
                try tx.modifyLabels(adding: group.add, removing: group.remove, onMessages: group.ids, in: account))
        }
        modifications.report(try tx.deleteMessages(gmailIDs: plan.deleted.sorted(), in: account))
        return plan.deleted.count
    }
}
