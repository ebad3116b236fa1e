import GRDB

extension StoreTransaction {
    // MARK: Resumable initial sync

    /// The saved position of an interrupted initial sync (opaque JSON owned by the sync engine).
    public func syncCursor(of account: AccountID) throws -> String? {
        try String.fetchOne(db, sql: "SELECT full_sync_cursor FROM account WHERE id = ?", arguments: [account]) ?? nil
    }

    /// Saves (or clears, with `nil`) the initial sync's position, in the same transaction as the
    /// messages it accounts for, so a crash can never skip or repeat work.
    public func setSyncCursor(_ cursor: String?, of account: AccountID) throws {
        try db.execute(sql: "UPDATE account SET full_sync_cursor = ? WHERE id = ?", arguments: [cursor, account])
    }

    /// The account's stored history id, parsed.
    public func historyID(of account: AccountID) throws -> UInt64? {
        try String.fetchOne(db, sql: "SELECT history_id FROM account WHERE id = ?", arguments: [account]).flatMap {
            UInt64($0)
        }
    }

    // MARK: Failures

    /// Records a message that could not be fetched: attempts grow, the first failure time is kept.
    public func recordFailure(gmailID: String, error: String, in account: AccountID) throws {
        try db.execute(
            sql: """
                INSERT INTO abandoned_message (account_id, gmail_id, attempts, last_error, first_failed_at_ms, last_failed_at_ms)
                VALUES (?1, ?2, 1, ?3, ?4, ?4)
                ON CONFLICT (account_id, gmail_id) DO UPDATE SET
                    attempts = attempts + 1, last_error = excluded.last_error, last_failed_at_ms = excluded.last_failed_at_ms
                """,
            arguments: [account, gmailID, error, nowMs])
    }

    /// Forgets failures of messages that have now been stored (or are gone).
    public func clearFailures(gmailIDs: [String], in account: AccountID) throws {
        guard !gmailIDs.isEmpty else { return }
        try db.execute(
            sql: "DELETE FROM abandoned_message WHERE account_id = ? AND gmail_id IN (SELECT value FROM json_each(?))",
            arguments: [account, Self.jsonArray(gmailIDs)])
    }

    /// Gmail ids that failed before, to try again.
    public func failedGmailIDs(in account: AccountID) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT gmail_id FROM abandoned_message WHERE account_id = ? ORDER BY gmail_id",
            arguments: [account])
    }

    // MARK: Conflict protection

    /// Gmail ids that a live action (pending, processing, or failed and waiting to retry) is about to
    /// change: their local labels are the user's latest intent, so server label changes for them are not
    /// applied until the action completes or is abandoned; then their labels are re-read from Gmail.
    public func protectedGmailIDs(in account: AccountID) throws -> Set<String> {
        Set(
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT target.value FROM pending_action, json_each(pending_action.target_message_ids) AS target
                    WHERE pending_action.account_id = ? AND pending_action.status IN ('pending', 'processing', 'failed')
                    """,
                arguments: [account]))
    }

    // MARK: Lookups

    /// Every stored Gmail id of the account.
    public func storedGmailIDs(in account: AccountID) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT gmail_id FROM message WHERE account_id = ?", arguments: [account]))
    }

    /// The Gmail ids of the newest `limit` stored messages, for reconciliation.
    public func recentGmailIDs(in account: AccountID, limit: Int) throws -> [String] {
        try String.fetchAll(
            db,
            sql: """
                SELECT gmail_id FROM message
                WHERE account_id = ? AND gmail_id NOT LIKE 'out-%' AND gmail_id NOT LIKE 'imp-%'
                ORDER BY internal_date_ms DESC LIMIT ?
                """,
            arguments: [account, limit])
    }

    /// When labels were last reconciled with Gmail, in ms.
    public func lastReconciledAtMs(of account: AccountID) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT last_reconciled_at_ms FROM account WHERE id = ?", arguments: [account])
            ?? nil
    }

    public func markReconciled(_ account: AccountID) throws {
        try db.execute(sql: "UPDATE account SET last_reconciled_at_ms = ? WHERE id = ?", arguments: [nowMs, account])
    }
}

extension StoreTransaction {
    // MARK: The download queue of a full sync (006_sync_queue)

    /// Appends ids to download, after any already queued; ids already queued are kept where they are.
    public func enqueueDownloads(_ gmailIDs: [String], in account: AccountID) throws {
        let start =
            (try Int.fetchOne(
                db, sql: "SELECT MAX(position) FROM sync_queue WHERE account_id = ?", arguments: [account]) ?? nil) ?? 0
        let insert = try db.cachedStatement(
            sql: "INSERT INTO sync_queue (account_id, gmail_id, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
        for (offset, id) in gmailIDs.enumerated() {
            try insert.execute(arguments: [account, id, start + offset + 1])
        }
    }

    /// The next ids to download, in order.
    public func queuedDownloads(in account: AccountID, limit: Int) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT gmail_id FROM sync_queue WHERE account_id = ? ORDER BY position LIMIT ?",
            arguments: [account, limit])
    }

    /// How many ids are still queued.
    public func queuedDownloadCount(in account: AccountID) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_queue WHERE account_id = ?", arguments: [account]) ?? 0
    }

    /// Removes ids whose message is now stored, gone or recorded as failed.
    public func dequeueDownloads(_ gmailIDs: [String], in account: AccountID) throws {
        guard !gmailIDs.isEmpty else { return }
        try db.execute(
            sql: "DELETE FROM sync_queue WHERE account_id = ? AND gmail_id IN (SELECT value FROM json_each(?))",
            arguments: [account, Self.jsonArray(gmailIDs)])
    }
}

extension StoreTransaction {
    /// Which of `gmailIDs` are stored: one indexed lookup per id asked, whatever the mailbox size, so
    /// an incremental sync's cost follows its changes, not the mailbox.
    public func storedGmailIDs(among gmailIDs: [String], in account: AccountID) throws -> Set<String> {
        guard !gmailIDs.isEmpty else { return [] }
        return Set(
            try String.fetchAll(
                db, sql: "SELECT m.gmail_id \(Self.wantedMessagesJoin)",
                arguments: [Self.jsonArray(gmailIDs), account]))
    }

    /// Every conversation of the account, for the rollup pass that ends a full sync.
    public func conversationIDs(in account: AccountID) throws -> Set<ConversationID> {
        Set(
            try ConversationID.fetchAll(
                db, sql: "SELECT id FROM conversation WHERE account_id = ?", arguments: [account]))
    }
}
