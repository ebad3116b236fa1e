import GRDB

/// Text with the parts that matched a search marked.
public struct MarkedText: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        public var text: String
        public var isMatch: Bool

        public init(text: String, isMatch: Bool) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    public var segments: [Segment]

    public init(segments: [Segment]) {
        self.segments = segments
    }

    /// The text without marks.
    public var plain: String { segments.map(\.text).joined() }

    /// FTS5 wraps matches in these (control characters never survive the text pipeline, so they cannot
    /// come from the mail itself; any that did would only split a segment).
    static let open: Character = "\u{2}", close: Character = "\u{3}"

    init(marked: String) {
        var segments: [Segment] = []
        var current = ""
        var inMatch = false
        for character in marked {
            if character == Self.open || character == Self.close {
                if !current.isEmpty { segments.append(Segment(text: current, isMatch: inMatch)) }
                current = ""
                inMatch = character == Self.open
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { segments.append(Segment(text: current, isMatch: inMatch)) }
        self.segments = segments
    }
}

/// One message that matched a search.
public struct SearchHit: Sendable, Equatable {
    public var messageID: MessageID
    public var gmailID: String
    public var conversation: ConversationSummary
    public var from: EmailAddress
    public var isFromMe: Bool
    public var internalDateMs: Int64
    /// The whole subject, matches marked.
    public var subject: MarkedText
    /// A few words of the bubble text around the best match, matches marked.
    public var snippet: MarkedText
    /// FTS5's bm25 score: lower is a better match.
    public var score: Double
}

extension ChatmailStore {
    /// How much a match in the subject weighs against one in the bubble text, for bm25.
    static let subjectWeight = 2.0

    /// Full-text search over subjects and bubble text, best matches first (bm25, subject matches
    /// weighted ×2, the most recently stored first on ties). Trashed and spam messages are left out.
    ///
    /// Runs in two steps so the costly `snippet()` is computed only for the rows shown: first the ids
    /// and scores of the best `limit` matches (see ``rankedMatches(_:account:conversation:limit:db:)``),
    /// then the marked text of those.
    ///
    /// - Parameter conversation: only messages of this conversation (`search --person`).
    /// - throws: ``SearchError/badQuery(_:)`` when FTS5 rejects the query.
    public func search(
        _ query: SearchQuery, in account: AccountID, conversation: ConversationID? = nil, limit: Int = 20
    ) throws -> [SearchHit] {
        precondition(limit > 0, "A search needs a positive limit, not \(limit)")
        do {
            return try read { db in
                let ranked = try Self.rankedMatches(query, account: account, conversation: conversation, limit: limit, db: db)
                guard !ranked.isEmpty else { return [] }
                let conversationIDs = Array(Set(ranked.map(\.conversation)))
                let summaries = try Self.summaries(
                    from: Row.fetchAll(
                        db, sql: "SELECT * FROM conversation WHERE id IN (SELECT value FROM json_each(?))",
                        arguments: ["[" + conversationIDs.map { String($0.rawValue) }.joined(separator: ",") + "]"]),
                    in: db)
                let byID = Dictionary(uniqueKeysWithValues: summaries.map { ($0.id, $0) })
                let details = try db.cachedStatement(sql: """
                    SELECT m.gmail_id, m.from_address, m.from_name, m.is_from_me, m.internal_date_ms,
                           highlight(message_fts, 0, char(2), char(3)) AS subject,
                           snippet(message_fts, 1, char(2), char(3), '…', 16) AS snippet
                    FROM message_fts JOIN message m ON m.id = message_fts.rowid
                    WHERE message_fts MATCH ? AND message_fts.rowid = ?
                    """)
                return try ranked.compactMap { match -> SearchHit? in
                    let id = match.id
                    guard let conversation = byID[match.conversation],
                          let detail = try Row.fetchOne(details, arguments: [query.expression, id])
                    else { return nil }
                    return SearchHit(
                        messageID: id, gmailID: detail["gmail_id"], conversation: conversation,
                        from: EmailAddress(address: detail["from_address"], name: detail["from_name"]),
                        isFromMe: detail["is_from_me"], internalDateMs: detail["internal_date_ms"],
                        subject: MarkedText(marked: detail["subject"] ?? ""), snippet: MarkedText(marked: detail["snippet"] ?? ""),
                        score: match.score)
                }
            }
        } catch let error as DatabaseError where !error.isLockError && error.resultCode == .SQLITE_ERROR {
            // FTS5 reports query syntax as SQLITE_ERROR ("fts5: syntax error near …", "no such column: x").
            var reason = error.message ?? "syntax error"
            if reason.hasPrefix("fts5: ") { reason.removeFirst("fts5: ".count) }
            throw SearchError.badQuery(reason)
        }
    }
    struct RankedMatch {
        var id: MessageID
        var conversation: ConversationID
        var score: Double
    }

    /// The best `limit` visible matches, best first; equal scores put the most recently stored first.
    ///
    /// bm25 has to score every match, and for a common word that is half the mailbox; joining each of
    /// those rows to `message` and its labels cost more than the scoring itself (140 ms against 53 ms
    /// for 54,000 matches). So without a conversation filter FTS5 first ranks on its own, by score and
    /// then rowid (its own order, so the cut is exact even among equal scores), and only a few more
    /// candidates than needed are checked against the account and the trash. Only when too few of them
    /// survive does the full query decide.
    static func rankedMatches(
        _ query: SearchQuery, account: AccountID, conversation: ConversationID?, limit: Int, db: Database
    ) throws -> [RankedMatch] {
        // Trash and spam are few: their message ids are collected once, not looked up per match.
        let visible = """
            m.account_id = :account
            AND m.id NOT IN (SELECT ml.message_id FROM message_label ml
                             WHERE ml.label_id IN (SELECT id FROM label WHERE account_id = :account AND gmail_id IN ('TRASH', 'SPAM')))
            """
        let bm25 = "bm25(message_fts, \(subjectWeight), 1.0)"
        if conversation == nil {
            let candidateCount = limit * 2 + 16
            let candidates = try Row.fetchAll(
                db,
                sql: "SELECT rowid AS id, \(bm25) AS score FROM message_fts WHERE message_fts MATCH ? ORDER BY score, rowid DESC LIMIT ?",
                arguments: [query.expression, candidateCount])
            var order: [MessageID: (rank: Int, score: Double)] = [:]
            for (rank, row) in candidates.enumerated() { order[row["id"]] = (rank, row["score"]) }
            let kept = try Row.fetchAll(
                db,
                // CROSS JOIN keeps the few candidate ids as the outer loop; otherwise SQLite walks every message
                // of the account through the (account_id, gmail_id) index.
                sql: """
                    SELECT m.id, m.conversation_id FROM json_each(:ids) AS candidate CROSS JOIN message m ON m.id = candidate.value
                    WHERE \(visible)
                    """,
                arguments: ["ids": "[" + order.keys.map { String($0.rawValue) }.joined(separator: ",") + "]", "account": account]
            ).compactMap { row -> (rank: Int, match: RankedMatch)? in
                guard let place = order[row["id"]] else { return nil }
                return (place.rank, RankedMatch(id: row["id"], conversation: row["conversation_id"], score: place.score))
            }.sorted { $0.rank < $1.rank }.map(\.match)
            // Every match that was not a candidate ranks below all candidates, so enough survivors (or no
            // more matches) settle it.
            if kept.count >= limit || candidates.count < candidateCount {
                return Array(kept.prefix(limit))
            }
        }
        return try Row.fetchAll(
            db,
            sql: """
                SELECT m.id, m.conversation_id, \(bm25) AS score
                FROM message_fts JOIN message m ON m.id = message_fts.rowid
                WHERE message_fts MATCH :query AND \(visible)
                  \(conversation == nil ? "" : "AND m.conversation_id = :conversation")
                ORDER BY score, m.id DESC
                LIMIT :limit
                """,
            arguments: ["query": query.expression, "account": account, "conversation": conversation, "limit": limit]
        ).map { RankedMatch(id: $0["id"], conversation: $0["conversation_id"], score: $0["score"]) }
    }
}
