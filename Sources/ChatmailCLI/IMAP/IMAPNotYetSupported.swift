import ChatmailStore
import Foundation

/// What an IMAP account cannot do yet: server-side changes, sending and attachment downloads go through
/// Gmail's API only. Local changes are kept and queued, so nothing is lost while they wait.
enum IMAPNotYetSupported: Error, Equatable {
    case pendingActions
    case sending
    case attachments

    /// Throws when `account` is an IMAP account and the command needs Gmail's API for `feature`.
    static func check(_ account: Account, for feature: Self) throws {
        if account.provider == .imap { throw feature }
    }
}

extension IMAPNotYetSupported: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .pendingActions:
            "Queued actions cannot be sent to an IMAP server yet; they stay queued, and the local change stays."
        case .sending:
            "Sending from an IMAP account is not available yet; the message stays queued in the outbox."
        case .attachments:
            "Downloading attachments from an IMAP account is not available yet; export without --attachments."
        }
    }
}
