import GRDB

extension ChatmailStore {
    /// The conversation list, newest first.
    ///
    /// The default (active) list walks the partial index `conversation_active_by_recency`, so archived
    /// conversations cost nothing. Conversations with no visible message (all trashed) are never listed.
    public func conversations(in account: AccountID, filter: ConversationFilter = .init()) throws
        -> [ConversationSummary]
    {
        try read { db in
            let rows = try Row.fetchAll(
                db, sql: Self.listSQL(filter), arguments: ["account": account, "limit": filter.limit ?? -1])
            return try Self.summaries(from: rows, in: db)
        }
    }

    /// The SQL of the conversation list for `filter`, with `:account` and `:limit` arguments.
    ///
    /// Without ANALYZE statistics SQLite rates both recency indexes alike and may pick the full one for
    /// the active list, walking archived rows too; the active list therefore names its partial index.
    package static func listSQL(_ filter: ConversationFilter) -> String {
        var conditions = ["account_id = :account", "message_count > 0"]
        var index = "conversation_by_recency"
        switch filter.visibility {
        case .active:
            conditions.append("archived_at_ms IS NULL")
            index = "conversation_active_by_recency"
        case .archived:
            conditions.append("archived_at_ms IS NOT NULL")
        case .all:
            break
        }
        switch filter.kind {
        case .any: break
        case .people: conditions.append("is_newsletter = 0")
        case .newsletters: conditions.append("is_newsletter = 1")
        }
        if filter.unreadOnly { conditions.append("unread_count > 0") }
        return """
            SELECT * FROM conversation INDEXED BY \(index) WHERE \(conditions.joined(separator: " AND "))
            ORDER BY last_message_at_ms DESC, id DESC LIMIT :limit
            """
    }

    /// One conversation by id, or `nil`.
    public func conversation(_ id: ConversationID) throws -> ConversationSummary? {
        try read { db in
            try Self.summaries(
                from: Row.fetchAll(db, sql: "SELECT * FROM conversation WHERE id = ?", arguments: [id]), in: db
            ).first
        }
    }

    /// Builds summaries from `conversation` rows, loading all their participants in one query.
    static func summaries(from rows: [Row], in db: Database) throws -> [ConversationSummary] {
        guard !rows.isEmpty else { return [] }
        let ids: [ConversationID] = rows.map { $0["id"] }
        let json = "[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]"
        var people: [ConversationID: [EmailAddress]] = [:]
        let participantRows = try Row.fetchCursor(
            db,
            sql: """
                SELECT conversation_id, address, display_name FROM conversation_participant
                WHERE conversation_id IN (SELECT value FROM json_each(?))
                ORDER BY conversation_id, address_normalized
                """,
            arguments: [json])
        while let row = try participantRows.next() {
            people[row["conversation_id"], default: []].append(
                EmailAddress(address: row["address"], name: row["display_name"]))
        }
        return rows.map { row in
            let id: ConversationID = row["id"]
            return ConversationSummary(
                id: id, title: row["title"], participants: people[id] ?? [],
                lastMessageAtMs: row["last_message_at_ms"], snippet: row["snippet"],
                messageCount: row["message_count"], unreadCount: row["unread_count"],
                hasInbox: row["has_inbox"], archivedAtMs: row["archived_at_ms"], isNewsletter: row["is_newsletter"])
        }
    }
}
