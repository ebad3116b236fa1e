import GRDB

extension StoreTransaction {
    /// Recomputes the rollup columns of exactly the given conversations, with SQL aggregates, inside
    /// this transaction. Every other conversation is left untouched, so the cost of a sync grows with
    /// the number of conversations it changed, not with the mailbox.
    ///
    /// Messages labelled TRASH or SPAM are not part of a conversation's visible rollups. The rules:
    ///
    /// - `last_message_at_ms`: the newest visible message's internal date.
    /// - `snippet`: the newest visible message's text, or its subject when it is a newsletter
    ///   (falling back to Gmail's snippet, then the subject, when the text is empty).
    /// - `message_count`: visible messages.
    /// - `unread_count`: visible messages that are both UNREAD and in INBOX, and not muted by a rule.
    /// - `has_inbox`: some visible message is in INBOX.
    /// - `archived_at_ms`: NULL while a message is in INBOX, or when every message is from me (a
    ///   sent-only conversation stays visible); otherwise the time it was first seen archived.
    /// - `is_newsletter`: every visible message is a newsletter (my reply makes it a conversation).
    /// - `is_filtered`: it has visible incoming mail, all of it denied by rules (my own mail is not
    ///   judged, so what I wrote does not keep a denied sender's conversation in view).
    /// - `is_allowed`: an allow rule decides some visible message, which lets it past the screener.
    /// - participants' `display_name`: the name on the newest message that carries one.
    /// - `title`: rebuilt from those names; a list conversation's is the list's name (or id).
    ///
    /// A conversation left with no message at all is deleted.
    public func recomputeRollups(for conversations: Set<ConversationID>) throws {
        guard !conversations.isEmpty else { return }
        let ids = "[" + conversations.map { String($0.rawValue) }.joined(separator: ",") + "]"
        let labels = try RollupLabels.load(db)
        let arguments: StatementArguments = ["ids": ids, "now": nowMs]
        try db.execute(sql: Self.rollupSQL(labels), arguments: arguments)
        try db.execute(sql: Self.emptyRollupSQL(labels), arguments: arguments)
        let deleted = try ConversationID.fetchAll(
            db,
            sql: """
                DELETE FROM conversation
                WHERE id IN (SELECT value FROM json_each(?))
                  AND NOT EXISTS (SELECT 1 FROM message WHERE message.conversation_id = conversation.id)
                RETURNING id
                """,
            arguments: [ids])
        forgetConversations(Set(deleted))
        try refreshParticipantNames(ids: ids)
        try refreshTitles(ids: ids)
    }

    /// The row ids of the labels rollups look at, in every account.
    ///
    /// Resolving them once lets each per-message check be a direct probe of message_label's primary key
    /// (message_id, label_id) instead of a join through `label` for every message.
    struct RollupLabels {
        var inbox: [Int64] = []
        var unread: [Int64] = []
        var hidden: [Int64] = []

        static func load(_ db: Database) throws -> RollupLabels {
            var labels = RollupLabels()
            for row in try Row.fetchAll(
                db, sql: "SELECT id, gmail_id FROM label WHERE gmail_id IN ('INBOX', 'UNREAD', 'TRASH', 'SPAM')")
            {
                let id: Int64 = row["id"]
                switch row["gmail_id"] as String {
                case "INBOX": labels.inbox.append(id)
                case "UNREAD": labels.unread.append(id)
                default: labels.hidden.append(id)
                }
            }
            return labels
        }
    }

    /// Whether message `m` has one of `labelRows` (integers, so inlining them is safe).
    private static func hasLabel(_ labelRows: [Int64]) -> String {
        guard !labelRows.isEmpty else { return "0" }
        let list = labelRows.map(String.init).joined(separator: ", ")
        return "EXISTS (SELECT 1 FROM message_label ml WHERE ml.message_id = m.id AND ml.label_id IN (\(list)))"
    }

