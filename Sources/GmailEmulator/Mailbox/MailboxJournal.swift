import Foundation

/// The changes made to a served mailbox, appended to a file one JSON line each, so that an emulator
/// restarted on the same mailbox and seed comes back exactly as it stopped.
///
/// Replaying the same changes in the same order against the same seed draws the same random numbers,
/// so message ids, thread ids and history ids come out identical. A client that synced against the
/// previous run therefore carries on incrementally, as it would against a Gmail that never went away.
/// The refresh tokens the emulator issued are journaled too, so a saved login keeps working.
///
/// Only successful changes are written: a request Gmail would refuse changes nothing and draws no
/// random number, so leaving it out keeps the replay faithful.
public final class MailboxJournal: @unchecked Sendable {
    /// One change, in the terms of ``MailboxState`` and ``OAuthServer``.
    public enum Entry: Codable, Sendable, Equatable {
        /// Labels added and removed on each of `ids`; `history` is false for the silent drift tests use.
        case modify(ids: [String], add: [String], remove: [String], history: Bool)
        case trash(id: String)
        case untrash(id: String)
        case delete(id: String)
        case insert(raw: Data, labels: [String]?, internalDateMs: Int64?)
        /// `messages.send` as the client asked for it; replaying it makes the same edits again.
        case send(raw: Data, threadId: String?, internalDateMs: Int64)
        /// `drafts.create` (`id` nil) or `drafts.update`.
        case saveDraft(id: String?, raw: Data, threadId: String?, internalDateMs: Int64)
        case deleteDraft(id: String)
        case sendDraft(id: String, internalDateMs: Int64)
        case refreshTokenIssued(String)
        case tokenRevoked(String)
    }

    /// A journal that cannot be read back, or that no longer fits the mailbox it was written for. The
    /// emulator refuses to start rather than serve a mailbox that silently lost its changes.
    public struct Unreadable: Error, LocalizedError {
        public let path: String
        public let line: Int
        public var errorDescription: String? {
            "the mailbox journal \(path) is damaged or does not fit this mailbox at line \(line); remove it to start afresh"
        }
    }

    public let path: String
    private let lock = NSLock()
    private let handle: FileHandle

    /// Opens (creating, mode 0600) the journal at `path` for appending.
    public init(path: String) throws {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seekToEnd()
    }

    deinit { try? handle.close() }  // closing a file opened for appending loses nothing already written

    /// The entries written so far, oldest first.
    public func entries() throws -> [Entry] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let decoder = JSONDecoder()
        var entries: [Entry] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
            do {
                entries.append(try decoder.decode(Entry.self, from: Data(line)))
            } catch {
                throw Unreadable(path: path, line: index + 1)
            }
        }
        return entries
    }

    /// Appends `entry` as one line. A write that fails is reported on stderr: the emulator keeps
    /// serving, but its next start will not have this change.
    func append(_ entry: Entry) {
        lock.lock()
        defer { lock.unlock() }
        do {
            var line = try JSONEncoder().encode(entry)
            line.append(UInt8(ascii: "\n"))
            try handle.write(contentsOf: line)
        } catch {
            FileHandle.standardError.write(Data("gmail-emulator: cannot write the journal \(path): \(error)\n".utf8))
        }
    }

    /// Applies every journaled change to `mailbox` and `oauth`, then records new changes here.
    public func replay(into mailbox: MailboxState, oauth: OAuthServer) async throws {
        for (index, entry) in try entries().enumerated() {
            switch entry {
            case .refreshTokenIssued(let token): await oauth.accept(refreshToken: token)
            case .tokenRevoked(let token): await oauth.forget(token: token)
            default:
                do {
                    try await mailbox.apply(entry)
                } catch {
                    throw Unreadable(path: path, line: index + 1)
                }
            }
        }
        await mailbox.record(to: self)
        await oauth.record(to: self)
    }
}
