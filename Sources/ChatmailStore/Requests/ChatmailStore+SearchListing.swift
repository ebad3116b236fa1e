import GRDB

extension ChatmailStore {
    /// The search as ``search(_:in:conversation:limit:)`` ranks it, at most `limit` hits (nil: every
    /// match), and how many more visible messages match.
    ///
    /// The matches are counted only when the hits reach the limit: the count joins every match to
    /// `message`, which is what the ranking takes pains to avoid (see
    /// ``rankedMatches(_:account:conversation:limit:db:)``), so a search that found fewer pays nothing.
    /// Without a limit the count comes first and is the limit, so the ranking takes its usual path.
    /// - throws: ``SearchError/badQuery(_:)`` when FTS5 rejects the query.
    public func searchList(
        _ query: SearchQuery, in account: AccountID, conversation: ConversationID? = nil, limit: Int?
    ) throws -> LimitedList<SearchHit> {
        if let limit { precondition(limit > 0, "A search needs a positive limit, not \(limit)") }
        return try Self.readingQuery {
            try read { db in
                let count = {
                    try Self.visibleMatchCount(query, account: account, conversation: conversation, db: db)
                }
                guard let limit else {
                    let total = try count()
                    guard total > 0 else { return LimitedList(items: []) }
                    return LimitedList(
                        items: try Self.hits(
                            query, account: account, conversation: conversation, limit: total, db: db))
                }
                let hits = try Self.hits(query, account: account, conversation: conversation, limit: limit, db: db)
                return try LimitedList.cut(hits, limit: limit, total: count)
            }
        }
    }

    /// How many visible messages (of `conversation`, when given) match `query`.
    static func visibleMatchCount(
        _ query: SearchQuery, account: AccountID, conversation: ConversationID?, db: Database
    ) throws -> Int {
        try Int.fetchOne(
            db,
            sql: """
                SELECT count(*) FROM message_fts JOIN message m ON m.id = message_fts.rowid
                WHERE message_fts MATCH :query AND \(visibleMatchSQL)
                  \(conversation == nil ? "" : "AND m.conversation_id = :conversation")
                """,
            arguments: ["query": query.expression, "account": account, "conversation": conversation]) ?? 0
    }
}
