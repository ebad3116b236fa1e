import ChatmailStore
import IMAPClient
import IMAPProtocol

/// The folders an action may send a message to, as the server names them.
struct IMAPServerFolders: Sendable, Equatable {
    var inbox = "INBOX"
    /// The `\Archive` folder; `nil` when the server has none (archiving then creates "Archive").
    var archive: String?
    var trash: String?
    /// Gmail's `[Gmail]/All Mail` (`\All`), where every Gmail message is synced from.
    var all: String?
    var sent: String?
    var isGmail = false

    /// Every folder's name, for the folders a server has without a special-use attribute.
    var names: Set<String> = []

    /// The folder archive moves to, and whether it must be created first.
    var archiveTarget: (name: String, create: Bool) { target(archive, named: "Archive") }
    /// The folder trash moves to: `\Trash`, else a folder called "Trash", created when there is none.
    var trashTarget: (name: String, create: Bool) { target(trash, named: "Trash") }

    private func target(_ specialUse: String?, named name: String) -> (name: String, create: Bool) {
        if let specialUse { return (specialUse, false) }
        if let existing = names.first(where: { $0.lowercased() == name.lowercased() }) {
            return (existing, false)
        }
        return (name, true)
    }

    /// The roles of a server's folder list.
    init(listing: [IMAPListEntry], isGmail: Bool) {
        self.isGmail = isGmail
        for entry in listing {
            names.insert(entry.name)
            if entry.name.uppercased() == "INBOX" { inbox = entry.name }
            switch entry.specialUse {
            case .archive: archive = archive ?? entry.name
            case .trash: trash = trash ?? entry.name
            case .all: all = all ?? entry.name
            case .sent: sent = sent ?? entry.name
            default: break
            }
        }
    }

    init(
        inbox: String = "INBOX", archive: String?, trash: String?, all: String? = nil, sent: String? = nil,
        isGmail: Bool = false
    ) {
        self.inbox = inbox
        self.archive = archive
        self.trash = trash
        self.all = all
        self.sent = sent
        self.isGmail = isGmail
    }
}

/// One server change an action makes to one copy of a message.
enum IMAPStep: Sendable, Equatable {
    /// `UID STORE ±FLAGS (flag)`.
    case storeFlag(IMAPMessageLocation, IMAPFlagChange, String)
    /// `UID STORE ±X-GM-LABELS (label)`: Gmail's labels, such as `\Inbox`.
    case storeGmailLabel(IMAPMessageLocation, IMAPFlagChange, String)
    /// Moves the copy to `destination` (creating it first when `create`): MOVE, or COPY + delete.
    case move(IMAPMessageLocation, destination: String, create: Bool)
    /// Copies it, leaving the copy where it is.
    case copy(IMAPMessageLocation, destination: String)
    /// Deletes the copy: `\Deleted` and UID EXPUNGE (a second copy an action would otherwise double),
    /// once the message is found in `keptIn`; when it is not there any more, the copy moves there instead.
    case delete(IMAPMessageLocation, keptIn: String)
    /// The message is in no folder sync reads (Gmail's Trash): find it in `folder` by its Message-ID
    /// and move it to `destination`.
    case moveFound(rfc822MessageID: String, folder: String, destination: String)
}

/// What each queued action does on an IMAP server, one message at a time.
///
/// The rule it keeps: after the steps, the message has exactly one copy in the folder the action means
/// (a second copy in one folder would be a second message to chatmail and to every other client).
/// Flags change every copy, since each copy carries its own.
enum IMAPActionPlan {
    static func steps(for kind: PendingActionKind, target: IMAPActionTarget, folders: IMAPServerFolders)
        -> [IMAPStep]
    {
        let copies = target.locations
        switch kind {
        case .read: return copies.map { .storeFlag($0, .add, "\\Seen") }
        case .unread: return copies.map { .storeFlag($0, .remove, "\\Seen") }
        case .star: return copies.map { .storeFlag($0, .add, "\\Flagged") }
        case .unstar: return copies.map { .storeFlag($0, .remove, "\\Flagged") }
        case .send: return []
        case .archive, .unarchive, .trash, .untrash:
            return folders.isGmail
                ? gmailSteps(for: kind, target: target, folders: folders)
                : folderSteps(for: kind, copies: copies, folders: folders)
        }
    }

    /// Gmail over IMAP: labels on the `\All` copy; Trash by moving, since Gmail's trash is a folder.
    private static func gmailSteps(for kind: PendingActionKind, target: IMAPActionTarget, folders: IMAPServerFolders)
        -> [IMAPStep]
    {
        let all = target.locations.filter { $0.folderName == folders.all }
        switch kind {
        case .archive: return all.map { .storeGmailLabel($0, .remove, "\\Inbox") }
        case .unarchive: return all.map { .storeGmailLabel($0, .add, "\\Inbox") }
        case .trash:
            let trash = folders.trashTarget
            return all.prefix(1).map { .move($0, destination: trash.name, create: trash.create) }
        case .untrash:
            guard all.isEmpty, let trash = folders.trash, let id = target.rfc822MessageID else { return [] }
            return [.moveFound(rfc822MessageID: id, folder: trash, destination: folders.inbox)]
        default: return []
        }
    }

    private static func folderSteps(
        for kind: PendingActionKind, copies: [IMAPMessageLocation], folders: IMAPServerFolders
    ) -> [IMAPStep] {
        let trash = folders.trashTarget
        let inInbox = copies.filter { $0.folderName == folders.inbox }
        let inTrash = copies.filter { $0.folderName == trash.name }
        let archive = folders.archiveTarget
        let inArchive = copies.filter { $0.folderName == archive.name }
        let elsewhere = copies.filter { $0.folderName != trash.name && $0.folderLabel != "SPAM" }
        switch kind {
        case .archive:
            // Already in the archive: the inbox copy goes, rather than make a second archived copy.
            guard inArchive.isEmpty else { return inInbox.map { .delete($0, keptIn: archive.name) } }
            return inInbox.enumerated().map { index, copy in
                index == 0
                    ? .move(copy, destination: archive.name, create: archive.create)
                    : .delete(copy, keptIn: archive.name)
            }
        case .unarchive:
            guard inInbox.isEmpty else { return [] }
            if let archived = inArchive.first { return [.move(archived, destination: folders.inbox, create: false)] }
            return elsewhere.prefix(1).map { .copy($0, destination: folders.inbox) }
        case .trash:
            let leaving = copies.filter { $0.folderName != trash.name }
            guard inTrash.isEmpty else { return leaving.map { .delete($0, keptIn: trash.name) } }
            return leaving.enumerated().map { index, copy in
                index == 0
                    ? .move(copy, destination: trash.name, create: trash.create) : .delete(copy, keptIn: trash.name)
            }
        case .untrash:
            guard let first = inTrash.first else { return [] }
            let inbox = folders.inbox
            return [inInbox.isEmpty ? .move(first, destination: inbox, create: false) : .delete(first, keptIn: inbox)]
                + inTrash.dropFirst().map { .delete($0, keptIn: inbox) }
        default:
            return []
        }
    }
}
