import Foundation

/// A message the user wrote, as it is queued: enough to build its RFC 5322 bytes later.
public struct QueuedMessage: Sendable, Equatable {
    public var from: EmailAddress
    public var to: [EmailAddress]
    public var cc: [EmailAddress]
    public var subject: String
    public var body: String
    /// The Gmail id of the message answered; `nil` for a new message.
    public var parentGmailID: String?
    /// The Gmail thread to join; `nil` for a new message.
    public var threadID: String?
    /// Whether the answered message is quoted under an attribution line.
    public var quote: Bool
    /// What `chatmail pending` calls the action ("reply to Alice", "message to bob@example.com").
    public var target: String

    public init(
        from: EmailAddress, to: [EmailAddress], cc: [EmailAddress] = [], subject: String, body: String,
        parentGmailID: String? = nil, threadID: String? = nil, quote: Bool = false, target: String
    ) {
        self.from = from
        self.to = to
        self.cc = cc
        self.subject = subject
        self.body = body
        self.parentGmailID = parentGmailID
        self.threadID = threadID
        self.quote = quote
        self.target = target
    }
}

/// One row of the outbox: a queued message and what is known of its sending.
public struct OutboxEntry: Sendable, Equatable {
    public var actionID: PendingActionID
    public var account: AccountID
    /// The id the message is stored under until Gmail accepts it (`out-` + action id).
    public var localGmailID: String
    public var message: QueuedMessage
    /// The bytes every attempt sends, made once before the first one; `nil` before that.
    public var raw: [UInt8]?
    /// The Date header inside ``raw``: with the subject and recipients, it finds the message on the
    /// server when an attempt's outcome is unknown.
    public var dateHeader: String?
    /// Gmail's history id from before the attempt whose outcome is unknown.
    public var checkFromHistory: String?
    /// Set from just before a request is written until its outcome is known.
    public var outcomeUnknown: Bool
    /// Gmail's id and thread once the message is sent.
    public var sentGmailID: String?
    public var sentThreadID: String?
    public var createdAtMs: Int64

    /// The local id an outbox message is stored under: Gmail ids are hexadecimal, so it never collides.
    public static func localGmailID(of action: PendingActionID) -> String { "out-\(action.rawValue)" }
}

/// Where a queued message is on its way to Gmail, as `show` marks its bubble.
public struct OutboxState: Sendable, Equatable {
    public enum Status: String, Sendable, Codable {
        /// Waiting for its first attempt, or for the next one after Gmail could not be reached.
        case queued
        /// An attempt is under way (or was, when a run stopped mid-send).
        case sending
        /// The last attempt failed; another follows on the queue's schedule.
        case failed
        /// Given up: Gmail refused it for good, or every attempt failed. `pending retry` requeues it.
        case abandoned
        /// Given up without knowing whether it went out: the connection broke after the whole message was
        /// written and before the server answered. Never sent again by itself; `pending retry` sends it
        /// again because the person decided to, `pending dismiss` drops it.
        case unknown
    }

    public var actionID: PendingActionID
    public var status: Status
    public var lastError: String?

    public init(actionID: PendingActionID, status: Status, lastError: String?) {
        self.actionID = actionID
        self.status = status
        self.lastError = lastError
    }

    /// The outbox status for a send action's queue status; `nil` once it is sent. An abandoned send whose
    /// last attempt's outcome is unknown is `unknown`.
    public init?(
        actionID: PendingActionID, actionStatus: PendingActionStatus, outcomeUnknown: Bool = false, lastError: String?
    ) {
        let status: Status
        switch actionStatus {
        case .pending: status = .queued
        case .processing: status = .sending
        case .failed: status = .failed
        case .abandoned: status = outcomeUnknown ? .unknown : .abandoned
        case .completed: return nil
        }
        self.init(actionID: actionID, status: status, lastError: lastError)
    }
}
