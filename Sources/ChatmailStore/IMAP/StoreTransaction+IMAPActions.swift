import Foundation
import GRDB

/// One copy of a message on an IMAP server, as an action finds it.
public struct IMAPMessageLocation: Sendable, Equatable {
    public var folder: IMAPFolderID
    public var folderName: String
    /// The label the folder gives its messages (`INBOX`, `TRASH`, …); `nil` for an archive.
    public var folderLabel: String?
    public var uid: UInt32
    public var state: IMAPCopyState
    /// The folder's UIDVALIDITY the UID belongs to: under another, the UID names another message.
    public var uidValidity: UInt32?

    public init(
        folder: IMAPFolderID, folderName: String, folderLabel: String?, uid: UInt32, state: IMAPCopyState,
        uidValidity: UInt32? = nil
    ) {
        self.folder = folder
        self.folderName = folderName
        self.folderLabel = folderLabel
        self.uid = uid
        self.state = state
        self.uidValidity = uidValidity
    }
}

/// A stored IMAP message as an action sees it: its row, its Message-ID and where the server holds it.
public struct IMAPActionTarget: Sendable, Equatable {
    public var message: MessageID
    public var key: String
    public var rfc822MessageID: String?
    public var locations: [IMAPMessageLocation]

    public init(message: MessageID, key: String, rfc822MessageID: String?, locations: [IMAPMessageLocation]) {
        self.message = message
        self.key = key
        self.rfc822MessageID = rfc822MessageID
        self.locations = locations
    }
}

extension StoreTransaction {
    /// The message stored under provider key `key`, with every copy the store knows of; `nil` when no such
    /// message is stored.
    public func imapActionTarget(key: String, in account: AccountID) throws -> IMAPActionTarget? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT id, rfc822_message_id FROM message WHERE account_id = ? AND gmail_id = ?",
                arguments: [account, key])
        else { return nil }
        let message: MessageID = row["id"]
        let locations = try Row.fetchAll(
            db,
            sql: """
                SELECT l.folder_id, f.name, f.label_id, f.uid_validity, l.uid, l.seen, l.flagged, l.gmail_labels
                FROM imap_location l JOIN imap_folder f ON f.id = l.folder_id
                WHERE l.message_id = ? ORDER BY l.folder_id, l.uid
                """,
            arguments: [message]
        ).map { row in
            let uid: Int64 = row["uid"]
            let validity: Int64? = row["uid_validity"]
            return IMAPMessageLocation(
                folder: row["folder_id"], folderName: row["name"], folderLabel: row["label_id"],
                uid: UInt32(truncatingIfNeeded: uid), state: try Self.copyState(row),
                uidValidity: validity.map { UInt32(truncatingIfNeeded: $0) })
        }
        return IMAPActionTarget(
            message: message, key: key, rfc822MessageID: row["rfc822_message_id"], locations: locations)
    }

    /// The folder of the account with this name; `nil` when sync does not read it.
    public func imapFolder(named name: String, in account: AccountID) throws -> IMAPFolderState? {
        try imapFolders(of: account).first { $0.name == name }
    }

    /// Records what a move did on the server: the copy left `folder`, and, when the new UID is known and
    /// the destination is a folder sync reads, arrived there (so sync neither downloads nor doubles it).
    public func moveIMAPCopy(
        of message: MessageID, from folder: IMAPFolderID, uid: UInt32, to destination: IMAPFolderID?, newUID: UInt32?,
        state: IMAPCopyState
    ) throws {
        _ = try removeIMAPCopies([uid], folder: folder)
        if let destination, let newUID {
            try setIMAPCopy(message, folder: destination, uid: newUID, state: state)
        }
    }

    /// Records a flag change the server accepted on one copy, so the next sync finds nothing to change.
    public func setIMAPCopyFlags(folder: IMAPFolderID, uid: UInt32, seen: Bool?, flagged: Bool?) throws {
        if let seen {
            try db.execute(
                sql: "UPDATE imap_location SET seen = ? WHERE folder_id = ? AND uid = ?",
                arguments: [seen, folder, Int64(uid)])
        }
        if let flagged {
            try db.execute(
                sql: "UPDATE imap_location SET flagged = ? WHERE folder_id = ? AND uid = ?",
                arguments: [flagged, folder, Int64(uid)])
        }
    }
}

extension StoreTransaction {
    /// The messages chatmail sent whose server copy sync has not found yet, by Message-ID: the copy the
    /// server (or chatmail) files in Sent is that same message, however its bytes were rewritten. Read
    /// once per batch of new copies; there are few (most are found by the sync after their send).
    public func unfiledSentMessages(in account: AccountID) throws -> [String: (message: MessageID, key: String)] {
        var unfiled: [String: (message: MessageID, key: String)] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT m.id, m.gmail_id, m.rfc822_message_id FROM outbox o JOIN message m
                    ON m.account_id = o.account_id AND m.gmail_id = o.sent_gmail_id
                WHERE o.account_id = ? AND m.rfc822_message_id IS NOT NULL
                  AND NOT EXISTS (SELECT 1 FROM imap_location l WHERE l.message_id = m.id)
                """,
            arguments: [account])
        {
            unfiled[row["rfc822_message_id"]] = (row["id"], row["gmail_id"])
        }
        return unfiled
    }

    /// Gives a message a new provider key, keeping the outbox row that names it in step.
    public func rekeyMessage(_ message: MessageID, from oldKey: String, to newKey: String, in account: AccountID) throws
    {
        guard oldKey != newKey else { return }
        try db.execute(sql: "UPDATE message SET gmail_id = ? WHERE id = ?", arguments: [newKey, message])
        try db.execute(
            sql: "UPDATE outbox SET sent_gmail_id = ? WHERE account_id = ? AND sent_gmail_id = ?",
            arguments: [newKey, account, oldKey])
    }

    /// The stored message, other than an outbox copy, whose Message-ID is `rfc822MessageID`: a sent
    /// message whose outcome was unknown shows up this way once sync reads it from the server.
    public func syncedMessageKey(withRFC822ID rfc822MessageID: String, in account: AccountID) throws -> String? {
        try String.fetchOne(
            db,
            sql: """
                SELECT gmail_id FROM message
                WHERE account_id = ? AND rfc822_message_id = ? AND gmail_id NOT LIKE 'out-%'
                LIMIT 1
                """,
            arguments: [account, rfc822MessageID])
    }
}
