/// The Gmail methods the client calls, with their quota cost and what a 404 means.
public enum GmailEndpoint: Sendable, Equatable {
    case getProfile
    case listLabels
    case listSendAs
    case listMessages
    case getMessage
    case getAttachment
    case modify
    case batchModify
    case trash
    case untrash
    case listHistory
    /// `messages.send`: not idempotent, so an answer that never came is never retried.
    case sendMessage
    /// A batch of `count` inner calls of `inner`: costs the sum of its parts.
    indirect case batch(of: GmailEndpoint, count: Int)

    /// Quota units per call (`settings.sendAs.list` has no published cost and is charged 1,
    /// like the other small settings reads).
    public var cost: Int {
        switch self {
        case .getProfile, .listLabels, .listSendAs: 1
        case .listHistory: 2
        case .listMessages, .getMessage, .getAttachment, .modify, .trash, .untrash: 5
        case .batchModify: 50
        case .sendMessage: 100
        case .batch(let inner, let count): inner.cost * count
        }
    }

    /// The noun a 404 refers to, for `GmailAPIError.GiveUp.notFound(resource:)`.
    var resourceName: String {
        switch self {
        case .getMessage, .modify, .trash, .untrash: "message"
        case .getAttachment: "attachment"
        case .getProfile, .listSendAs: "mailbox"
        case .listLabels: "label list"
        case .listMessages: "message list"
        case .batchModify: "message batch"
        case .listHistory: "history"
        // The one 404 of messages.send: the threadId names no thread of this mailbox.
        case .sendMessage: "thread"
        case .batch: "batch endpoint"
        }
    }
}
