import GRDB

/// The store's write operations, valid inside one ``ChatmailStore/write(_:)`` call.
///
/// Everything done through one transaction object commits together. It caches what it looked up
/// (aliases, label rows, conversation ids) for its own lifetime only, so a cache can never outlive the
/// transaction that read it.
public final class StoreTransaction {
    let db: Database
    let clock: ChatmailStore.Clock
    let subjectBase: ChatmailStore.SubjectBase
    private var aliasCache: [AccountID: Set<String>] = [:]
    var labelRowCache: [AccountID: [String: Int64]] = [:]
    var conversationCache: [AccountID: [String: ConversationID]] = [:]
    /// Dropped whenever the transaction changes the account's rules.
    var ruleSetCache: [AccountID: RuleSet] = [:]
    var searchIndex = SearchIndexWriter()

    init(db: Database, clock: @escaping ChatmailStore.Clock, subjectBase: @escaping ChatmailStore.SubjectBase) {
        self.db = db
        self.clock = clock
        self.subjectBase = subjectBase
    }

    /// Finishes the transaction's deferred work; ``ChatmailStore/write(_:)`` calls it after the body.
    func finish() throws {
        try searchIndex.flush(in: db)
    }

    /// The current time from the store's clock, in ms since the epoch.
    public var nowMs: Int64 { clock() }

    // MARK: Accounts

    /// The labels every Gmail account has, created with the account so rollups can rely on them.
    static let systemLabels = ["INBOX", "UNREAD", "STARRED", "IMPORTANT", "SENT", "DRAFT", "SPAM", "TRASH"]

    /// Returns the account with `email`, creating it (and its system labels) when it does not exist.
    public func ensureAccount(email: String) throws -> AccountID {
        let key = EmailNormalizer.identityKey(for: email)
        if let id = try AccountID.fetchOne(
            db, sql: "SELECT id FROM account WHERE email_normalized = ?", arguments: [key])
        {
            return id
        }
        try db.execute(
            sql: "INSERT INTO account (email, email_normalized, created_at_ms) VALUES (?, ?, ?)",
            arguments: [email, key, nowMs])
        let account = AccountID(rawValue: db.lastInsertedRowID)
        for label in Self.systemLabels {
            try upsertLabel(gmailID: label, name: label, type: .system, in: account)
        }
        return account
    }

    /// Replaces the account's sendAs aliases.
    ///
    /// Changing aliases changes identities: callers re-hash affected messages afterwards (a later sync
    /// phase's job), because a stored conversation key is never silently rewritten here.
    public func replaceAliases(_ aliases: [AliasInput], for account: AccountID) throws {
        try db.execute(sql: "DELETE FROM account_alias WHERE account_id = ?", arguments: [account])
        for alias in aliases {
            try db.execute(
                sql: """
                    INSERT INTO account_alias (account_id, address_normalized, address, display_name, is_primary)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (account_id, address_normalized) DO UPDATE SET is_primary = max(is_primary, excluded.is_primary)
                    """,
                arguments: [
                    account, alias.address.normalizedAddress, alias.address.address, alias.address.name,
                    alias.isPrimary,
                ])
        }
        aliasCache[account] = nil
    }

    /// Adds aliases, keeping the ones already stored (import's `--me`; sync replaces the whole set).
    public func addAliases(_ aliases: [AliasInput], to account: AccountID) throws {
        for alias in aliases {
            try db.execute(
                sql: """
                    INSERT INTO account_alias (account_id, address_normalized, address, display_name, is_primary)
                    VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, address_normalized) DO NOTHING
                    """,
                arguments: [
                    account, alias.address.normalizedAddress, alias.address.address, alias.address.name,
                    alias.isPrimary,
                ])
        }
        aliasCache[account] = nil
    }

    /// The normalized addresses of an account (`?1`): its own address and every alias.
    static let aliasesSQL = """
        SELECT email_normalized FROM account WHERE id = ?1
        UNION SELECT address_normalized FROM account_alias WHERE account_id = ?1
        """

    /// The normalized addresses that are "me": the account's own address and every alias.
    public func aliases(of account: AccountID) throws -> Set<String> {
        if let cached = aliasCache[account] { return cached }
        let rows = try String.fetchAll(db, sql: Self.aliasesSQL, arguments: [account])
        let aliases = Set(rows)
        aliasCache[account] = aliases
        return aliases
    }

    /// Records the history id whose changes are all stored, and when the sync finished.
    ///
    /// Call it in the same transaction as the changes it covers: a crash between the two would make
    /// the next incremental sync skip changes.
    public func commitHistoryID(_ historyID: UInt64, for account: AccountID) throws {
        try db.execute(
            sql: "UPDATE account SET history_id = ?, last_sync_at_ms = ? WHERE id = ?",
            arguments: [String(historyID), nowMs, account])
    }

    // MARK: Labels

    /// Inserts or renames a label.
    public func upsertLabel(gmailID: String, name: String, type: LabelType, in account: AccountID) throws {
        try db.execute(
            sql: """
                INSERT INTO label (account_id, gmail_id, name, type) VALUES (?, ?, ?, ?)
                ON CONFLICT (account_id, gmail_id) DO UPDATE SET name = excluded.name, type = excluded.type
                """,
            arguments: [account, gmailID, name, type])
        labelRowCache[account]?[gmailID] = nil
    }

    /// The row id of a label, creating a placeholder named after its id when Gmail mentions a label we
    /// have not listed yet (the next label sync gives it its real name).
    func labelRowID(for gmailID: String, in account: AccountID) throws -> Int64 {
        if let id = labelRowCache[account]?[gmailID] { return id }
        let statement = try db.cachedStatement(sql: "SELECT id FROM label WHERE account_id = ? AND gmail_id = ?")
        let id: Int64
        if let existing = try Int64.fetchOne(statement, arguments: [account, gmailID]) {
            id = existing
        } else {
            try db.execute(
                sql: "INSERT INTO label (account_id, gmail_id, name, type) VALUES (?, ?, ?, ?)",
                arguments: [account, gmailID, gmailID, LabelType(gmailLabelID: gmailID)])
            id = db.lastInsertedRowID
        }
        labelRowCache[account, default: [:]][gmailID] = id
        return id
    }
}
