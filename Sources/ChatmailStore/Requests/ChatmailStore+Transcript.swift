import GRDB

extension ChatmailStore {
    /// The newest `limit` visible messages of a conversation, returned oldest first.
    ///
    /// Loading the oldest messages instead would open a long chat on stale history. This walks the
    /// `message_by_conversation_date` index backwards, takes `limit` rows and reverses them.
    ///
    /// With `onlyFrom` (an identity key), only that person's messages and the account's own are kept,
    /// and the earlier count counts those alone.
    public func transcript(of conversationID: ConversationID, limit: Int, onlyFrom: String? = nil) throws
        -> Transcript?
    {
        precondition(limit > 0, "A transcript needs a positive limit, not \(limit)")
        return try read { db in
            guard
                let conversation = try Self.summaries(
                    from: Row.fetchAll(db, sql: "SELECT * FROM conversation WHERE id = ?", arguments: [conversationID]),
                    in: db
                ).first
            else { return nil }
            // Every author of a multi-author From is a `from` participant, so a co-written message is kept.
            let sender =
                onlyFrom == nil
                ? ""
                : """
                 AND (m.is_from_me = 1 OR EXISTS (SELECT 1 FROM message_participant mp WHERE mp.message_id = m.id
                      AND mp.role = 'from' AND mp.address_normalized = :sender))
                """
            let visible = """
                FROM message m
                WHERE m.conversation_id = :conversation
                  AND NOT EXISTS (SELECT 1 FROM message_label ml JOIN label l ON l.id = ml.label_id
                                  WHERE ml.message_id = m.id AND l.gmail_id IN ('TRASH', 'SPAM'))\(sender)
                """
            let arguments: StatementArguments = ["conversation": conversationID, "limit": limit, "sender": onlyFrom]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT m.id, m.gmail_id, m.thread_id, m.from_address, m.from_name, m.is_from_me,
                           m.internal_date_ms, m.subject, m.subject_base, m.body_text, m.original_text, m.snippet, m.is_newsletter,
                           (SELECT o.action_id FROM outbox o
                            WHERE o.account_id = m.account_id AND o.local_gmail_id = m.gmail_id) AS outbox_action
                    \(visible)
                    ORDER BY m.internal_date_ms DESC, m.id DESC
                    LIMIT :limit
                    """,
                arguments: arguments)
            let shown =
                onlyFrom == nil
                ? conversation.messageCount
                : try Int.fetchOne(db, sql: "SELECT COUNT(*) \(visible)", arguments: arguments) ?? 0
            let ids = "[" + rows.map { String(($0["id"] as Int64)) }.joined(separator: ",") + "]"
            var labels: [MessageID: [String]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT ml.message_id, l.name FROM message_label ml JOIN label l ON l.id = ml.label_id
                    WHERE ml.message_id IN (SELECT value FROM json_each(?)) ORDER BY l.name
                    """,
                arguments: [ids])
            {
                labels[row["message_id"], default: []].append(row["name"])
            }
            var attachments: [MessageID: [TranscriptMessage.Attachment]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT message_id, filename, mime_type, size, is_inline FROM attachment
                    WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, id
                    """,
                arguments: [ids])
            {
                attachments[row["message_id"], default: []].append(
                    .init(
                        filename: row["filename"], mimeType: row["mime_type"], size: row["size"],
                        isInline: row["is_inline"]))
            }
            var outbox: [PendingActionID: OutboxState] = [:]
            let actionIDs = rows.compactMap { $0["outbox_action"] as Int64? }
            if !actionIDs.isEmpty {
                for row in try Row.fetchAll(
                    db,
                    sql: """
                        SELECT a.id, a.status, a.last_error, coalesce(o.outcome_unknown, 0) AS outcome_unknown
                        FROM pending_action a LEFT JOIN outbox o ON o.action_id = a.id
                        WHERE a.id IN (SELECT value FROM json_each(?))
                        """,
                    arguments: ["[" + actionIDs.map(String.init).joined(separator: ",") + "]"])
                {
                    let id: PendingActionID = row["id"]
                    if let status = PendingActionStatus(rawValue: row["status"]) {
                        outbox[id] = OutboxState(
                            actionID: id, actionStatus: status, outcomeUnknown: row["outcome_unknown"],
                            lastError: row["last_error"])
                    }
                }
            }
            let messages = rows.reversed().map { row -> TranscriptMessage in
                let id: MessageID = row["id"]
                let body: String = row["body_text"]
                return TranscriptMessage(
                    id: id, gmailID: row["gmail_id"], threadID: row["thread_id"],
                    from: EmailAddress(authorOf: row),
                    isFromMe: row["is_from_me"], internalDateMs: row["internal_date_ms"], subject: row["subject"],
                    subjectBase: row["subject_base"], text: body.isEmpty ? row["snippet"] : body,
                    originalText: row["original_text"],
                    isNewsletter: row["is_newsletter"], labels: labels[id] ?? [], attachments: attachments[id] ?? [],
                    outbox: (row["outbox_action"] as PendingActionID?).flatMap { outbox[$0] })
            }
            return Transcript(
                conversation: conversation, messages: messages,
                earlierMessageCount: max(0, shown - messages.count))
        }
    }
}
