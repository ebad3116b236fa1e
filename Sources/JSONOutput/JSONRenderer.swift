import ChatmailStore
import Foundation
import TextFormatting

/// Renders store values as the JSON shapes scripts read (camelCase keys, ISO 8601 dates with offset).
///
/// Keys are sorted and optional values are written as `null` rather than left out, so scripts can rely
/// on every key being present. Output stays terminal-safe: JSON already escapes C0 controls, and this
/// also escapes DEL, C1 controls and bidi controls as `\uXXXX`, which keeps the data intact.
public struct JSONRenderer: Sendable {
    public var time: TimeFormatting

    public init(time: TimeFormatting) {
        self.time = time
    }

    public func render(_ conversations: [ConversationSummary]) throws -> String {
        try encode(conversations.map(conversationJSON))
    }

    public func render(_ transcript: Transcript, fullText: Bool = false) throws -> String {
        try encode(
            TranscriptJSON(
                conversation: conversationJSON(transcript.conversation),
                messages: transcript.messages.map { message in
                    MessageJSON(
                        id: message.id.rawValue, gmailId: message.gmailID, threadId: message.threadID,
                        from: AddressJSON(message.from), isFromMe: message.isFromMe,
                        date: time.iso8601(message.internalDateMs),
                        subject: message.subject,
                        text: fullText ? (message.originalText ?? message.text) : message.text,
                        labels: message.labels,
                        attachments: message.attachments.map {
                            AttachmentJSON(filename: $0.filename, mimeType: $0.mimeType, size: $0.size)
                        },
                        outbox: message.outbox.map {
                            OutboxJSON(
                                actionId: $0.actionID.rawValue, status: $0.status.rawValue, lastError: $0.lastError)
                        })
                }))
    }

    /// The status of the account whose data lives at `dataPath` (the home directory); `isDemo` marks
    /// the demo's home, whose Gmail is the local emulator.
    public func render(_ status: StoreStatus, dataPath: String, isDemo: Bool = false) throws -> String {
        let counts = status.actionCounts
        return try encode(
            StatusJSON(
                account: status.account.email, dataPath: dataPath, demo: isDemo, historyId: status.account.historyID,
                lastSyncAt: status.account.lastSyncAtMs.map(time.iso8601),
                messageCount: status.messageCount, conversationCount: status.conversationCount,
                archivedConversationCount: status.archivedConversationCount,
                unreadConversationCount: status.unreadConversationCount,
                pendingActions: .init(
                    pending: counts[.pending] ?? 0, processing: counts[.processing] ?? 0, failed: counts[.failed] ?? 0,
                    completed: counts[.completed] ?? 0, abandoned: counts[.abandoned] ?? 0),
                abandonedMessages: status.abandonedMessageCount, provider: status.account.provider.rawValue,
                server: status.imapServer))
    }

    func conversationJSON(_ conversation: ConversationSummary) -> ConversationJSON {
        ConversationJSON(
            id: conversation.id.rawValue, participants: conversation.participants.map(AddressJSON.init),
            title: conversation.title, lastMessageAt: time.iso8601(conversation.lastMessageAtMs),
            snippet: conversation.snippet, messageCount: conversation.messageCount,
            unreadCount: conversation.unreadCount, archived: conversation.isArchived,
            isNewsletter: conversation.isNewsletter,
            list: conversation.list.map { ListJSON(id: $0.id, post: $0.postAddress, name: $0.name) })
    }

    /// Any value as terminal-safe JSON with the house formatting (sorted keys, pretty, newline-ended),
    /// for command results that have no shape of their own here.
    public func encode(_ value: some Encodable) throws -> String {
        try Self.encode(value)
    }

