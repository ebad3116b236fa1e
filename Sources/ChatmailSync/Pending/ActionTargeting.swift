import ChatmailStore

/// Which messages of a conversation an action changes.
///
/// Only messages whose labels the action would change are chosen: the action's label sets are absolute,
/// so leaving out messages already in the wanted state changes nothing on Gmail, and spares quota and
/// conflict protection. Messages in TRASH or SPAM are not part of a conversation's view and are left alone.
///
/// - archive, read, unstar, trash: every visible message they would change (archive removes INBOX from
///   every message; new mail arriving in INBOX later un-archives the conversation again).
/// - unarchive: every visible message from the other side without INBOX (my own sent messages stay out
///   of the inbox, as Gmail keeps them).
/// - star: the newest visible message, as Gmail stars a thread's latest message.
/// - unread: the newest visible message from someone else (the newest of mine when there is none).
public enum ActionTargeting {
    /// - parameter candidates: the conversation's messages, in any order.
    /// - returns: Gmail ids, newest first.
    public static func targets(of kind: PendingActionKind, among candidates: [ActionCandidate]) -> [String] {
        let visible = candidates.filter(\.isVisible).sorted {
            ($0.internalDateMs, $0.gmailID) > ($1.internalDateMs, $1.gmailID)
        }
        switch kind {
        case .star:
            return visible.first.map { kind.changes($0.labels) ? [$0.gmailID] : [] } ?? []
        case .unread:
            guard let newest = visible.first(where: { !$0.isFromMe }) ?? visible.first else { return [] }
            return kind.changes(newest.labels) ? [newest.gmailID] : []
        case .untrash:
            return candidates.filter { kind.changes($0.labels) }.map(\.gmailID)
        case .unarchive:
            let theirs = visible.filter { !$0.isFromMe && kind.changes($0.labels) }
            return theirs.map(\.gmailID)
        case .archive, .read, .unstar, .trash:
            return visible.filter { kind.changes($0.labels) }.map(\.gmailID)
        case .send:
            return []  // a send targets its own outbox message, never a conversation's
        }
    }
}
