import GRDB
import TextSafety

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
    /// FTS5's bm25 score: lower is a better match. 0 when the results are listed newest first because
    /// bm25 weighs every word of the query (almost) zero (see ``ChatmailStore/search(_:in:conversation:limit:)``).
    public var score: Double
}

extension ChatmailStore {
    /// How much a match in the subject weighs against one in the bubble text, for bm25.
    static let subjectWeight = 2.0

    /// Full-text search over subjects and bubble text, best matches first (bm25, subject matches
    /// weighted ×2, the most recently stored first on ties). Trashed and spam messages are left out.
    ///
    /// When every word of a plain query is in at least half of the indexed messages, bm25 itself says
    /// the words tell nothing about which message is meant: its IDF, log((N − n + ½) / (n + ½)), is zero
    /// or below, and FTS5 floors it to 10⁻⁶ only to keep scores from turning negative, so every score is
    /// within a millionth of zero and what order is left is an artefact of that floor. Such a search
    /// lists the newest matches first instead (by date, then the most recently stored), with score 0,
    /// which also spares scoring half the mailbox. FTS5 syntax queries are always ranked by bm25.
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
        return try Self.readingQuery {
            try read { db in try Self.hits(query, account: account, conversation: conversation, limit: limit, db: db) }
        }
    }

    /// The best `limit` hits, as ``search(_:in:conversation:limit:)`` finds them, in a read.
    static func hits(
        _ query: SearchQuery, account: AccountID, conversation: ConversationID?, limit: Int, db: Database
    ) throws -> [SearchHit] {
        let ranked = try rankedMatches(query, account: account, conversation: conversation, limit: limit, db: db)
        guard !ranked.isEmpty else { return [] }
        let conversationIDs = Array(Set(ranked.map(\.conversation)))
        let summaries = try Self.summaries(
            from: Row.fetchAll(
                db, sql: "SELECT * FROM conversation WHERE id IN (SELECT value FROM json_each(?))",
                arguments: ["[" + conversationIDs.map { String($0.rawValue) }.joined(separator: ",") + "]"]),
            in: db)
        let byID = Dictionary(uniqueKeysWithValues: summaries.map { ($0.id, $0) })
        let rows = try markedRows(query, ids: ranked.map(\.id.rawValue), db: db)
        let details = Dictionary(
            rows.map { (MessageID(rawValue: $0["id"]), $0) }, uniquingKeysWith: { first, _ in first })
        return ranked.compactMap { match -> SearchHit? in
            let id = match.id
            guard let conversation = byID[match.conversation], let detail = details[id] else { return nil }
            return SearchHit(
                messageID: id, gmailID: detail["gmail_id"], conversation: conversation,
                from: EmailAddress(authorOf: detail),
                isFromMe: detail["is_from_me"], internalDateMs: detail["internal_date_ms"],
                subject: MarkedText(marked: detail["subject"] ?? ""),
                snippet: MarkedText(marked: detail["snippet"] ?? ""),
                score: match.score)
        }
    }

    /// Runs `body`, turning FTS5's complaints about the query into ``SearchError/badQuery(_:)``.
    static func readingQuery<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where !error.isLockError && error.resultCode == .SQLITE_ERROR {
            // FTS5 reports query syntax as SQLITE_ERROR ("fts5: syntax error near …", "no such column: x").
            var reason = error.message ?? "syntax error"
            if reason.hasPrefix("fts5: ") { reason.removeFirst("fts5: ".count) }
            throw SearchError.badQuery(reason)
        }
    }

    /// The message columns and the marked subject and snippet of the hits `ids`, in any order.
    ///
    /// Each `highlight()`/`snippet()` needs FTS5 positioned on its row. A probe per hit (`rowid = ?`) seeks
    /// every phrase in every index segment: 0.1–0.4 ms a hit on the 100k store. One MATCH pass over the
    /// rowid range the hits span costs in proportion to that span instead (3 ms for 20 hits within the
    /// newest tenth of `this week's news`, against 8–11 ms of probes, but 3–6 ms against 2 ms when the hits of
    /// `"quick note"` span the whole mailbox). So the pass is used when the hits lie within a quarter of the
    /// id space, probes otherwise.
    static func markedRows(_ query: SearchQuery, ids: [Int64], db: Database) throws -> [Row] {
        guard let low = ids.min(), let high = ids.max() else { return [] }
        // char(2) and char(3) are MarkedText's open and close marks.
        let select = """
            SELECT m.id, m.gmail_id, m.from_address, m.from_name, m.is_from_me, m.internal_date_ms,
                   highlight(message_fts, 0, char(2), char(3)) AS subject,
                   snippet(message_fts, 1, char(2), char(3), '…', 16) AS snippet
            FROM message_fts JOIN message m ON m.id = message_fts.rowid
            WHERE message_fts MATCH :query
            """
        let highestID = try Int64.fetchOne(db, sql: "SELECT max(id) FROM message") ?? high
        if high - low <= highestID / 4 {
            return try Row.fetchAll(
                db,
                sql: select
                    + " AND message_fts.rowid BETWEEN :low AND :high AND +message_fts.rowid IN (SELECT value FROM json_each(:ids))",
                arguments: [
                    "query": query.expression, "low": low, "high": high,
                    "ids": "[" + ids.map(String.init).joined(separator: ",") + "]",
                ])
        }
        let probe = try db.cachedStatement(sql: select + " AND message_fts.rowid = :id")
        return try ids.compactMap { try Row.fetchOne(probe, arguments: ["query": query.expression, "id": $0]) }
    }

    /// The account's messages (`m`, account `:account`) a search may show: not trashed, not spam. Trash
    /// and spam are few: their message ids are collected once, not looked up per match.
    static let visibleMatchSQL = """
        m.account_id = :account
        AND m.id NOT IN (SELECT ml.message_id FROM message_label ml
                         WHERE ml.label_id IN (SELECT id FROM label WHERE account_id = :account AND gmail_id IN ('TRASH', 'SPAM')))
        """

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
        if let newest = try newestMatchesWhenUninformative(
            query, account: account, conversation: conversation, limit: limit, db: db)
        {
            return newest
        }
        let bm25 = "bm25(message_fts, \(subjectWeight), 1.0)"
        if conversation == nil {
            let candidateCount = limit * 2 + 16
            let candidates = try Row.fetchAll(
                db,
                sql:
                    "SELECT rowid AS id, \(bm25) AS score FROM message_fts WHERE message_fts MATCH ? ORDER BY score, rowid DESC LIMIT ?",
                arguments: [query.expression, candidateCount])
            var order: [MessageID: (rank: Int, score: Double)] = [:]
            for (rank, row) in candidates.enumerated() { order[row["id"]] = (rank, row["score"]) }
            let kept = try Row.fetchAll(
                db,
                // CROSS JOIN keeps the few candidate ids as the outer loop; otherwise SQLite walks every message
                // of the account through the (account_id, gmail_id) index.
                sql: """
                    SELECT m.id, m.conversation_id FROM json_each(:ids) AS candidate CROSS JOIN message m ON m.id = candidate.value
                    WHERE \(visibleMatchSQL)
                    """,
                arguments: [
                    "ids": "[" + order.keys.map { String($0.rawValue) }.joined(separator: ",") + "]",
                    "account": account,
                ]
            ).compactMap { row -> (rank: Int, match: RankedMatch)? in
                guard let place = order[row["id"]] else { return nil }
                return (
                    place.rank, RankedMatch(id: row["id"], conversation: row["conversation_id"], score: place.score)
                )
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
                WHERE message_fts MATCH :query AND \(visibleMatchSQL)
                  \(conversation == nil ? "" : "AND m.conversation_id = :conversation")
                ORDER BY score, m.id DESC
                LIMIT :limit
                """,
            arguments: ["query": query.expression, "account": account, "conversation": conversation, "limit": limit]
        ).map { RankedMatch(id: $0["id"], conversation: $0["conversation_id"], score: $0["score"]) }
    }

    /// The newest `limit` visible matches when bm25 would weigh every phrase of `query` (almost) zero
    /// (each is in at least half of the indexed messages); nil when bm25 should rank.
    ///
    /// FTS5 has no date, and joining every match to `message` for its date costs as much as bm25 (30–45 ms
    /// for 54,000 matches), so the match ids are collected (ascending) and conversations are walked from the
    /// most recent, each one's messages newest first through `message_by_conversation_date`. A conversation's
    /// `last_message_at_ms` is the date of its newest visible message, so the walk stops at the first
    /// conversation older than the `limit`-th match found. (While a first sync still defers its rollups, a
    /// conversation not rolled up yet can be reached late.)
    static func newestMatchesWhenUninformative(
        _ query: SearchQuery, account: AccountID, conversation: ConversationID?, limit: Int, db: Database
    ) throws -> [RankedMatch]? {
        guard let phrases = query.phrases, let first = phrases.first else { return nil }
        // IDF ≤ 0 ⇔ N − n + ½ ≤ n + ½ ⇔ N ≤ 2n, where N is the number of indexed rows (one docsize row each).
        // Counting at most 2n + 1 of those rows settles it, which is cheap exactly when n is small.
        let docsize = try db.cachedStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM message_fts_docsize LIMIT ?)")
        // N when N ≤ 2n (all rows were counted), else nil.
        func broadIndexedCount(_ n: Int) throws -> Int? {
            guard n > 0 else { return nil }
            let indexed = try Int.fetchOne(docsize, arguments: [2 * n + 1]) ?? 0
            return indexed <= 2 * n ? indexed : nil
        }
        // Ascending (FTS5's own order), so membership is a binary search.
        func allMatches() throws -> [Int64] {
            try Array(
                Int64.fetchCursor(
                    db, sql: "SELECT rowid FROM message_fts WHERE message_fts MATCH ? ORDER BY rowid",
                    arguments: [query.expression]))
        }
        let matching: [Int64]
        if phrases.count == 1 {
            // The matches are the count.
            matching = try allMatches()
            guard try broadIndexedCount(matching.count) != nil else { return nil }
        } else {
            // The first phrase is counted in full; only when it is broad do the others need N, and are
            // counted up to N/2.
            let count = try db.cachedStatement(sql: "SELECT count(*) FROM message_fts WHERE message_fts MATCH ?")
            guard let indexed = try broadIndexedCount(Int.fetchOne(count, arguments: [first]) ?? 0) else { return nil }
            let half = (indexed + 1) / 2
            let counter = try db.cachedStatement(
                sql: "SELECT count(*) FROM (SELECT 1 FROM message_fts WHERE message_fts MATCH ? LIMIT ?)")
            for phrase in phrases.dropFirst() where (try Int.fetchOne(counter, arguments: [phrase, half]) ?? 0) < half {
                return nil
            }
            matching = try allMatches()
        }
        var hiddenIDs = Set<Int64>()
        let hidden = try Int64.fetchCursor(
            db,
            sql: """
                SELECT ml.message_id FROM message_label ml
                WHERE ml.label_id IN (SELECT id FROM label WHERE account_id = ? AND gmail_id IN ('TRASH', 'SPAM'))
                """,
            arguments: [account])
        while let id = try hidden.next() { hiddenIDs.insert(id) }
        let conversations = try Row.fetchCursor(
            db,
            sql: "SELECT id, last_message_at_ms FROM conversation WHERE account_id = :account "
                + (conversation == nil ? "ORDER BY last_message_at_ms DESC, id DESC" : "AND id = :conversation"),
            arguments: ["account": account, "conversation": conversation])
        let messages = try db.cachedStatement(
            sql:
                "SELECT id, internal_date_ms FROM message WHERE conversation_id = ? ORDER BY internal_date_ms DESC, id DESC"
        )
        // Matches found so far, unordered; sorted and cut to `limit` whenever they reach `limit` for the first
        // time or twice that (so a huge --limit costs n log n, not an insertion per match). `cutoff` is the
        // `limit`-th newest (date, id) at the last cut: nothing older can be among the results.
        var found: [(match: RankedMatch, date: Int64)] = []
        var cutoff: (date: Int64, id: Int64)?
        func cut() {
            found.sort { ($0.date, $0.match.id.rawValue) > ($1.date, $1.match.id.rawValue) }
            if found.count >= limit {
                found.removeLast(found.count - limit)
                cutoff = (found[limit - 1].date, found[limit - 1].match.id.rawValue)
            }
        }
        while let row = try conversations.next() {
            let conversationID: ConversationID = row["id"]
            let lastMs: Int64 = row["last_message_at_ms"]
            if let cutoff, lastMs < cutoff.date { break }  // every later conversation is older still
            let cursor = try Row.fetchCursor(messages, arguments: [conversationID])
            while let message = try cursor.next() {
                let id: Int64 = message["id"]
                let date: Int64 = message["internal_date_ms"]
                if let cutoff, (date, id) < cutoff { break }  // the rest of this conversation is older still
                guard !hiddenIDs.contains(id), matching.containsSorted(id) else { continue }
                found.append((RankedMatch(id: MessageID(rawValue: id), conversation: conversationID, score: 0), date))
                if (cutoff == nil && found.count == limit) || found.count >= 2 * limit { cut() }
            }
        }
        cut()
        return found.map(\.match)
    }
}

extension [Int64] {
    /// Whether this ascending array holds `value` (binary search).
    fileprivate func containsSorted(_ value: Int64) -> Bool {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < endIndex && self[low] == value
    }
}
