import ChatmailStore
import Foundation

/// Which kind of pull a sync ran.
public enum SyncMode: String, Sendable, Codable, Equatable {
    /// The first full sync (or `--full`), resumable.
    case initial
    /// History since the stored history id.
    case incremental
    /// History had expired: ids listed again, only unknown messages fetched in full.
    case recovery
}

/// What one `chatmail sync` did (also the `sync --json` shape).
public struct SyncReport: Sendable, Equatable, Codable {
    public var mode: SyncMode
    public var messagesAdded = 0
    public var messagesDeleted = 0
    public var labelChanges = 0
    public var conversationsUpdated = 0
    public var pendingSent = 0
    /// Messages that failed to download in this run and were recorded to retry next time.
    public var abandoned = 0
    /// Messages stored although they could not be read as email (kept as what they are: headers, size).
    public var unreadable = 0
    public var historyId: String = ""
    public var seconds: Double = 0

    public init(mode: SyncMode) {
        self.mode = mode
    }
}

/// Progress of a long sync, for a progress bar.
public struct SyncProgress: Sendable, Equatable {
    public var phase: String
    public var done: Int
    public var total: Int
}

/// Sends queued local actions to Gmail before a sync pulls: ``PendingActionSender``.
public protocol PendingActionPusher: Sendable {
    /// Sends every due action; returns how many were sent. ``SyncEngine`` calls it while it holds the
    /// account's ``SyncLock``, so an implementation must not take that lock again.
    func pushDue(account: AccountID) async throws -> Int
    /// Runs after the pull, under the same lock: settles what the pull may have made visible (a sent
    /// message whose send had an unknown outcome). Nothing by default.
    func settleAfterPull(account: AccountID) async throws
}

extension PendingActionPusher {
    public func settleAfterPull(account: AccountID) async throws {}
}

/// Errors that stop a sync, with what to do next.
public enum SyncError: Error, Sendable, Equatable {
    /// The stored login belongs to another Gmail address than the store's account.
    case accountMismatch(stored: String, gmail: String)
    /// Another sync or queue run of this account holds its ``SyncLock``.
    case alreadyRunning
    /// The lock file beside the database cannot be created.
    case lockUnavailable(String)
}

extension SyncError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .accountMismatch(let stored, let gmail):
            "The saved login is for \(gmail), but this chatmail home holds \(stored). Use another --home or log in again."
        case .alreadyRunning:
            "Another chatmail sync of this account is running. Wait for it to finish, then try again."
        case .lockUnavailable(let reason):
            "Cannot create the sync lock beside the database (\(reason))."
        }
    }
}
