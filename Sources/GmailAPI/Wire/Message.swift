import GmailModel

/// A message id with its thread id: what `messages.list` and history records carry.
public struct MessageRef: Codable, Sendable, Equatable, Hashable {
    public var id: String
    public var threadId: String?

    public init(id: String, threadId: String? = nil) {
        self.id = id
        self.threadId = threadId
    }
}

/// A Gmail message in any format. Which fields are present depends on `format=` and
/// `fields=`; everything but `id` is therefore optional, and absent `labelIds` means "no labels".
public struct Message: Codable, Sendable, Equatable {
    public var id: String
    public var threadId: String?
    /// The message's labels; Gmail omits the key when there are none.
    public var labelIds: [String]
    public var snippet: String?
    /// The last history record that modified this message — not the mailbox's current id.
    public var historyID: UInt64?
    /// Epoch milliseconds when Google accepted the mail; defines inbox order.
    public var internalDateMs: Int64?
    public var sizeEstimate: Int?
    /// The parsed MIME tree (`full` and `metadata` formats), in the model the text pipeline and emulator share.
    public var payload: MessagePart?
    /// The whole RFC 2822 message, base64url (`raw` format).
    public var raw: String?

    public init(
        id: String, threadId: String? = nil, labelIds: [String] = [], snippet: String? = nil, historyID: UInt64? = nil,
        internalDateMs: Int64? = nil, sizeEstimate: Int? = nil, payload: MessagePart? = nil, raw: String? = nil
    ) {
        self.id = id
        self.threadId = threadId
        self.labelIds = labelIds
        self.snippet = snippet
        self.historyID = historyID
        self.internalDateMs = internalDateMs
        self.sizeEstimate = sizeEstimate
        self.payload = payload
        self.raw = raw
    }

    enum CodingKeys: String, CodingKey {
        case id, threadId, labelIds, snippet
        case historyID = "historyId"
        case internalDateMs = "internalDate"
        case sizeEstimate, payload, raw
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        threadId = try container.decodeIfPresent(String.self, forKey: .threadId)
        labelIds = try container.decodeArrayOrEmpty([String].self, forKey: .labelIds)
        snippet = try container.decodeIfPresent(String.self, forKey: .snippet)
        historyID = try container.decodeWideUInt64IfPresent(forKey: .historyID)
        internalDateMs = try container.decodeWideInt64IfPresent(forKey: .internalDateMs)
        sizeEstimate = try container.decodeIfPresent(Int.self, forKey: .sizeEstimate)
        payload = try container.decodeIfPresent(MessagePart.self, forKey: .payload)
        raw = try container.decodeIfPresent(String.self, forKey: .raw)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(threadId, forKey: .threadId)
        if !labelIds.isEmpty { try container.encode(labelIds, forKey: .labelIds) }
        try container.encodeIfPresent(snippet, forKey: .snippet)
        try container.encodeWide(historyID, forKey: .historyID)
        try container.encodeWide(internalDateMs, forKey: .internalDateMs)
        try container.encodeIfPresent(sizeEstimate, forKey: .sizeEstimate)
        try container.encodeIfPresent(payload, forKey: .payload)
        try container.encodeIfPresent(raw, forKey: .raw)
    }

    /// The message's reference (id and thread id).
    public var ref: MessageRef { MessageRef(id: id, threadId: threadId) }
}

/// One page of `messages.list`.
public struct ListMessagesResponse: Codable, Sendable, Equatable {
    /// Empty when Gmail omitted the key (an empty result is `{"resultSizeEstimate": 0}`).
    public var messages: [MessageRef]
    /// Absent on the last page: the only stop signal (never the estimate).
    public var nextPageToken: String?
    public var resultSizeEstimate: Int?

    public init(messages: [MessageRef] = [], nextPageToken: String? = nil, resultSizeEstimate: Int? = nil) {
        self.messages = messages
        self.nextPageToken = nextPageToken
        self.resultSizeEstimate = resultSizeEstimate
    }

    enum CodingKeys: String, CodingKey { case messages, nextPageToken, resultSizeEstimate }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messages = try container.decodeArrayOrEmpty([MessageRef].self, forKey: .messages)
        nextPageToken = try container.decodeIfPresent(String.self, forKey: .nextPageToken)
        resultSizeEstimate = try container.decodeIfPresent(Int.self, forKey: .resultSizeEstimate)
    }
}