    private static func rollupSQL(_ labels: RollupLabels) -> String {
        """
        WITH visible AS (
            SELECT m.id, m.conversation_id, m.internal_date_ms, m.is_from_me, m.is_newsletter,
                   coalesce(m.rule_action, '') AS rule_action,
                   \(hasLabel(labels.inbox)) AS in_inbox,
                   \(hasLabel(labels.unread)) AS is_unread
            FROM message m
            WHERE m.conversation_id IN (SELECT value FROM json_each(:ids))
              AND NOT \(hasLabel(labels.hidden))
        ),
        aggregate AS (
            SELECT conversation_id,
                   MAX(internal_date_ms) AS last_ms,
                   COUNT(*) AS message_count,
                   SUM(in_inbox AND is_unread AND rule_action <> 'mute') AS unread_count,
                   SUM(is_from_me = 0) AS incoming,
                   SUM(is_from_me = 0 AND rule_action <> 'deny') AS incoming_not_denied,
                   MAX(rule_action = 'allow') AS any_allowed,
                   MAX(in_inbox) AS has_inbox,
                   MIN(is_from_me) AS all_from_me,
                   MIN(is_newsletter) AS all_newsletter,
                   -- Walks message_by_conversation_date backwards: one index probe per conversation.
                   (SELECT m.id FROM message m WHERE m.conversation_id = visible.conversation_id
                      AND NOT \(hasLabel(labels.hidden))
                    ORDER BY m.internal_date_ms DESC, m.id DESC LIMIT 1) AS newest_id
            FROM visible GROUP BY conversation_id
        )
        UPDATE conversation SET
            last_message_at_ms = aggregate.last_ms,
            message_count = aggregate.message_count,
            unread_count = aggregate.unread_count,
            has_inbox = aggregate.has_inbox,
            is_newsletter = aggregate.all_newsletter,
            is_filtered = aggregate.incoming > 0 AND aggregate.incoming_not_denied = 0,
            is_allowed = aggregate.any_allowed,
            archived_at_ms = CASE
                WHEN aggregate.has_inbox OR aggregate.all_from_me THEN NULL
                ELSE coalesce(conversation.archived_at_ms, :now) END,
            snippet = (SELECT CASE
                    WHEN n.is_newsletter AND n.subject <> '' THEN n.subject
                    WHEN n.body_text <> '' THEN substr(n.body_text, 1, 400)
                    WHEN n.snippet <> '' THEN n.snippet
                    ELSE n.subject END
                FROM message n WHERE n.id = aggregate.newest_id)
        FROM aggregate
        WHERE conversation.id = aggregate.conversation_id
        """
    }

    /// Conversations whose messages are all in TRASH or SPAM: nothing visible is left.
    private static func emptyRollupSQL(_ labels: RollupLabels) -> String {
        """
        UPDATE conversation SET message_count = 0, unread_count = 0, has_inbox = 0, snippet = '',
            is_newsletter = 0, is_filtered = 0, is_allowed = 0, archived_at_ms = coalesce(archived_at_ms, :now)
        WHERE id IN (SELECT value FROM json_each(:ids))
          AND NOT EXISTS (
              SELECT 1 FROM message m WHERE m.conversation_id = conversation.id
                AND NOT \(hasLabel(labels.hidden)))
        """
    }

    /// Sets each participant's display name to the name on the newest message that carries one.
    private func refreshParticipantNames(ids: String) throws {
        // Rows whose name is unchanged are not rewritten: no WAL traffic for a no-op.
        try db.execute(
            sql: """
                WITH newest AS (
                    SELECT p.conversation_id, p.address_normalized, (
                        SELECT mp.name FROM message m JOIN message_participant mp ON mp.message_id = m.id
                        WHERE m.conversation_id = p.conversation_id AND mp.address_normalized = p.address_normalized
                          AND mp.name IS NOT NULL AND mp.name <> ''
                        ORDER BY m.internal_date_ms DESC, m.id DESC LIMIT 1) AS name
                    FROM conversation_participant p JOIN conversation c ON c.id = p.conversation_id
                    WHERE p.conversation_id IN (SELECT value FROM json_each(?)) AND c.list_id IS NULL
                )
                UPDATE conversation_participant SET display_name = newest.name
                FROM newest
                WHERE conversation_participant.conversation_id = newest.conversation_id
                  AND conversation_participant.address_normalized = newest.address_normalized
                  AND conversation_participant.display_name IS NOT newest.name
                """,
            arguments: [ids])
        try refreshListParticipantNames(ids: ids)
    }

