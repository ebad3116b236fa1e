/// A Gmail label. System labels use their name as id (`INBOX`); user labels look like
/// `Label_12`. Counters come only from `labels.get`, so they are optional.
public struct Label: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    /// `system` or `user`; kept as a string so an unknown future kind does not fail decoding.
    public var type: String?
    public var messageListVisibility: String?
    public var labelListVisibility: String?
    public var messagesTotal: Int?
    public var messagesUnread: Int?
    public var threadsTotal: Int?
    public var threadsUnread: Int?
    public var color: Color?

    /// A user label's colours (hex strings from Gmail's palette).
    public struct Color: Codable, Sendable, Equatable {
        public var textColor: String?
        public var backgroundColor: String?
    }

    public init(id: String, name: String, type: String? = nil) {
        self.id = id
        self.name = name
        self.type = type
    }

    /// Whether Gmail manages this label (INBOX, UNREAD, ...).
    public var isSystem: Bool { type == "system" }
}

/// The body of `labels.list`.
struct ListLabelsResponse: Decodable {
    var labels: [Label]

    enum CodingKeys: String, CodingKey { case labels }

    init(from decoder: any Decoder) throws {
        labels = try decoder.container(keyedBy: CodingKeys.self).decodeArrayOrEmpty([Label].self, forKey: .labels)
    }
}
