import ChatmailStore
import Foundation

/// What an IMAP account cannot do yet: attachment downloads go through Gmail's API only.
enum IMAPNotYetSupported: Error, Equatable {
    case attachments

    /// Throws when `account` is an IMAP account and the command needs Gmail's API for `feature`.
    static func check(_ account: Account, for feature: Self) throws {
        if account.provider == .imap { throw feature }
    }
}

extension IMAPNotYetSupported: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .attachments:
            "Downloading attachments from an IMAP account is not available yet; export without --attachments."
        }
    }
}
