import Foundation
import GRDB

extension StoreTransaction {
    // MARK: Folders and their sync state

    /// The account's synced folders.
    public func imapFolders(of account: AccountID) throws -> [IMAPFolderState] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM imap_folder WHERE account_id = ? ORDER BY id", arguments: [account]
        ).map(Self.folderState)
    }

    /// The folder named `name`, created with no sync state when it is new. Its label follows the
    /// server's current special-use flags, so a folder that became the archive stops labelling its mail.
    public func ensureIMAPFolder(named name: String, labelID: String?, in account: AccountID) throws
        -> IMAPFolderState
    {
        try db.execute(
            sql: """
                INSERT INTO imap_folder (account_id, name, label_id) VALUES (?, ?, ?)
                ON CONFLICT (account_id, name) DO UPDATE SET label_id = excluded.label_id
                """,
            arguments: [account, name, labelID])
        let row = try Row.fetchOne(
            db, sql: "SELECT * FROM imap_folder WHERE account_id = ? AND name = ?", arguments: [account, name])
        guard let row else { preconditionFailure("the folder row was written in this transaction") }
        return Self.folderState(row)
    }

    /// Starts a folder over under a new UIDVALIDITY: its copies' rows go (their UIDs mean nothing now),
    /// its messages stay, to be found again by the next listing.
    /// - returns: the messages that lost a copy here.
    @discardableResult
    public func restartIMAPFolder(_ folder: IMAPFolderID, uidValidity: UInt32) throws -> [MessageID] {
        let lost = try MessageID.fetchAll(
            db, sql: "SELECT message_id FROM imap_location WHERE folder_id = ?", arguments: [folder])
        try db.execute(sql: "DELETE FROM imap_location WHERE folder_id = ?", arguments: [folder])
        try db.execute(
            sql: "UPDATE imap_folder SET uid_validity = ?, uid_next = 1, highest_modseq = NULL WHERE id = ?",
            arguments: [Int64(uidValidity), folder])
        return lost
    }

    /// Forgets a folder the server no longer lists (deleted or renamed) with its copies; its messages stay
    /// until the end of the pass, so those in a renamed folder are found again there.
    /// - returns: the messages that lost a copy.
    public func forgetIMAPFolder(_ folder: IMAPFolderID) throws -> [MessageID] {
        let lost = try MessageID.fetchAll(
            db, sql: "SELECT message_id FROM imap_location WHERE folder_id = ?", arguments: [folder])
        try db.execute(sql: "DELETE FROM imap_folder WHERE id = ?", arguments: [folder])
        return lost
    }

    /// Records how far the folder is synced. Call it in the transaction that stores what it accounts for.
    public func setIMAPFolderProgress(_ folder: IMAPFolderID, uidNext: UInt32, highestModSeq: UInt64?) throws {
        try db.execute(
            sql: "UPDATE imap_folder SET uid_next = max(uid_next, ?), highest_modseq = ? WHERE id = ?",
            arguments: [Int64(uidNext), highestModSeq.map { Int64(clamping: $0) }, folder])
    }

    /// Forgets every folder's CONDSTORE state, so the next pass lists all stored copies' flags again.
    public func forgetIMAPModSeqs(of account: AccountID) throws {
        try db.execute(sql: "UPDATE imap_folder SET highest_modseq = NULL WHERE account_id = ?", arguments: [account])
    }

    static func folderState(_ row: Row) -> IMAPFolderState {
        let validity: Int64? = row["uid_validity"]
        let next: Int64 = row["uid_next"]
        let modSeq: Int64? = row["highest_modseq"]
        return IMAPFolderState(
            id: row["id"], name: row["name"], labelID: row["label_id"],
            uidValidity: validity.map { UInt32(truncatingIfNeeded: $0) }, uidNext: UInt32(clamping: next),
            highestModSeq: modSeq.map { UInt64($0) })
    }

    // MARK: Copies

    /// Every copy in the folder, by UID.
    public func imapCopies(in folder: IMAPFolderID) throws -> [UInt32: (message: MessageID, state: IMAPCopyState)] {
        var copies: [UInt32: (message: MessageID, state: IMAPCopyState)] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT uid, message_id, seen, flagged, gmail_labels FROM imap_location WHERE folder_id = ?",
            arguments: [folder])
        while let row = try rows.next() {
            let uid: Int64 = row["uid"]
            copies[UInt32(truncatingIfNeeded: uid)] = (row["message_id"], try Self.copyState(row))
        }
        return copies
    }

    /// Records (or updates) the copy at `uid` in the folder.
    public func setIMAPCopy(_ message: MessageID, folder: IMAPFolderID, uid: UInt32, state: IMAPCopyState) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO imap_location (folder_id, uid, message_id, seen, flagged, gmail_labels)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (folder_id, uid) DO UPDATE SET message_id = excluded.message_id, seen = excluded.seen,
                    flagged = excluded.flagged, gmail_labels = excluded.gmail_labels
                """
        ).execute(arguments: [
            folder, Int64(uid), message, state.seen, state.flagged, state.gmailLabels.map(Self.jsonArray),
        ])
    }

    /// Forgets the copies at `uids` (expunged or moved away).
    /// - returns: the messages that lost a copy.
    public func removeIMAPCopies(_ uids: [UInt32], folder: IMAPFolderID) throws -> [MessageID] {
        guard !uids.isEmpty else { return [] }
        let json = "[" + uids.map(String.init).joined(separator: ",") + "]"
        let lost = try MessageID.fetchAll(
            db,
            sql: "SELECT message_id FROM imap_location WHERE folder_id = ? AND uid IN (SELECT value FROM json_each(?))",
            arguments: [folder, json])
        try db.execute(
            sql: "DELETE FROM imap_location WHERE folder_id = ? AND uid IN (SELECT value FROM json_each(?))",
            arguments: [folder, json])
        return lost
    }

    static func copyState(_ row: Row) throws -> IMAPCopyState {
        let labels: String? = row["gmail_labels"]
        return IMAPCopyState(
            seen: row["seen"], flagged: row["flagged"],
            gmailLabels: try labels.map { try JSONDecoder().decode([String].self, from: Data($0.utf8)) })
    }
}
