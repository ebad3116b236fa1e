/// The mailbox profile (`users.getProfile`).
public struct Profile: Codable, Sendable, Equatable {
    public var emailAddress: String
    public var messagesTotal: Int
    public var threadsTotal: Int
    /// The mailbox's current history id: a full sync reads it *before* listing, so changes made during
    /// the listing are caught afterwards.
    public var historyID: UInt64

    public init(emailAddress: String, messagesTotal: Int, threadsTotal: Int, historyID: UInt64) {
        self.emailAddress = emailAddress
        self.messagesTotal = messagesTotal
        self.threadsTotal = threadsTotal
        self.historyID = historyID
    }

    enum CodingKeys: String, CodingKey {
        case emailAddress, messagesTotal, threadsTotal
        case historyID = "historyId"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        emailAddress = try container.decode(String.self, forKey: .emailAddress)
        messagesTotal = try container.decodeIfPresent(Int.self, forKey: .messagesTotal) ?? 0
        threadsTotal = try container.decodeIfPresent(Int.self, forKey: .threadsTotal) ?? 0
        historyID = try container.decodeWideUInt64(forKey: .historyID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(emailAddress, forKey: .emailAddress)
        try container.encode(messagesTotal, forKey: .messagesTotal)
        try container.encode(threadsTotal, forKey: .threadsTotal)
        try container.encodeWide(historyID, forKey: .historyID)
    }
}
