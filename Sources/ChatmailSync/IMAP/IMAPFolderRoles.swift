import IMAPProtocol

/// The one rule for what an IMAP folder or Gmail label means as a chatmail label.
///
/// Folders are labels: INBOX is `INBOX`, the special-use folders are the system labels Gmail's API
/// would give (`\Sent` `SENT`, `\Trash` `TRASH`, `\Junk` `SPAM`, `\Drafts` `DRAFT`), the archive and
/// all-mail folders carry no label (their mail is archived), and any other folder is a user label named
/// after it. On Gmail's IMAP only `\All` is read and the labels come from X-GM-LABELS, because every other
/// Gmail folder is a view of the same messages.
public enum IMAPFolderRoles {
    /// A label as the store keeps it.
    public struct Label: Sendable, Equatable {
        public var id: String
        public var name: String
        public var isUserLabel: Bool
    }

    /// The prefix of user labels made from folder and Gmail label names, which keeps them apart from the
    /// system label ids whatever a folder is called.
    static let userLabelPrefix = "folder:"

    /// Whether sync reads this folder at all.
    public static func isSynced(_ entry: IMAPListEntry, onGmail: Bool) -> Bool {
        guard entry.isSelectable else { return false }
        if onGmail { return entry.specialUse == .all }
        // A \Flagged folder is a server-side view of starred mail in other folders, not a place.
        return entry.specialUse != .flagged
    }

    /// The label a folder's messages carry; `nil` for archive folders (and Gmail's All Mail).
    public static func label(for entry: IMAPListEntry) -> Label? {
        if entry.name.uppercased() == "INBOX" { return system("INBOX") }
        switch entry.specialUse {
        case .sent: return system("SENT")
        case .trash: return system("TRASH")
        case .junk: return system("SPAM")
        case .drafts: return system("DRAFT")
        case .archive, .all: return nil
        case .flagged, nil: return userLabel(entry.name)
        }
    }

    /// A Gmail X-GM-LABELS entry as a label: Gmail's own system labels by their API ids, the rest by name.
    public static func label(forGmailLabel name: String) -> Label {
        switch name.lowercased() {
        case "\\inbox": system("INBOX")
        case "\\sent": system("SENT")
        case "\\important": system("IMPORTANT")
        case "\\starred": system("STARRED")
        case "\\draft", "\\drafts": system("DRAFT")
        case "\\trash": system("TRASH")
        case "\\spam", "\\junk": system("SPAM")
        default: userLabel(name)
        }
    }

    static func system(_ id: String) -> Label { Label(id: id, name: id, isUserLabel: false) }

    static func userLabel(_ name: String) -> Label {
        Label(id: userLabelPrefix + name, name: name, isUserLabel: true)
    }
}
