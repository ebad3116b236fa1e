import GmailModel

/// Opaque page tokens for `messages.list`, `threads.list` and `history.list`: base64url of a position that stays valid while the
/// mailbox changes, so pages neither skip nor repeat messages when mail arrives between them.
enum PageToken: Sendable, Equatable {
    /// `messages.list`: continue after the message with this sort key (newest first).
    case messages(internalDateMs: Int64, id: String)
    /// `threads.list`: continue after the thread whose newest matching message has this sort key.
    case threads(internalDateMs: Int64, id: String)
    /// `history.list`: continue after record `after`, never past `upperBound` (the first page's snapshot).
    case history(after: UInt64, upperBound: UInt64)

    var encoded: String {
        let text: String
        switch self {
        case .messages(let date, let id): text = "m1:\(date):\(id)"
        case .threads(let date, let id): text = "t1:\(date):\(id)"
        case .history(let after, let upper): text = "h1:\(after):\(upper)"
        }
        return Base64URL.encode(Array(text.utf8), padded: false)
    }

    init?(_ token: String) {
        guard let bytes = Base64URL.decode(token) else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":").map(String.init)
        guard parts.count == 3 else { return nil }
        switch parts[0] {
        case "m1":
            guard let date = Int64(parts[1]) else { return nil }
            self = .messages(internalDateMs: date, id: parts[2])
        case "t1":
            guard let date = Int64(parts[1]) else { return nil }
            self = .threads(internalDateMs: date, id: parts[2])
        case "h1":
            guard let after = UInt64(parts[1]), let upper = UInt64(parts[2]) else { return nil }
            self = .history(after: after, upperBound: upper)
        default:
            return nil
        }
    }
}
