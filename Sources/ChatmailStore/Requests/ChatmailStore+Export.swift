import GRDB

/// Where an attachment's bytes can be fetched from Gmail.
public struct AttachmentSource: Sendable, Equatable {
    public var messageID: MessageID
    /// The message's Gmail id, for `messages.get` and `messages.attachments.get`.
    public var gmailID: String
    /// The MIME part id, which stays valid when the ephemeral attachment id expires.
    public var partID: String
    /// The attachment id seen at sync time; `nil` when the part's data came inline.
    public var gmailAttachmentID: String?
    public var filename: String
    public var mimeType: String
    public var size: Int64
}

extension ChatmailStore {
    /// Every visible message of a conversation, oldest first: what an export writes, and `show --json`
    /// without `--limit`. `onlyFrom` is as in ``transcript(of:limit:onlyFrom:)``.
    public func fullTranscript(of conversationID: ConversationID, onlyFrom: String? = nil) throws -> Transcript? {
        // LIMIT takes a 64-bit integer; the largest one means "no limit" without a second query.
        try transcript(of: conversationID, limit: Int(Int64.max), onlyFrom: onlyFrom)
    }

    /// The attachments of the given messages by message, in the order ``TranscriptMessage/attachments``
    /// lists them.
    public func attachmentSources(of messages: [MessageID]) throws -> [MessageID: [AttachmentSource]] {
        guard !messages.isEmpty else { return [:] }
        return try read { db in
            var sources: [MessageID: [AttachmentSource]] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT a.message_id, m.gmail_id, a.part_id, a.gmail_attachment_id, a.filename, a.mime_type, a.size
                    FROM attachment a JOIN message m ON m.id = a.message_id
                    WHERE a.message_id IN (SELECT value FROM json_each(?)) ORDER BY a.message_id, a.id
                    """,
                arguments: ["[" + messages.map { String($0.rawValue) }.joined(separator: ",") + "]"])
            while let row = try rows.next() {
                let id: MessageID = row["message_id"]
                sources[id, default: []].append(
                    AttachmentSource(
                        messageID: id, gmailID: row["gmail_id"], partID: row["part_id"],
                        gmailAttachmentID: row["gmail_attachment_id"],
                        filename: row["filename"], mimeType: row["mime_type"], size: row["size"]))
            }
            return sources
        }
    }
}
