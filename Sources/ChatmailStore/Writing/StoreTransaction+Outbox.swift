import Foundation
import GRDB

/// The outbox: a message the user wrote is stored, with its send action, before any network call.
///
/// Until Gmail accepts it, the message lives in `message` under a local id (`out-` + action id), so it
/// shows at once as the user's bubble, in its conversation (chosen by the same identity rule as every
/// message). When Gmail accepts it, that row takes the server's id; should sync have stored the server's
/// copy first, the local row is deleted instead. Either way the message exists exactly once.
extension StoreTransaction {
    /// Queues `message` for sending: the send action, its outbox row and the local copy, in this
    /// transaction.
    /// - returns: the action and the conversation the message joined (a new one if none existed), and
    ///   the conversations to roll up.
    public func queueSend(_ message: QueuedMessage, in account: AccountID) throws -> (
        action: PendingActionID, conversation: ConversationID, affected: Set<ConversationID>
    ) {
        let now = nowMs
        try db.execute(
            sql: """
                INSERT INTO pending_action (account_id, kind, target, target_message_ids, status,
                    next_attempt_at_ms, created_at_ms, updated_at_ms)
                VALUES (?, 'send', ?, '[]', 'pending', ?, ?, ?)
                """,
            arguments: [account, message.target, now, now, now])
        let action = PendingActionID(rawValue: db.lastInsertedRowID)
        let localID = OutboxEntry.localGmailID(of: action)
        try db.execute(
            sql: "UPDATE pending_action SET target_message_ids = ? WHERE id = ?",
            arguments: [Self.jsonArray([localID]), action])
        try db.execute(
            sql: """
                INSERT INTO outbox (action_id, account_id, local_gmail_id, body, subject, from_address, from_name,
                    recipients, parent_gmail_id, thread_id, quote, created_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                action, account, localID, message.body, message.subject, message.from.address, message.from.name,
                try Self.recipientsJSON(to: message.to, cc: message.cc), message.parentGmailID, message.threadID,
                message.quote, now,
            ])
        let upsert = try upsert(
            MessageInput(
                gmailID: localID, threadID: message.threadID ?? localID, internalDateMs: now, from: message.from,
                to: message.to, cc: message.cc, subject: message.subject,
                gmailSnippet: String(message.body.prefix(200)), bodyText: message.body, labelIDs: ["SENT"]),
            in: account)
        return (action, upsert.conversationID, upsert.affectedConversations)
    }

    /// The outbox row of a send action, or `nil`.
    public func outboxEntry(_ action: PendingActionID, in account: AccountID) throws -> OutboxEntry? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM outbox WHERE action_id = ? AND account_id = ?", arguments: [action, account])
        else { return nil }
        let recipients = try JSONDecoder().decode(
            StoredRecipients.self, from: Data((row["recipients"] as String).utf8))
        let message = QueuedMessage(
            from: EmailAddress(authorOf: row),
            to: recipients.to.map(\.asEmailAddress), cc: recipients.cc.map(\.asEmailAddress), subject: row["subject"],
            body: row["body"], parentGmailID: row["parent_gmail_id"], threadID: row["thread_id"],
            quote: row["quote"],
            target: try String.fetchOne(db, sql: "SELECT target FROM pending_action WHERE id = ?", arguments: [action])
                ?? "")
        let raw: Data? = row["raw"]
        return OutboxEntry(
            actionID: action, account: account, localGmailID: row["local_gmail_id"], message: message,
            raw: raw.map { [UInt8]($0) }, dateHeader: row["date_header"], checkFromHistory: row["check_from_history"],
            outcomeUnknown: row["outcome_unknown"], sentGmailID: row["sent_gmail_id"],
            sentThreadID: row["sent_thread_id"], createdAtMs: row["created_at_ms"])
    }

    /// Keeps the bytes every attempt of `action` sends, with the Date header written into them.
    public func freezeOutbox(_ action: PendingActionID, raw: [UInt8], dateHeader: String) throws {
        try db.execute(
            sql: "UPDATE outbox SET raw = ?, date_header = ? WHERE action_id = ? AND raw IS NULL",
            arguments: [Data(raw), dateHeader, action])
    }

    /// Marks the start (`unknown` true, with the history id to check from) or the known end of an attempt.
    public func setOutcomeUnknown(_ unknown: Bool, checkingFromHistory historyID: String?, for action: PendingActionID)
        throws
    {
        if unknown {
            try db.execute(
                sql: """
                    UPDATE outbox SET outcome_unknown = 1, check_from_history = coalesce(check_from_history, ?)
                    WHERE action_id = ?
                    """,
                arguments: [historyID, action])
        } else {
            try db.execute(
                sql: "UPDATE outbox SET outcome_unknown = 0, check_from_history = NULL WHERE action_id = ?",
                arguments: [action])
        }
    }

    /// Records that Gmail accepted the message as `gmailID` in `threadID`: the local copy takes the
    /// server's id (or goes, when sync stored the server's copy first), and the action completes.
    /// - returns: the conversations to roll up.
    public func completeSend(
        _ action: PendingActionID, gmailID: String, threadID: String, rfc822MessageID: String?,
        references: [String] = [], in account: AccountID
    ) throws -> Set<ConversationID> {
        guard let entry = try outboxEntry(action, in: account) else { return [] }
        var touched: Set<ConversationID> = []
        let local = try messageRows(forGmailIDs: [entry.localGmailID], in: account)
        if try !messageRows(forGmailIDs: [gmailID], in: account).isEmpty {
            touched.formUnion(try deleteMessages(gmailIDs: [entry.localGmailID], in: account))
        } else if let row = local.first {
            try db.execute(
                sql: """
                    UPDATE message SET gmail_id = ?, thread_id = ?, rfc822_message_id = ?, references_header = ?
                    WHERE id = ?
                    """,
                arguments: [
                    gmailID, threadID, rfc822MessageID, references.isEmpty ? nil : references.joined(separator: " "),
                    row.message,
                ])
            touched.insert(row.conversation)
        }
        if let rfc822MessageID {
            try db.execute(
                sql: "UPDATE message SET rfc822_message_id = ? WHERE account_id = ? AND gmail_id = ?",
                arguments: [rfc822MessageID, account, gmailID])
        }
        try db.execute(
            sql: """
                UPDATE outbox SET sent_gmail_id = ?, sent_thread_id = ?, outcome_unknown = 0, check_from_history = NULL
                WHERE action_id = ?
                """,
            arguments: [gmailID, threadID, action])
        try db.execute(
            sql: """
                UPDATE pending_action SET status = 'completed', last_error = NULL, sent_message_ids = ?,
                    updated_at_ms = ?
                WHERE id = ?
                """,
            arguments: [Self.jsonArray([gmailID]), nowMs, action])
        return touched
    }

    /// Deletes the local copy of a queued message (its action was dismissed).
    /// - returns: the conversations to roll up.
    public func dropOutboxMessage(of action: PendingActionID, in account: AccountID) throws -> Set<ConversationID> {
        try deleteMessages(gmailIDs: [OutboxEntry.localGmailID(of: action)], in: account)
    }

    /// The To and Cc of an outbox row as stored: `{"to": [...], "cc": [...]}`.
    struct StoredRecipients: Codable {
        var to: [StoredAddress]
        var cc: [StoredAddress]
    }

    struct StoredAddress: Codable {
        var address: String
        var name: String?
        var asEmailAddress: EmailAddress { EmailAddress(address: address, name: name) }
    }

    static func recipientsJSON(to: [EmailAddress], cc: [EmailAddress]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let stored = StoredRecipients(
            to: to.map { StoredAddress(address: $0.address, name: $0.name) },
            cc: cc.map { StoredAddress(address: $0.address, name: $0.name) })
        return String(decoding: try encoder.encode(stored), as: UTF8.self)
    }
}

extension StoreTransaction {
    /// The Message-ID and References of a stored message; `messageID` is `nil` when the message was
    /// stored before they were kept. `nil` when no such message is stored.
    public func threadingHeaders(ofMessage gmailID: String, in account: AccountID) throws -> (
        messageID: String?, references: [String]
    )? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT rfc822_message_id, references_header FROM message WHERE account_id = ? AND gmail_id = ?",
                arguments: [account, gmailID])
        else { return nil }
        let references = (row["references_header"] as String?)?.split(separator: " ").map(String.init) ?? []
        return (row["rfc822_message_id"], references)
    }
}

extension StoreTransaction {
    /// The account's addresses: the primary first, then every sendAs alias.
    public func ownAddresses(of account: AccountID) throws -> [EmailAddress] {
        try Self.ownAddresses(of: account, in: db)
    }

    /// The account's addresses in `db`, for a transaction and for a read alike.
    static func ownAddresses(of account: AccountID?, in db: Database) throws -> [EmailAddress] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT address, display_name FROM account_alias WHERE account_id = ?
                ORDER BY is_primary DESC, address_normalized
                """,
            arguments: [account]
        ).map { EmailAddress(address: $0["address"], name: $0["display_name"]) }
    }
}

extension StoreTransaction {
    /// The send actions of the account whose last attempt's outcome is unknown: live ones, and those
    /// given up on after attempts whose answers were lost (any of which may have gone out).
    public func sendsWithUnknownOutcome(in account: AccountID) throws -> [PendingActionID] {
        try PendingActionID.fetchAll(
            db,
            sql: """
                SELECT o.action_id FROM outbox o JOIN pending_action a ON a.id = o.action_id
                WHERE o.account_id = ? AND o.outcome_unknown = 1
                  AND a.status IN ('pending', 'failed', 'processing', 'abandoned')
                ORDER BY o.action_id
                """,
            arguments: [account])
    }
}
