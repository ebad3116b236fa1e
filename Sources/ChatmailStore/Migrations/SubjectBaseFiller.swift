import GRDB

/// Computes `message.subject_base` for the messages that have none: those stored before the column was
/// added (migration 015).
///
/// The migrations are SQL, and the prefix rule is not, so the migration adds the column and this fills
/// it. ``ChatmailStore`` runs it right after migrating, so no reader meets a message without its base.
struct SubjectBaseFiller: Sendable {
    let subjectBase: ChatmailStore.SubjectBase

    /// Fills every missing base in one transaction.
    ///
    /// A read comes first, through the partial index of the messages without a base: on every open after
    /// the first it finds none, and no write lock is taken (as in ``SchemaMigrator/migrate(_:)``).
    /// - throws: ``StoreError`` for a lock held past the busy timeout or a damaged file, or
    ///   ``StoreError/migrationFailed(_:)``.
    func fill(_ writer: some DatabaseWriter) throws(StoreError) {
        do {
            let missing = try writer.read { db in
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM message WHERE subject_base IS NULL)")
            }
            guard missing == true else { return }
            try writer.write { db in
                // Read every row before the first update: changing rows under an open cursor over the same
                // index is undefined in SQLite.
                let rows = try Row.fetchAll(db, sql: "SELECT id, subject FROM message WHERE subject_base IS NULL")
                let update = try db.cachedStatement(sql: "UPDATE message SET subject_base = ? WHERE id = ?")
                for row in rows {
                    try update.execute(arguments: [subjectBase(row["subject"]), row["id"] as Int64])
                }
            }
        } catch let error as DatabaseError {
            if let mapped = StoreError.mapping(error, path: writer.path) { throw mapped }
            throw .migrationFailed(error.message ?? "SQLite error \(error.resultCode.rawValue)")
        } catch {
            throw .migrationFailed(String(describing: error))
        }
    }
}
