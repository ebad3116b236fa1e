import ChatmailStore
import TextFormatting

extension JSONRenderer {
    /// `pending --json`: an array of `{id, kind, target, status, attempts, nextAttemptAt, lastError}`.
    /// `nextAttemptAt` is null for actions that will not be sent again (completed, abandoned).
    public func render(_ actions: [PendingAction]) throws -> String {
        try encode(
            actions.map { action in
                PendingActionJSON(
                    id: action.id.rawValue, kind: action.kind.rawValue, target: action.target,
                    status: action.status.rawValue,
                    attempts: action.attempts,
                    nextAttemptAt: action.isLive ? time.iso8601(action.nextAttemptAtMs) : nil,
                    lastError: action.lastError)
            })
    }
}

struct PendingActionJSON: Encodable {
    var id: Int64
    var kind: String
    var target: String
    var status: String
    var attempts: Int
    var nextAttemptAt: String?
    var lastError: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(target, forKey: .target)
        try container.encode(status, forKey: .status)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(nextAttemptAt, forKey: .nextAttemptAt)  // null, not absent
        try container.encode(lastError, forKey: .lastError)
    }

    enum CodingKeys: String, CodingKey { case id, kind, target, status, attempts, nextAttemptAt, lastError }
}
