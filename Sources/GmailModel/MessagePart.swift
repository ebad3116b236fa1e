/// One node of a Gmail message's MIME tree, as `messages.get?format=full` returns it (`format=metadata`
/// fills only `mimeType` and `headers`).
///
/// The one description of Gmail's payload: the client decodes it, the text pipeline adapts it into its
/// own MIME tree, and the emulator renders it. Gmail omits empty fields, so every field may be absent:
/// strings are optional and absent arrays are empty; encoding omits empty arrays the same way.
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
        headers = try container.decodeIfPresent([MessagePartHeader].self, forKey: .headers) ?? []
        body = try container.decodeIfPresent(MessagePartBody.self, forKey: .body)
        parts = try container.decodeIfPresent([MessagePart].self, forKey: .parts) ?? []
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
    /// ``Base64URL`` content (padded or not), transfer-decoding already undone, still in the part's charset.
    public var data: String?
    /// Present instead of `data` when the body lives elsewhere. Ephemeral: use it soon after fetching.
    public var attachmentId: String?

    public init(size: Int? = nil, data: String? = nil, attachmentId: String? = nil) {
        self.size = size
        self.data = data
        self.attachmentId = attachmentId
    }
}
