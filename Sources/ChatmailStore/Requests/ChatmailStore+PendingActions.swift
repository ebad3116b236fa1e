import GRDB

extension ChatmailStore {
    /// The account's queued actions, oldest first: every live and abandoned one, and the completed ones
    /// too when `includeCompleted` is true. A read: it never waits for a sync that is writing.
    public func pendingActions(of account: AccountID, includeCompleted: Bool = false) throws -> [PendingAction] {
        var statuses = Set(PendingActionStatus.allCases)
        if !includeCompleted { statuses.remove(.completed) }
        return try read { db in try StoreTransaction.fetchPendingActions(db, account: account, statuses: statuses) }
    }

    /// How many messages wait for their labels to be re-read from Gmail.
    public func labelRecheckCount(of account: AccountID) throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM label_recheck WHERE account_id = ?", arguments: [account])
                ?? 0
        }
    }
}
