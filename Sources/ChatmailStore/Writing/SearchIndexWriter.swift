import GRDB

/// Keeps the external-content FTS5 table `message_fts` in step with `message`, for one transaction.
///
/// External-content FTS5 tables must be told about every change, with the OLD values for removals,
/// or the index silently returns wrong rows. The rules this type keeps:
///
/// - a new message is queued, and all queued messages are indexed by one statement in ``flush()``
///   (FTS5 writes a segment per statement, so one statement per transaction keeps the index compact);
/// - before a stored message's text changes or the message is deleted, its entry is removed using the
///   values still in `message`, unless it is only queued, in which case it just stays queued (update)
///   or leaves the queue (delete): removing an entry that was never added would corrupt the index.
struct SearchIndexWriter {
    private(set) var queued: Set<MessageID> = []

    mutating func messageInserted(_ id: MessageID) {
        queued.insert(id)
    }

    /// Call BEFORE the message row is updated.
    mutating func messageWillChange(_ id: MessageID, in db: Database) throws {
        guard !queued.contains(id) else { return }
        try removeEntry(of: id, in: db)
        queued.insert(id)
    }

    /// Call BEFORE the message row is deleted.
    mutating func messageWillBeDeleted(_ id: MessageID, in db: Database) throws {
        if queued.remove(id) == nil {
            try removeEntry(of: id, in: db)
        }
    }

    /// Indexes every queued message with its current text.
    mutating func flush(in db: Database) throws {
        guard !queued.isEmpty else { return }
        let ids = "[" + queued.map { String($0.rawValue) }.joined(separator: ",") + "]"
        try db.execute(
            sql: """
                INSERT INTO message_fts (rowid, subject, body_text)
                SELECT id, subject, body_text FROM message WHERE id IN (SELECT value FROM json_each(?))
                """,
            arguments: [ids])
        queued.removeAll()
    }

    private func removeEntry(of id: MessageID, in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO message_fts (message_fts, rowid, subject, body_text)
                SELECT 'delete', id, subject, body_text FROM message WHERE id = ?
                """
        ).execute(arguments: [id])
    }
}
