import Foundation
import GRDB

/// chatmail's SQLite database: one file in WAL mode, migrated on open.
///
/// Writes go through ``write(_:)``, which hands the body a ``StoreTransaction``: everything the body
/// does commits together or not at all. Reads run concurrently with a writer (WAL), so `conversations`
/// and `show` work during a sync.
///
/// ```swift
/// let store = try ChatmailStore(
///     path: home.appending(path: "chatmail.sqlite").path, subjectBase: ReplySubject.topicBase)
/// try store.write { tx in
///     let account = try tx.ensureAccount(email: "me@example.org")
///     let stored = try tx.upsert(message, in: account)
///     try tx.recomputeRollups(for: stored.affectedConversations)
/// }
/// ```
public final class ChatmailStore: Sendable {
    /// Returns the current time in milliseconds since the epoch. Injected so tests control "now".
    public typealias Clock = @Sendable () -> Int64

    /// Returns a subject's base: the subject without its reply and forward prefixes, normalized so that two
    /// messages on one topic have equal bases (MailText's `ReplySubject.topicBase`).
    ///
    /// The rule is injected because it belongs to MailText, which the store does not depend on. The store
    /// applies it once per message, when the message is stored, and keeps the result in
    /// `message.subject_base`, which every reader compares instead of applying a rule of its own.
    public typealias SubjectBase = @Sendable (String) -> String

    /// How long a writer waits for another process's lock before failing with
    /// ``StoreError/databaseLocked``.
    public static let busyTimeoutSeconds: TimeInterval = 5

    let pool: DatabasePool
    let clock: Clock
    let subjectBase: SubjectBase
    /// The database file, named in errors about it.
    public let path: String

    /// Opens (creating if needed) the database at `path`, applies pending migrations and gives the
    /// messages stored before the subject base was kept theirs.
    ///
    /// - Parameter subjectBase: the rule of ``SubjectBase``; every store of one database must be given
    ///   the same rule, or one topic would have two bases.
    /// - throws: ``StoreError`` when the file cannot be opened, is damaged, is locked past the busy
    ///   timeout, or was written by a newer chatmail.
    public init(
        path: String, clock: @escaping Clock = ChatmailStore.systemClock, subjectBase: @escaping SubjectBase
    ) throws(StoreError) {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(Self.busyTimeoutSeconds)
        configuration.label = "chatmail"
        configuration.prepareDatabase { db in
            // In WAL mode NORMAL survives application crashes (kill -9); only an OS crash can lose the
            // last transactions, never corrupt the file.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Checkpoint the WAL every ~16 MiB instead of SQLite's 4 MiB: a sync's batches rewrite the same
            // index pages, and fewer checkpoints copy (and fsync) each page fewer times.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 4000")
        }
        self.path = path
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch let error as DatabaseError {
            if let mapped = StoreError.mapping(error, path: path) { throw mapped }
            throw .unreadableDatabase(path: path, reason: error.message ?? "SQLite error \(error.resultCode.rawValue)")
        } catch {
            throw .unreadableDatabase(path: path, reason: String(describing: error))
        }
        self.clock = clock
        self.subjectBase = subjectBase
        try SchemaMigrator().migrate(pool)
        try SubjectBaseFiller(subjectBase: subjectBase).fill(pool)
    }

    /// The wall clock, in milliseconds since the epoch.
    public static let systemClock: Clock = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// Runs `body` in one write transaction.
    ///
    /// - throws: the body's error (after rolling back), ``StoreError/databaseLocked`` or
    ///   ``StoreError/databaseDamaged(path:reason:)``.
    public func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try mapDatabaseErrors {
            try pool.write { db in try Self.run(body, db: db, clock: clock, subjectBase: subjectBase) }
        }
    }

    /// Runs `body` in one write transaction without blocking the calling task's thread.
    public func write<T: Sendable>(_ body: @escaping @Sendable (StoreTransaction) throws -> T) async throws -> T {
        let (clock, subjectBase) = (self.clock, self.subjectBase)
        return try await mapDatabaseErrorsAsync {
            try await pool.write { db in try Self.run(body, db: db, clock: clock, subjectBase: subjectBase) }
        }
    }

    /// Runs `body`, then the transaction's deferred work (the search index), inside GRDB's transaction.
    private static func run<T>(
        _ body: (StoreTransaction) throws -> T, db: Database, clock: @escaping Clock,
        subjectBase: @escaping SubjectBase
    ) throws -> T {
        let transaction = StoreTransaction(db: db, clock: clock, subjectBase: subjectBase)
        let result = try body(transaction)
        try transaction.finish()
        return result
    }

    /// Runs `body` in a read transaction, a consistent snapshot of the database.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try mapDatabaseErrors { try pool.read(body) }
    }

    /// Turns a lock timeout or a damaged file into its ``StoreError``, whatever query met it: SQLite
    /// finds a corrupt page only when a query reads it, long after the file opened fine.
    private func mapDatabaseErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreError.mapping(error, path: path) ?? error
        }
    }

    private func mapDatabaseErrorsAsync<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError {
            throw StoreError.mapping(error, path: path) ?? error
        }
    }
}
