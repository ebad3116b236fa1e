/// One history record: a change event touching one or more messages.
public struct HistoryRecord: Codable, Sendable, Equatable {
    /// The record's position in the mailbox sequence: monotonic, with gaps.
    public var id: UInt64
    /// Every message touched; overlaps the typed lists, which are the ones to use.
    public var messages: [Message]
    public var messagesAdded: [HistoryMessageChange]
    /// Permanent deletions (trashing is a `labelsAdded` TRASH, not a deletion).
    public var messagesDeleted: [HistoryMessageChange]
    public var labelsAdded: [HistoryLabelChange]
    public var labelsRemoved: [HistoryLabelChange]

    public init(
        id: UInt64, messages: [Message] = [], messagesAdded: [HistoryMessageChange] = [],
        messagesDeleted: [HistoryMessageChange] = [],
        labelsAdded: [HistoryLabelChange] = [], labelsRemoved: [HistoryLabelChange] = []
    ) {
        self.id = id
        self.messages = messages
        self.messagesAdded = messagesAdded
        self.messagesDeleted = messagesDeleted
        self.labelsAdded = labelsAdded
        self.labelsRemoved = labelsRemoved
    }

    enum CodingKeys: String, CodingKey { case id, messages, messagesAdded, messagesDeleted, labelsAdded, labelsRemoved }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeWideUInt64(forKey: .id)
        messages = try container.decodeArrayOrEmpty([Message].self, forKey: .messages)
        messagesAdded = try container.decodeArrayOrEmpty([HistoryMessageChange].self, forKey: .messagesAdded)
        messagesDeleted = try container.decodeArrayOrEmpty([HistoryMessageChange].self, forKey: .messagesDeleted)
        labelsAdded = try container.decodeArrayOrEmpty([HistoryLabelChange].self, forKey: .labelsAdded)
        labelsRemoved = try container.decodeArrayOrEmpty([HistoryLabelChange].self, forKey: .labelsRemoved)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeWide(id, forKey: .id)
        if !messages.isEmpty { try container.encode(messages, forKey: .messages) }
        if !messagesAdded.isEmpty { try container.encode(messagesAdded, forKey: .messagesAdded) }
        if !messagesDeleted.isEmpty { try container.encode(messagesDeleted, forKey: .messagesDeleted) }
        if !labelsAdded.isEmpty { try container.encode(labelsAdded, forKey: .labelsAdded) }
        if !labelsRemoved.isEmpty { try container.encode(labelsRemoved, forKey: .labelsRemoved) }
    }
}

/// A `{message}` entry of `messagesAdded` / `messagesDeleted`.
public struct HistoryMessageChange: Codable, Sendable, Equatable {
    /// Google promises only `id` and `threadId`; `labelIds` is a hint.
    public var message: Message

    public init(message: Message) { self.message = message }
}

/// A `{message, labelIds}` entry of `labelsAdded` / `labelsRemoved`.
public struct HistoryLabelChange: Codable, Sendable, Equatable {
    public var message: Message
    /// The labels added (or removed) by this change.
    public var labelIds: [String]

    public init(message: Message, labelIds: [String]) {
        self.message = message
        self.labelIds = labelIds
    }

    enum CodingKeys: String, CodingKey { case message, labelIds }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try container.decode(Message.self, forKey: .message)
        labelIds = try container.decodeArrayOrEmpty([String].self, forKey: .labelIds)
    }
}

/// One page of `history.list`.
public struct ListHistoryResponse: Codable, Sendable, Equatable {
    /// Empty when nothing changed (Gmail omits the key), and on a page Gmail sends with a token but no
    /// records, which still has pages after it.
    public var history: [HistoryRecord]
    public var nextPageToken: String?
    /// The mailbox's current history id when this page was served.
    public var historyID: UInt64?

    public init(history: [HistoryRecord] = [], nextPageToken: String? = nil, historyID: UInt64? = nil) {
        self.history = history
        self.nextPageToken = nextPageToken
        self.historyID = historyID
    }

    enum CodingKeys: String, CodingKey {
        case history, nextPageToken
        case historyID = "historyId"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        history = try container.decodeArrayOrEmpty([HistoryRecord].self, forKey: .history)
        nextPageToken = try container.decodeIfPresent(String.self, forKey: .nextPageToken)
        historyID = try container.decodeWideUInt64IfPresent(forKey: .historyID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !history.isEmpty { try container.encode(history, forKey: .history) }
        try container.encodeIfPresent(nextPageToken, forKey: .nextPageToken)
        try container.encodeWide(historyID, forKey: .historyID)
    }
}

/// The four history record types `history.list` can filter on.
public enum HistoryType: String, Sendable, CaseIterable {
    case messageAdded, messageDeleted, labelAdded, labelRemoved
}

/// Every record since a start id, read across all pages (never truncated: a cap would drop the changes past it).
public struct HistoryListing: Sendable, Equatable {
    /// Records in ascending id order.
    public var records: [HistoryRecord]
    /// The `historyId` of the first page: what chatmail persists, so nothing after it is skipped.
    public var firstPageHistoryID: UInt64?
    /// The `historyId` of the last page (Google's rule).
    public var finalHistoryID: UInt64?
    /// How many pages were read, the empty-page quirk included.
    public var pageCount: Int
}