    /// The same rule for list conversations, in ONE pass over each list's messages: a list has many
    /// senders, most of whom wrote long ago, and a search back from the newest message per sender made a
    /// large list's rollup cost its messages times its senders.
    private func refreshListParticipantNames(ids: String) throws {
        // People whose every message left the list are no longer its participants, so a list ends with
        // the people a fresh sync of what is stored would give it. One pass collects the list's senders.
        try db.execute(
            sql: """
                DELETE FROM conversation_participant
                WHERE conversation_id IN (
                        SELECT c.id FROM conversation c
                        WHERE c.id IN (SELECT value FROM json_each(?1)) AND c.list_id IS NOT NULL)
                  AND (conversation_id, address_normalized) NOT IN (
                        SELECT m.conversation_id, mp.address_normalized
                        FROM message m
                        JOIN message_participant mp ON mp.message_id = m.id AND mp.role = 'from'
                        WHERE m.conversation_id IN (SELECT value FROM json_each(?1)))
                """,
            arguments: [ids])
        try db.execute(
            sql: """
                WITH named AS (
                    SELECT m.conversation_id, mp.address_normalized, mp.name,
                        row_number() OVER (PARTITION BY m.conversation_id, mp.address_normalized
                            ORDER BY m.internal_date_ms DESC, m.id DESC) AS rank
                    FROM conversation c
                    JOIN message m ON m.conversation_id = c.id
                    JOIN message_participant mp ON mp.message_id = m.id AND mp.role = 'from'
                    WHERE c.id IN (SELECT value FROM json_each(?)) AND c.list_id IS NOT NULL
                      AND mp.name IS NOT NULL AND mp.name <> ''
                )
                UPDATE conversation_participant SET display_name = named.name
                FROM named
                WHERE named.rank = 1
                  AND conversation_participant.conversation_id = named.conversation_id
                  AND conversation_participant.address_normalized = named.address_normalized
                  AND conversation_participant.display_name IS NOT named.name
                """,
            arguments: [ids])
    }

    private func refreshTitles(ids: String) throws {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT c.id, c.title, c.list_id, ml.name AS list_name, p.address, p.display_name
                FROM conversation c
                LEFT JOIN mailing_list ml ON ml.account_id = c.account_id AND ml.list_id = c.list_id
                LEFT JOIN conversation_participant p ON p.conversation_id = c.id AND c.list_id IS NULL
                WHERE c.id IN (SELECT value FROM json_each(?))
                ORDER BY c.id
                """,
            arguments: [ids])
        var participants: [ConversationID: (title: String, list: String?, people: [EmailAddress])] = [:]
        for row in rows {
            let id: ConversationID = row["id"]
            // A list is titled by its name, or its id when it has none, whoever writes to it.
            let listID: String? = row["list_id"]
            let listName: String? = row["list_name"]
            let list = listID.map { listName ?? $0 }
            var entry = participants[id] ?? (title: row["title"], list: list, people: [])
            if (row["address"] as String?) != nil {
                entry.people.append(EmailAddress(row, address: "address", name: "display_name"))
            }
            participants[id] = entry
        }
        let update = try db.cachedStatement(sql: "UPDATE conversation SET title = ? WHERE id = ?")
        for (id, entry) in participants {
            let title = entry.list ?? ConversationTitle.make(for: entry.people)
            if title != entry.title { try update.execute(arguments: [title, id]) }
        }
    }
}
