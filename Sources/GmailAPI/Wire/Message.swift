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
    /// The parsed MIME tree (`full` and `metadata` formats).
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
        case id, threadId, labelIds, snippet, historyID = "historyId", internalDateMs = "internalDate", sizeEstimate, payload, raw
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

/// One node of the MIME tree.
public struct MessagePart: Codable, Sendable, Equatable {
    /// `""` for the root, then `0`, `1`, `0.1`, ...
    public var partId: String?
    public var mimeType: String?
    /// Non-empty only for attachment parts.
    public var filename: String?
    /// Headers in wire order with their original case; match names case-insensitively.
    public var headers: [MessagePartHeader]
    public var body: MessagePartBody?
    /// Children of a `multipart/*` part; empty for leaves.
    public var parts: [MessagePart]

    public init(
        partId: String? = nil, mimeType: String? = nil, filename: String? = nil, headers: [MessagePartHeader] = [],
        body: MessagePartBody? = nil, parts: [MessagePart] = []
    ) {
        self.partId = partId
        self.mimeType = mimeType
        self.filename = filename
        self.headers = headers
        self.body = body
        self.parts = parts
    }

    enum CodingKeys: String, CodingKey { case partId, mimeType, filename, headers, body, parts }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        partId = try container.decodeIfPresent(String.self, forKey: .partId)
        mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType)
        filename = try container.decodeIfPresent(String.self, forKey: .filename)
        headers = try container.decodeArrayOrEmpty([MessagePartHeader].self, forKey: .headers)
        body = try container.decodeIfPresent(MessagePartBody.self, forKey: .body)
        parts = try container.decodeArrayOrEmpty([MessagePart].self, forKey: .parts)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(partId, forKey: .partId)
        try container.encodeIfPresent(mimeType, forKey: .mimeType)
        try container.encodeIfPresent(filename, forKey: .filename)
        if !headers.isEmpty { try container.encode(headers, forKey: .headers) }
        try container.encodeIfPresent(body, forKey: .body)
        if !parts.isEmpty { try container.encode(parts, forKey: .parts) }
    }

    /// The first header named `name`, compared case-insensitively (names keep their wire case).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }
}

/// One `{name, value}` header of a part.
public struct MessagePartHeader: Codable, Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A part's body, and the answer of `attachments.get`.
public struct MessagePartBody: Codable, Sendable, Equatable {
    /// Decoded byte count.
    public var size: Int?
    /// base64url content (padded or not), transfer-decoding already undone, still in the part's charset.
    public var data: String?
    /// Present instead of `data` when the body lives elsewhere. Ephemeral: use it soon after fetching.
    public var attachmentId: String?

    public init(size: Int? = nil, data: String? = nil, attachmentId: String? = nil) {
        self.size = size
        self.data = data
        self.attachmentId = attachmentId
    }
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
