import GRDB

extension StoreTransaction {
    // MARK: Finding the stored message a copy is

    /// Stored messages with each digest, with the folders holding a copy of each.
    public func imapMessages(withDigests digests: [String], in account: AccountID) throws -> [String:
        [IMAPStoredCandidate]]
    {
        guard !digests.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT m.id, m.gmail_id, m.content_digest, l.folder_id
                FROM json_each(?) AS wanted
                CROSS JOIN message m ON m.account_id = ? AND m.content_digest = wanted.value
                LEFT JOIN imap_location l ON l.message_id = m.id
                ORDER BY m.id
                """,
            arguments: [Self.jsonArray(Array(Set(digests))), account])
        return Self.candidates(rows, keyedBy: "content_digest")
    }

    /// Stored messages whose Message-ID, size and INTERNALDATE are these: the header match that re-finds a
    /// message after a UIDVALIDITY change without downloading it.
    public func imapMessages(
        withMessageID messageID: String, size: Int64, internalDateMs: Int64, in account: AccountID
    ) throws -> [IMAPStoredCandidate] {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.id, m.gmail_id, m.content_digest, l.folder_id FROM message m
                    LEFT JOIN imap_location l ON l.message_id = m.id
                    WHERE m.account_id = ? AND m.rfc822_message_id = ? AND m.content_digest IS NOT NULL
                        AND m.size_estimate = ? AND m.imap_internal_date_ms = ?
                    ORDER BY m.id
                    """),
            arguments: [account, messageID, size, internalDateMs])
        return Self.candidates(rows, keyedBy: "content_digest").values.flatMap { $0 }
    }

    /// The stored message with this provider key (Gmail over IMAP keys messages by X-GM-MSGID).
    public func imapMessage(withKey key: String, in account: AccountID) throws -> IMAPStoredCandidate? {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.id, m.gmail_id, m.content_digest, l.folder_id FROM message m
                    LEFT JOIN imap_location l ON l.message_id = m.id
                    WHERE m.account_id = ? AND m.gmail_id = ?
                    """),
            arguments: [account, key])
        return Self.candidates(rows, keyedBy: "gmail_id")[key]?.first
    }

    private static func candidates(_ rows: [Row], keyedBy column: String) -> [String: [IMAPStoredCandidate]] {
        var result: [String: [IMAPStoredCandidate]] = [:]
        for row in rows {
            let key: String = row[column] ?? ""
            let message: MessageID = row["id"]
            let folder: IMAPFolderID? = row["folder_id"]
            var list = result[key] ?? []
            if let index = list.firstIndex(where: { $0.messageID == message }) {
                if let folder { list[index].folders.insert(folder) }
            } else {
                list.append(
                    IMAPStoredCandidate(messageID: message, key: row["gmail_id"], folders: folder.map { [$0] } ?? []))
            }
            result[key] = list
        }
        return result
    }

    /// Marks a message just stored from IMAP with what identifies its bytes.
    public func setIMAPIdentity(of message: MessageID, digest: String, internalDateMs: Int64?) throws {
        try db.cachedStatement(sql: "UPDATE message SET content_digest = ?, imap_internal_date_ms = ? WHERE id = ?")
            .execute(arguments: [digest, internalDateMs, message])
    }

    // MARK: Labels from copies

    /// Recomputes the labels of messages from their copies: each copy's folder label and Gmail labels,
    /// `UNREAD` when any copy lacks `\Seen` (unread mail is never hidden by a read duplicate), `STARRED`
    /// when any copy is `\Flagged`. A message with no copy left keeps its labels: it is either about to
    /// be found in another folder or deleted at the end of the sync.
    ///
    /// Messages with a live queued action keep the user's local labels until the action settles.
    /// - returns: how many messages changed, and their conversations.
    public func refreshIMAPLabels(of messages: Set<MessageID>, in account: AccountID) throws -> (
        changed: Int, conversations: Set<ConversationID>
    ) {
        guard !messages.isEmpty else { return (0, []) }
        let protected = try protectedGmailIDs(in: account)
        let json = "[" + messages.map { String($0.rawValue) }.joined(separator: ",") + "]"
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT m.id, m.gmail_id, m.conversation_id, f.label_id, l.seen, l.flagged, l.gmail_labels
                FROM json_each(?) AS wanted
                CROSS JOIN message m ON m.id = wanted.value AND m.account_id = ?
                JOIN imap_location l ON l.message_id = m.id
                JOIN imap_folder f ON f.id = l.folder_id
                """,
            arguments: [json, account])
        var wanted: [MessageID: (key: String, conversation: ConversationID, labels: Set<String>)] = [:]
        for row in rows {
            let id: MessageID = row["id"]
            var entry = wanted[id] ?? (row["gmail_id"], row["conversation_id"], [])
            if let label: String = row["label_id"] { entry.labels.insert(label) }
            let state = try Self.copyState(row)
            if !state.seen { entry.labels.insert("UNREAD") }
            if state.flagged { entry.labels.insert("STARRED") }
            entry.labels.formUnion(state.gmailLabels ?? [])
            wanted[id] = entry
        }
        let current = try labelIDs(ofMessages: wanted.values.map(\.key), in: account)
        var changed = 0
        var conversations = Set<ConversationID>()
        for entry in wanted.values where !protected.contains(entry.key) {
            guard current[entry.key] != entry.labels else { continue }
            if let conversation = try replaceLabels(entry.labels.sorted(), onMessage: entry.key, in: account) {
                changed += 1
                conversations.insert(conversation)
            }
        }
        return (changed, conversations)
    }

    // MARK: Deletion

    /// Deletes the account's IMAP messages that no folder holds any more. Sync calls it only after every
    /// folder has been read, so a message moved between folders is found in its new folder first.
    /// - returns: how many were deleted, and the conversations that lost them.
    public func deleteIMAPMessagesWithoutCopies(in account: AccountID) throws -> (
        count: Int, conversations: Set<ConversationID>
    ) {
        let keys = try String.fetchAll(
            db,
            sql: """
                SELECT m.gmail_id FROM message m
                WHERE m.account_id = ? AND m.content_digest IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM imap_location l WHERE l.message_id = m.id)
                """,
            arguments: [account])
        guard !keys.isEmpty else { return (0, []) }
        return (keys.count, try deleteMessages(gmailIDs: keys, in: account))
    }

    /// Marks the account as synced now (IMAP keeps its state per folder, not in a history id).
    public func markIMAPSynced(_ account: AccountID) throws {
        try db.execute(sql: "UPDATE account SET last_sync_at_ms = ? WHERE id = ?", arguments: [nowMs, account])
    }
}
