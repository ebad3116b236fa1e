import Foundation
import GRDB

/// What a reply in a conversation needs to know: who is in it, who the account is, and the message
/// answered.
public struct ReplyContext: Sendable, Equatable {
    public var conversation: ConversationSummary
    /// The account's addresses: the primary first, then every sendAs alias.
    public var ownAddresses: [EmailAddress]
    /// The newest message Gmail knows (unsent and imported messages have no Gmail thread to join);
    /// `nil` when the conversation has none.
    public var parent: ReplyParent?
}

/// The message a reply answers.
public struct ReplyParent: Sendable, Equatable {
    public var gmailID: String
    public var threadID: String
    public var subject: String
    public var from: EmailAddress?
    public var to: [EmailAddress]
    public var cc: [EmailAddress]
    public var replyTo: [EmailAddress]?
    public var mailFollowupTo: [EmailAddress]?
    /// `nil` for a message stored before Message-IDs were kept: the sender reads it from Gmail.
    public var rfc822MessageID: String?
    public var references: [String]
    public var internalDateMs: Int64
    public var bodyText: String
}

extension ChatmailStore {
    /// The reply context of `conversation`, or `nil` when it does not exist.
    public func replyContext(of conversation: ConversationID) throws -> ReplyContext? {
        guard let summary = try self.conversation(conversation) else { return nil }
        return try read { db in
            let account = try AccountID.fetchOne(
                db, sql: "SELECT account_id FROM conversation WHERE id = ?", arguments: [conversation])
            let own = try StoreTransaction.ownAddresses(of: account, in: db)
            // The newest message with a Gmail id, not in the trash or spam.
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT m.id, m.gmail_id, m.thread_id, m.subject, m.from_address, m.from_name, m.reply_to,
                        m.mail_followup_to, m.rfc822_message_id, m.references_header, m.internal_date_ms, m.body_text
                    FROM message m
                    WHERE m.conversation_id = ? AND m.gmail_id NOT LIKE 'out-%' AND m.gmail_id NOT LIKE 'imp-%'
                      AND NOT EXISTS (SELECT 1 FROM message_label x JOIN label l ON l.id = x.label_id
                                      WHERE x.message_id = m.id AND l.gmail_id IN ('TRASH', 'SPAM'))
                    ORDER BY m.internal_date_ms DESC, m.id DESC LIMIT 1
                    """,
                arguments: [conversation])
            let parent = try row.map { row -> ReplyParent in
                var roles: [String: [EmailAddress]] = [:]
                for participant in try Row.fetchAll(
                    db, sql: "SELECT role, address, name FROM message_participant WHERE message_id = ?",
                    arguments: [row["id"] as Int64])
                {
                    roles[participant["role"], default: []].append(
                        EmailAddress(participant, address: "address", name: "name"))
                }
                let fromAddress: String = row["from_address"]
                return ReplyParent(
                    gmailID: row["gmail_id"], threadID: row["thread_id"], subject: row["subject"],
                    from: fromAddress.isEmpty ? nil : EmailAddress(authorOf: row),
                    to: roles["to"] ?? [], cc: roles["cc"] ?? [], replyTo: try Self.addresses(row["reply_to"]),
                    mailFollowupTo: try Self.addresses(row["mail_followup_to"]),
                    rfc822MessageID: row["rfc822_message_id"],
                    references: (row["references_header"] as String?)?.split(separator: " ").map(String.init) ?? [],
                    internalDateMs: row["internal_date_ms"], bodyText: row["body_text"])
            }
            return ReplyContext(conversation: summary, ownAddresses: own, parent: parent)
        }
    }

    /// Decodes a Reply-To or Mail-Followup-To column.
    private static func addresses(_ json: String?) throws -> [EmailAddress]? {
        guard let json else { return nil }
        return try JSONDecoder().decode([EmailAddress].self, from: Data(json.utf8))
    }
}
