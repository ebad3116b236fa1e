import ChatmailStore

/// `reply --json` and `send --json`: `{actionId, status, gmailId, threadId, lastError}`.
///
/// `status` is `sent`, `queued` (waiting for Gmail: offline, a transient error, or a sync holding the
/// queue) or `abandoned` (Gmail refused it for good). `gmailId` and `threadId` are null until it is sent.
public struct SendResultJSON: Encodable, Sendable {
    public var actionId: Int64
    public var status: String
    public var gmailId: String?
    public var threadId: String?
    public var lastError: String?

    public init(actionId: PendingActionID, status: String, gmailId: String?, threadId: String?, lastError: String?) {
        self.actionId = actionId.rawValue
        self.status = status
        self.gmailId = gmailId
        self.threadId = threadId
        self.lastError = lastError
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(actionId, forKey: .actionId)
        try container.encode(status, forKey: .status)
        try container.encode(gmailId, forKey: .gmailId)  // null, not absent
        try container.encode(threadId, forKey: .threadId)
        try container.encode(lastError, forKey: .lastError)
    }

    enum CodingKeys: String, CodingKey { case actionId, status, gmailId, threadId, lastError }
}
