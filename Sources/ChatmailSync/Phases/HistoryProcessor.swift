import ChatmailStore

/// Applies a history plan's deletions and label changes inside the caller's transaction, with batched
/// lookups (one statement per group of identical changes, not one query per message).
///
/// Messages downloaded in this same run already carry their current labels, and messages with a live
/// action (pending, processing, or failed and waiting to retry) keep their local labels (conflict
/// protection: the server has not seen the user's change yet): neither gets the recorded label changes.
enum HistoryProcessor {
    struct Result {
        var touched = Set<ConversationID>()
        var deleted = 0
    }

    static func apply(
        _ plan: HistoryPlan, skippingLabelsOf skipped: Set<String>, in account: AccountID, tx: StoreTransaction
    ) throws -> Result {
        var result = Result()
        for group in plan.groupedDeltas(excluding: skipped) {
            result.touched.formUnion(try tx.modifyLabels(adding: group.add, removing: group.remove, onMessages: group.ids, in: account))
        }
        let deleted = try tx.deleteMessages(gmailIDs: plan.deleted.sorted(), in: account)
        result.touched.formUnion(deleted)
        result.deleted = plan.deleted.count
        return result
    }
}
