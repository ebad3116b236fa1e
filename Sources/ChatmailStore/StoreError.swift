import Foundation

/// Errors the store reports, one case per situation a caller must tell apart.
///
/// Messages say what failed and what to do next. Like GRDB, they never include bound values
/// (addresses, bodies), only the names and counts a user needs.
public enum StoreError: Error, Sendable, Equatable {
    /// The schema resource bundle could not be found beside the executable.
    case schemaMissing
    /// The migration files are malformed (a gap, a duplicate number, a bad name).
    case invalidMigrations(String)
    /// Applying migrations failed; the database is unchanged.
    case migrationFailed(String)
    /// The database was written by a newer chatmail, with migrations this build does not know.
    case schemaFromNewerVersion
    /// Another process holds the write lock past the busy timeout.
    case databaseLocked
    /// The database file cannot be opened or is not a chatmail database.
    case unreadableDatabase(path: String, reason: String)
    /// SQLite found the file damaged (a corrupt page, or not a database at all), on opening or in any
    /// later read or write. `reason` is SQLite's own short explanation, never the statement that ran.
    case databaseDamaged(path: String, reason: String)
    /// No account has been set up yet.
    case noAccount
    /// `--account` named an address the store does not know.
    case unknownAccount(String)
    /// Several accounts exist and none was chosen.
    case accountNotChosen(available: [String])
    /// The address is already an account of another kind (a synced Gmail API account cannot become IMAP).
    case providerMismatch(email: String, stored: MailProviderKind)
}

extension StoreError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .schemaMissing:
            "The database schema files are missing beside the chatmail executable; reinstall chatmail or run it from its build folder."
        case .invalidMigrations(let reason):
            "The database schema files are invalid: \(reason)."
        case .migrationFailed(let reason):
            "Could not upgrade the database: \(reason). The database was left unchanged."
        case .schemaFromNewerVersion:
            "The database was created by a newer chatmail. Upgrade chatmail to use it."
        case .databaseLocked:
            "The database is locked by another chatmail process. Wait for it to finish and try again."
        case .unreadableDatabase(let path, let reason):
            "Cannot open the database at \(path): \(reason)."
        case .databaseDamaged(let path, let reason):
            "The database at \(path) is damaged: \(reason); restore a backup, or move it aside and run "
                + "`chatmail login` and `chatmail sync` to download your mail again."
        case .noAccount:
            "No account is set up yet. Run `chatmail login` (Gmail) or `chatmail login --imap ADDRESS --host HOST` first."
        case .unknownAccount(let email):
            "No account \(email) in this chatmail home. Run `chatmail status` to see the accounts."
        case .accountNotChosen(let available):
            "Several accounts exist (\(available.joined(separator: ", "))); choose one with --account."
        case .providerMismatch(let email, let stored):
            "\(email) is already synced here as a \(stored == .gmail ? "Gmail API" : "IMAP") account; use another --home for it."
        }
    }
}
