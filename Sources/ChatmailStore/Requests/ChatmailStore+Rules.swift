import GRDB

extension ChatmailStore {
    /// The account's rules, oldest first.
    public func rules(in account: AccountID) throws -> [Rule] {
        try read { db in try Self.fetchRules(account, in: db) }
    }

    /// Whether the screener holds back conversations with people the account has never written to.
    public func screenerEnabled(in account: AccountID) throws -> Bool {
        try read { db in try Self.screenerEnabled(account, in: db) }
    }

    /// How many active conversations the screener holds (whether it is on or not).
    public func screenerCount(in account: AccountID) throws -> Int {
        try read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM conversation INDEXED BY conversation_active_by_recency
                    WHERE account_id = :account AND archived_at_ms IS NULL AND message_count > 0
                      AND is_filtered = 0 AND \(Self.heldByScreenerSQL)
                    """,
                arguments: ["account": account]) ?? 0
        }
    }

    /// Which of `addresses` (identity keys) the account has written to.
    public func correspondents(among addresses: [String], in account: AccountID) throws -> Set<String> {
        try read { db in
            Set(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT address_normalized FROM correspondent
                        WHERE account_id = ? AND address_normalized IN (SELECT value FROM json_each(?))
                        """,
                    arguments: [account, StoreTransaction.jsonArray(addresses)]))
        }
    }

    static func fetchRules(_ account: AccountID, in db: Database) throws -> [Rule] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM rule WHERE account_id = ? ORDER BY id"), arguments: [account]
        ).map { row in
            Rule(
                id: row["id"], action: row["action"], field: row["field"], pattern: row["pattern"],
                archives: row["archives"], createdAtMs: row["created_at_ms"])
        }
    }

    static func screenerEnabled(_ account: AccountID, in db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT screener_enabled FROM account WHERE id = ?", arguments: [account]) ?? false
    }

    /// Whether the conversation row in scope (unaliased, as `conversation`) is one the screener holds:
    /// not a mailing list (joining one is the user's choice already), never let through by an allow rule,
    /// and with people of whom the account has written to none.
    ///
    /// Each participant is one probe of `correspondent`'s primary key, so the check costs the
    /// conversation's people, not the account's sent mail.
    package static let heldByScreenerSQL = """
        (conversation.list_id IS NULL AND conversation.is_allowed = 0
         AND EXISTS (SELECT 1 FROM conversation_participant p WHERE p.conversation_id = conversation.id)
         AND NOT EXISTS (
             SELECT 1 FROM conversation_participant p
             JOIN correspondent k ON k.account_id = conversation.account_id
                                 AND k.address_normalized = p.address_normalized
             WHERE p.conversation_id = conversation.id))
        """
}
