import GRDB

extension ChatmailStore {
    /// Counts for `chatmail status`.
    public func status(of account: Account) throws -> StoreStatus {
        try read { db in
            let messages =
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message WHERE account_id = ?", arguments: [account.id])
                ?? 0
            let screening = try Self.screenerEnabled(account.id, in: db)
            let conversations = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS total,
                           COALESCE(SUM(archived_at_ms IS NOT NULL), 0) AS archived,
                           -- What deny rules hide, or the screener holds, is not waiting to be read.
                           COALESCE(SUM(unread_count > 0 AND is_filtered = 0
                                        AND NOT (:screening AND \(Self.heldByScreenerSQL))), 0) AS unread
                    FROM conversation WHERE account_id = :account AND message_count > 0
                    """,
                arguments: ["account": account.id, "screening": screening])
            var actions: [PendingActionStatus: Int] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT status, COUNT(*) AS n FROM pending_action WHERE account_id = ? GROUP BY status",
                arguments: [account.id])
            {
                // The CHECK constraint admits only these statuses; an unknown one means a newer schema.
                guard let status = PendingActionStatus(rawValue: row["status"]) else {
                    throw StoreError.schemaFromNewerVersion
                }
                actions[status] = row["n"]
            }
            let abandoned =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM abandoned_message WHERE account_id = ?", arguments: [account.id])
                ?? 0
            let server = try StoreTransaction.imapSettings(of: account.id, in: db).map {
                "\($0.host):\($0.port) (\($0.security.rawValue))"
            }
            return StoreStatus(
                account: account, messageCount: messages,
                conversationCount: conversations?["total"] ?? 0,
                archivedConversationCount: conversations?["archived"] ?? 0,
                unreadConversationCount: conversations?["unread"] ?? 0,
                actionCounts: actions, abandonedMessageCount: abandoned, imapServer: server)
        }
    }
}
