import GRDB

/// The row id of a `pending_action`: what `chatmail pending retry <id>` and `dismiss <id>` take.
public struct PendingActionID: RawRepresentable, Hashable, Comparable, Sendable, Codable, DatabaseValueConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a queued action does (`pending_action.kind`): a label change, or sending a message.
///
/// Label changes are absolute label sets, which makes them idempotent: sending one twice leaves Gmail as
/// sending it once. A send is the one action that is NOT idempotent; its outbox makes it happen once.
public enum PendingActionKind: String, Sendable, CaseIterable, Codable {
    case archive, unarchive, read, unread, star, unstar, trash, untrash
    /// Sends the message in the action's `outbox` row.
    case send

    /// Label ids the action adds.
    public var addLabels: [String] {
        switch self {
        case .unarchive: ["INBOX"]
        case .unread: ["UNREAD"]
        case .star: ["STARRED"]
        case .trash: ["TRASH"]
        case .archive, .read, .unstar, .untrash, .send: []
        }
    }

    /// Label ids the action removes. Trash also leaves the inbox, as Gmail's own trash does.
    public var removeLabels: [String] {
        switch self {
        case .archive, .trash: ["INBOX"]
        case .read: ["UNREAD"]
        case .unstar: ["STARRED"]
        case .untrash: ["TRASH"]
        case .unarchive, .unread, .star, .send: []
        }
    }

    /// The action that undoes this one: queued after it, the two cancel out on messages not yet sent.
    /// A sent message cannot be unsent.
    public var opposite: PendingActionKind? {
        switch self {
        case .archive: .unarchive
        case .unarchive: .archive
        case .read: .unread
        case .unread: .read
        case .star: .unstar
        case .unstar: .star
        case .trash: .untrash
        case .untrash: .trash
        case .send: nil
        }
    }

    /// Whether applying the action to a message with `labels` would change them.
    public func changes(_ labels: Set<String>) -> Bool {
        addLabels.contains { !labels.contains($0) } || removeLabels.contains { labels.contains($0) }
    }
}

/// One queued local action on its way to Gmail.
public struct PendingAction: Sendable, Equatable, Identifiable {
    public var id: PendingActionID
    public var account: AccountID
    public var kind: PendingActionKind
    /// What the user acted on, for listings ("alice@example.com", "message 18c2…").
    public var target: String
    /// The Gmail ids the action changes, in the order they were queued.
    public var targetIDs: [String]
    /// Target ids Gmail has already accepted.
    public var sentIDs: [String]
    public var addLabels: [String]
    public var removeLabels: [String]
    public var status: PendingActionStatus
    /// Sends tried so far (a send counts when it starts, so a crash mid-send counts too).
    public var attempts: Int
    /// When the action may be sent next, in ms since the epoch.
    public var nextAttemptAtMs: Int64
    public var lastError: String?
    public var createdAtMs: Int64
    public var updatedAtMs: Int64

    public init(
        id: PendingActionID, account: AccountID, kind: PendingActionKind, target: String, targetIDs: [String],
        sentIDs: [String] = [], addLabels: [String], removeLabels: [String], status: PendingActionStatus = .pending,
        attempts: Int = 0, nextAttemptAtMs: Int64, lastError: String? = nil, createdAtMs: Int64, updatedAtMs: Int64
    ) {
        self.id = id
        self.account = account
        self.kind = kind
        self.target = target
        self.targetIDs = targetIDs
        self.sentIDs = sentIDs
        self.addLabels = addLabels
        self.removeLabels = removeLabels
        self.status = status
        self.attempts = attempts
        self.nextAttemptAtMs = nextAttemptAtMs
        self.lastError = lastError
        self.createdAtMs = createdAtMs
        self.updatedAtMs = updatedAtMs
    }

    /// Target ids still to send.
    public var unsentIDs: [String] {
        let sent = Set(sentIDs)
        return targetIDs.filter { !sent.contains($0) }
    }

    /// Whether the queue still owns the action: it will be (or is being) sent, and protects its messages.
    public var isLive: Bool { status.isLive }

    /// Whether any send of the action was ever started, so that Gmail may have applied it to ids that are
    /// not in ``sentIDs`` (an answer lost to a timeout or a dropped connection, or a crash before the
    /// local commit). A claim counts an attempt, every failure leaves ``lastError``, and `pending retry`
    /// resets the attempts but keeps ``lastError``: so an action never tried has neither.
    public var mayHaveReachedGmail: Bool { attempts > 0 || lastError != nil || !sentIDs.isEmpty }
}

extension PendingActionStatus {
    /// Pending, processing and failed actions are still to be sent; their messages keep their local
    /// labels during sync. Completed and abandoned actions are finished.
    public var isLive: Bool {
        switch self {
        case .pending, .processing, .failed: true
        case .completed, .abandoned: false
        }
    }
}

/// A message of a conversation as an action sees it: enough to choose which messages it changes.
public struct ActionCandidate: Sendable, Equatable {
    public var gmailID: String
    public var labels: Set<String>
    public var internalDateMs: Int64
    public var isFromMe: Bool

    public init(gmailID: String, labels: Set<String>, internalDateMs: Int64, isFromMe: Bool) {
        self.gmailID = gmailID
        self.labels = labels
        self.internalDateMs = internalDateMs
        self.isFromMe = isFromMe
    }

    /// Not in TRASH or SPAM: part of what the conversation shows.
    public var isVisible: Bool { !labels.contains("TRASH") && !labels.contains("SPAM") }
}
