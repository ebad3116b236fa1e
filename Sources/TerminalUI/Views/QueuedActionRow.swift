/// One queued action as a row of `chatmail pending`.
public struct QueuedActionRow: Sendable, Equatable {
    /// Where the action is in its life: waiting, being sent, failed and to be retried, done, given up.
    public enum Status: String, Sendable, Equatable {
        case pending, processing, failed, completed, abandoned
    }

    /// The number `chatmail pending` and its commands refer to the action by.
    public var number: Int64
    public var kind: String
    public var status: Status
    public var attempts: Int
    public var nextAttemptAtMs: Int64
    /// What the action is about, as the user named it.
    public var target: String
    /// How many messages the action touches.
    public var messageCount: Int
    public var lastError: String?

    public init(
        number: Int64, kind: String, status: Status, attempts: Int, nextAttemptAtMs: Int64, target: String,
        messageCount: Int, lastError: String?
    ) {
        self.number = number
        self.kind = kind
        self.status = status
        self.attempts = attempts
        self.nextAttemptAtMs = nextAttemptAtMs
        self.target = target
        self.messageCount = messageCount
        self.lastError = lastError
    }
}
