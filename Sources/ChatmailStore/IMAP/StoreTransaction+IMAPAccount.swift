import GRDB

extension StoreTransaction {
    /// Creates (or updates) an IMAP account with its connection settings and aliases; what `login --imap`
    /// stores once the server has accepted the login.
    ///
    /// - throws: ``StoreError/providerMismatch(email:stored:)`` when the address is already a Gmail API account.
    @discardableResult
    public func saveIMAPAccount(
        email: String, settings: IMAPAccountSettings, aliases: [EmailAddress]
    ) throws -> AccountID {
        let account = try ensureAccount(email: email)
        let provider = try MailProviderKind.fetchOne(
            db, sql: "SELECT provider FROM account WHERE id = ?", arguments: [account])
        let hasHistory =
            try Bool.fetchOne(
                db, sql: "SELECT history_id IS NOT NULL FROM account WHERE id = ?", arguments: [account]) ?? false
        if provider == .gmail, hasHistory {
            throw StoreError.providerMismatch(email: email, stored: .gmail)
        }
        try db.execute(sql: "UPDATE account SET provider = 'imap' WHERE id = ?", arguments: [account])
        try db.execute(
            sql: """
                INSERT INTO imap_account (account_id, host, port, security, login, password_command, token_command,
                    smtp_host, smtp_port, smtp_security, sent_copy)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (account_id) DO UPDATE SET host = excluded.host, port = excluded.port,
                    security = excluded.security, login = excluded.login, password_command = excluded.password_command,
                    token_command = excluded.token_command, smtp_host = excluded.smtp_host,
                    smtp_port = excluded.smtp_port, smtp_security = excluded.smtp_security,
                    sent_copy = excluded.sent_copy
                """,
            arguments: [
                account, settings.host, settings.port, settings.security, settings.login, settings.passwordCommand,
                settings.tokenCommand, settings.smtpHost, settings.smtpPort, settings.smtpSecurity, settings.sentCopy,
            ])
        let own = [EmailAddress(address: email)] + aliases
        try replaceAliases(
            own.enumerated().map { AliasInput(address: $0.element, isPrimary: $0.offset == 0) }, for: account)
        return account
    }

    /// The connection settings of an IMAP account; `nil` for a Gmail API account.
    public func imapSettings(of account: AccountID) throws -> IMAPAccountSettings? {
        try Self.imapSettings(of: account, in: db)
    }

    static func imapSettings(of account: AccountID, in db: Database) throws -> IMAPAccountSettings? {
        guard
            let row = try Row.fetchOne(db, sql: "SELECT * FROM imap_account WHERE account_id = ?", arguments: [account])
        else { return nil }
        return IMAPAccountSettings(
            host: row["host"], port: row["port"], security: row["security"], login: row["login"],
            passwordCommand: row["password_command"], tokenCommand: row["token_command"], smtpHost: row["smtp_host"],
            smtpPort: row["smtp_port"], smtpSecurity: row["smtp_security"], sentCopy: row["sent_copy"])
    }
}

extension ChatmailStore {
    /// The connection settings of an IMAP account; `nil` for a Gmail API account.
    public func imapSettings(of account: AccountID) throws -> IMAPAccountSettings? {
        try read { db in try StoreTransaction.imapSettings(of: account, in: db) }
    }
}