    /// Any value as terminal-safe JSON with the house formatting, when no time formatting is at hand.
    public static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        return escapingInvisibleControls(collapsingEmptyContainers(json)) + "\n"
    }

    /// Writes `[]` and `{}` for empty arrays and objects, where Foundation's pretty printer on Linux
    /// writes the brackets on lines of their own with an empty line between.
    ///
    /// Only structure is touched: a line break inside a JSON string is always escaped as `\n`, so a raw
    /// line break after `[` or `{` is never part of a value.
    static func collapsingEmptyContainers(_ json: String) -> String {
        guard json.contains("\n\n") else { return json }
        return json.replacingOccurrences(of: #"\[\n[ ]*\n?[ ]*\]"#, with: "[]", options: .regularExpression)
            .replacingOccurrences(of: #"\{\n[ ]*\n?[ ]*\}"#, with: "{}", options: .regularExpression)
    }

    /// Escapes scalars that JSONEncoder leaves raw but a terminal could act on.
    static func escapingInvisibleControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var output = ""
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

struct AddressJSON: Encodable {
    var address: String
    var name: String?

    init(_ address: EmailAddress) {
        self.address = address.address
        self.name = address.name
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(name, forKey: .name)  // null, not absent
    }

    enum CodingKeys: String, CodingKey { case address, name }
}

struct ConversationJSON: Encodable {
    var id: Int64
    var participants: [AddressJSON]
    var title: String
    var lastMessageAt: String
    var snippet: String
    var messageCount: Int
    var unreadCount: Int
    var archived: Bool
    var isNewsletter: Bool
    var list: ListJSON?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(participants, forKey: .participants)
        try container.encode(title, forKey: .title)
        try container.encode(lastMessageAt, forKey: .lastMessageAt)
        try container.encode(snippet, forKey: .snippet)
        try container.encode(messageCount, forKey: .messageCount)
        try container.encode(unreadCount, forKey: .unreadCount)
        try container.encode(archived, forKey: .archived)
        try container.encode(isNewsletter, forKey: .isNewsletter)
        try container.encode(list, forKey: .list)  // null, not absent
    }

    enum CodingKeys: String, CodingKey {
        case id, participants, title, lastMessageAt, snippet, messageCount, unreadCount, archived, isNewsletter, list
    }
}

/// The mailing list a conversation is.
struct ListJSON: Encodable {
    var id: String
    var post: String?
    var name: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(post, forKey: .post)  // null, not absent
        try container.encode(name, forKey: .name)
    }

    enum CodingKeys: String, CodingKey { case id, post, name }
}

struct AttachmentJSON: Encodable {
    var filename: String
    var mimeType: String
    var size: Int64
}

struct MessageJSON: Encodable {
    var id: Int64
    var gmailId: String
    var threadId: String
    var from: AddressJSON
    var isFromMe: Bool
    var date: String
    var subject: String
    var text: String
    var labels: [String]
    var attachments: [AttachmentJSON]
    /// Only a message still in the outbox has one; null once Gmail has it.
    var outbox: OutboxJSON?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(gmailId, forKey: .gmailId)
        try container.encode(threadId, forKey: .threadId)
        try container.encode(from, forKey: .from)
        try container.encode(isFromMe, forKey: .isFromMe)
        try container.encode(date, forKey: .date)
        try container.encode(subject, forKey: .subject)
        try container.encode(text, forKey: .text)
        try container.encode(labels, forKey: .labels)
        try container.encode(attachments, forKey: .attachments)
        try container.encode(outbox, forKey: .outbox)  // null, not absent
    }

    enum CodingKeys: String, CodingKey {
        case id, gmailId, threadId, from, isFromMe, date, subject, text, labels, attachments, outbox
    }
}

struct OutboxJSON: Encodable {
    var actionId: Int64
    var status: String
    var lastError: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(actionId, forKey: .actionId)
        try container.encode(status, forKey: .status)
        try container.encode(lastError, forKey: .lastError)  // null, not absent
    }

    enum CodingKeys: String, CodingKey { case actionId, status, lastError }
}

struct TranscriptJSON: Encodable {
    var conversation: ConversationJSON
    var messages: [MessageJSON]
}

struct StatusJSON: Encodable {
    struct PendingActions: Encodable {
        var pending, processing, failed, completed, abandoned: Int
    }

    var account: String
    var dataPath: String
    var demo: Bool
    var historyId: String?
    var lastSyncAt: String?
    var messageCount: Int
    var conversationCount: Int
    var archivedConversationCount: Int
    var unreadConversationCount: Int
    var pendingActions: PendingActions
    var abandonedMessages: Int
    /// "gmail" or "imap".
    var provider: String
    /// An IMAP account's server, `host:port (security)`; `null` for Gmail's API.
    var server: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(account, forKey: .account)
        try container.encode(dataPath, forKey: .dataPath)
        try container.encode(demo, forKey: .demo)
        try container.encode(historyId, forKey: .historyId)  // null before the first sync
        try container.encode(lastSyncAt, forKey: .lastSyncAt)
        try container.encode(messageCount, forKey: .messageCount)
        try container.encode(conversationCount, forKey: .conversationCount)
        try container.encode(archivedConversationCount, forKey: .archivedConversationCount)
        try container.encode(unreadConversationCount, forKey: .unreadConversationCount)
        try container.encode(pendingActions, forKey: .pendingActions)
        try container.encode(abandonedMessages, forKey: .abandonedMessages)
        try container.encode(provider, forKey: .provider)
        try container.encode(server, forKey: .server)  // null for a Gmail API account
    }

    enum CodingKeys: String, CodingKey {
        case account, dataPath, demo, historyId, lastSyncAt, messageCount, conversationCount, archivedConversationCount
        case unreadConversationCount, pendingActions, abandonedMessages, provider, server
    }
}
