/// One send-as address (`settings.sendAs.list`): the primary address and its aliases.
/// Participant hashes need every alias (those with `isPrimary` or `treatAsAlias`), or mail sent from
/// an alias lands in a chat of its own.
public struct SendAs: Codable, Sendable, Equatable {
    public var sendAsEmail: String
    public var displayName: String?
    public var replyToAddress: String?
    public var isPrimary: Bool?
    public var isDefault: Bool?
    public var treatAsAlias: Bool?
    public var verificationStatus: String?

    public init(sendAsEmail: String, displayName: String? = nil, isPrimary: Bool? = nil, treatAsAlias: Bool? = nil) {
        self.sendAsEmail = sendAsEmail
        self.displayName = displayName
        self.isPrimary = isPrimary
        self.treatAsAlias = treatAsAlias
    }

    /// Whether mail from this address is the user's own mail.
    public var isOwnAddress: Bool { isPrimary == true || treatAsAlias == true }
}

/// The body of `settings.sendAs.list`.
struct ListSendAsResponse: Decodable {
    var sendAs: [SendAs]

    enum CodingKeys: String, CodingKey { case sendAs }

    init(from decoder: any Decoder) throws {
        sendAs = try decoder.container(keyedBy: CodingKeys.self).decodeArrayOrEmpty([SendAs].self, forKey: .sendAs)
    }
}
