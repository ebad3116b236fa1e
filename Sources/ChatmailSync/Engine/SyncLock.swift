import ChatmailStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The right to change an account's mail from Gmail: one holder at a time, across processes.
///
/// A sync and a queue run both read Gmail and write what they learn. Two at once would interleave
/// history and label reads that are each only right in their own order, so ``SyncEngine`` and
/// ``PendingActionSender`` take this lock themselves: every caller (the `sync` and `pending`
/// commands, a background sync in a long-running app) is serialized by construction. Readers never
/// take it; SQLite's WAL lets them read while a sync writes.
///
/// It is an exclusive `flock` on `sync-<account>.lock` beside the database. The kernel releases it
/// when the holder exits, even when it is killed, so a crash never leaves a stale lock. `flock`
/// locks belong to an open file, so a second acquisition in the same process is refused too.
public final class SyncLock: @unchecked Sendable {
    // Only `release()` mutates, under `lock`; the descriptor itself is immutable.
    private let descriptor: Int32
    private let lock = NSLock()
    private var released = false

    /// The lock file of `account` for the database at `databasePath`.
    public static func path(forStoreAt databasePath: String, account: AccountID) -> String {
        URL(fileURLWithPath: databasePath).deletingLastPathComponent()
            .appendingPathComponent("sync-\(account.rawValue).lock").path
    }

    /// Takes the lock without waiting.
    /// - throws: ``SyncError/alreadyRunning`` when another holder has it; ``SyncError/lockUnavailable(_:)``
    ///   when the lock file cannot be created.
    public init(forStoreAt databasePath: String, account: AccountID) throws(SyncError) {
        let path = Self.path(forStoreAt: databasePath, account: account)
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .lockUnavailable(String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .alreadyRunning
        }
    }

    /// Takes the lock for `account` of `store`.
    public convenience init(store: ChatmailStore, account: AccountID) throws(SyncError) {
        try self.init(forStoreAt: store.path, account: account)
    }

    /// Gives the lock up; later calls do nothing. Dropping the last reference releases it too.
    public func release() {
        lock.lock()
        defer { lock.unlock() }
        guard !released else { return }
        released = true
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    deinit { release() }
}
