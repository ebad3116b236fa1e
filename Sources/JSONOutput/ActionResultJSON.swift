import ChatmailStore

/// `archive --json` and friends: `{kind, target, messagesChanged, actionId, cancelled, alreadyQueued}`.
///
/// `actionId` is null when nothing is left to send to Gmail.
public struct ActionResultJSON: Encodable, Sendable {
    public var kind: String
    public var target: String
    public var messagesChanged: Int
    public var actionId: Int64?
    public var cancelled: Int
    public var alreadyQueued: Int

    public init(
        kind: PendingActionKind, target: String, messagesChanged: Int, actionId: PendingActionID?, cancelled: Int,
        alreadyQueued: Int
    ) {
        self.kind = kind.rawValue
        self.target = target
        self.messagesChanged = messagesChanged
        self.actionId = actionId?.rawValue
        self.cancelled = cancelled
        self.alreadyQueued = alreadyQueued
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(target, forKey: .target)
        try container.encode(messagesChanged, forKey: .messagesChanged)
        try container.encode(actionId, forKey: .actionId)  // null when nothing is left to send
        try container.encode(cancelled, forKey: .cancelled)
        try container.encode(alreadyQueued, forKey: .alreadyQueued)
    }

    enum CodingKeys: String, CodingKey { case kind, target, messagesChanged, actionId, cancelled, alreadyQueued }
}
