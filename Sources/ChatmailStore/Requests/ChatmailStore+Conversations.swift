import GRDB

extension ChatmailStore {
    /// The conversation list, newest first.
    ///
    /// The default (active) list walks the partial index `conversation_active_by_recency`, so archived
    /// conversations cost nothing. Conversations with no visible message (all trashed) are never listed.
    /// Whether the screener holds conversations back from the main list is the account's setting.
    public func conversations(in account: AccountID, filter: ConversationFilter = .init()) throws
        -> [ConversationSummary]
    {
        try read { db in try Self.summaries(from: Self.listRows(account, filter, in: db), in: db) }
    }

    /// The conversation list as ``conversations(in:filter:)`` reads it, and how many more conversations
    /// the filter's limit left out: counted only when the list reaches the limit.
    public func conversationList(in account: AccountID, filter: ConversationFilter = .init()) throws
        -> LimitedList<ConversationSummary>
    {
        try read { db in
            let rows = try Self.listRows(account, filter, in: db)
            return try LimitedList.cut(Self.summaries(from: rows, in: db), limit: filter.limit) {
                let screening = try filter.section == .main && Self.screenerEnabled(account, in: db)
                return try Int.fetchOne(
                    db, sql: "SELECT count(*) " + Self.listFromSQL(filter, screening: screening),
                    arguments: ["account": account]) ?? 0
            }
        }
    }

    /// The rows of the conversation list for `filter`.
    private static func listRows(_ account: AccountID, _ filter: ConversationFilter, in db: Database) throws -> [Row] {
        let screening = try filter.section == .main && screenerEnabled(account, in: db)
        return try Row.fetchAll(
            db, sql: listSQL(filter, screening: screening),
            arguments: ["account": account, "limit": filter.limit ?? -1])
    }

    /// The SQL of the conversation list for `filter`, with `:account` and `:limit` arguments; with
    /// `screening`, the main list leaves out what the screener holds.
    ///
    /// Without ANALYZE statistics SQLite rates both recency indexes alike and may pick the full one for
    /// the active list, walking archived rows too; the active list therefore names its partial index.
    package static func listSQL(_ filter: ConversationFilter, screening: Bool = false) -> String {
        "SELECT * " + listFromSQL(filter, screening: screening)
            + " ORDER BY last_message_at_ms DESC, id DESC LIMIT :limit"
    }

    /// The FROM and WHERE clauses of ``listSQL(_:screening:)``, which the list and its count share.
    static func listFromSQL(_ filter: ConversationFilter, screening: Bool) -> String {
        var conditions = ["account_id = :account", "message_count > 0"]
        switch filter.section {
        case .main:
            conditions.append("is_filtered = 0")
            if screening { conditions.append("NOT \(heldByScreenerSQL)") }
        case .filtered:
            conditions.append("is_filtered = 1")
        case .screener:
            conditions.append("is_filtered = 0")
            conditions.append(heldByScreenerSQL)
        }
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
        switch filter.lists {
        case .included: break
        case .excluded: conditions.append("list_id IS NULL")
        case .only: conditions.append("list_id IS NOT NULL")
        }
        if filter.unreadOnly { conditions.append("unread_count > 0") }
        return "FROM conversation INDEXED BY \(index) WHERE \(conditions.joined(separator: " AND "))"
    }

    /// One conversation by id, or `nil`.
    public func conversation(_ id: ConversationID) throws -> ConversationSummary? {
        try read { db in
            try Self.summaries(
                from: Row.fetchAll(db, sql: "SELECT * FROM conversation WHERE id = ?", arguments: [id]), in: db
            ).first
        }
    }

    /// Builds summaries from `conversation` rows, loading all their participants in one query, and the
    /// lists' details and newest senders in another.
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
                EmailAddress(row, address: "address", name: "display_name"))
        }
        let lists = try listDetails(of: rows.filter { $0["list_id"] != nil }.map { $0["id"] }, in: db)
        return rows.map { row in
            let id: ConversationID = row["id"]
            return ConversationSummary(
                id: id, title: row["title"], participants: people[id] ?? [],
                lastMessageAtMs: row["last_message_at_ms"], snippet: row["snippet"],
                messageCount: row["message_count"], unreadCount: row["unread_count"],
                hasInbox: row["has_inbox"], archivedAtMs: row["archived_at_ms"], isNewsletter: row["is_newsletter"],
                list: lists[id]?.list, lastSender: lists[id]?.lastSender)
        }
    }

    /// The list and newest visible message's sender of the list conversations among `?` (a JSON array of
    /// ids). The sender is found by walking `message_by_conversation_date` back past trashed and spam
    /// messages: one index probe per list shown, however long the list's history.
    package static let listDetailsSQL = """
        SELECT c.id, c.list_id, ml.name, ml.post_address, ml.is_read_only,
               n.from_address, n.from_name, n.is_from_me
        FROM conversation c
        LEFT JOIN mailing_list ml ON ml.account_id = c.account_id AND ml.list_id = c.list_id
        LEFT JOIN message n ON n.id = (
            SELECT m.id FROM message m WHERE m.conversation_id = c.id
              AND NOT EXISTS (SELECT 1 FROM message_label x JOIN label l ON l.id = x.label_id
                              WHERE x.message_id = m.id AND l.gmail_id IN ('TRASH', 'SPAM'))
            ORDER BY m.internal_date_ms DESC, m.id DESC LIMIT 1)
        WHERE c.id IN (SELECT value FROM json_each(?)) AND c.list_id IS NOT NULL
        """

    /// The list and the newest visible message's sender of each list conversation among `ids`.
    private static func listDetails(of ids: [ConversationID], in db: Database) throws
        -> [ConversationID: (list: MailingList, lastSender: LastSender?)]
    {
        guard !ids.isEmpty else { return [:] }
        let json = "[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]"
        var details: [ConversationID: (list: MailingList, lastSender: LastSender?)] = [:]
        let rows = try Row.fetchCursor(db, sql: listDetailsSQL, arguments: [json])
        while let row = try rows.next() {
            let readOnly: Bool = row["is_read_only"] ?? false
            let list = MailingList(
                id: row["list_id"], postAddress: readOnly ? nil : row["post_address"], name: row["name"])
            let sender = (row["from_address"] as String?).map {
                LastSender(from: EmailAddress(address: $0, name: row["from_name"]), isFromMe: row["is_from_me"])
            }
            details[row["id"]] = (list, sender)
        }
        return details
    }
}
