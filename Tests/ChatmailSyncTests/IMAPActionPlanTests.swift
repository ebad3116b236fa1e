import ChatmailStore
import IMAPClient
import IMAPProtocol
import SMTPClient
import Testing

@testable import ChatmailSync

/// What each action asks of an IMAP server, decided without one: the rule that a message ends with
/// exactly one copy in the folder the action means.
@Suite("IMAP action plans")
struct IMAPActionPlanTests {
    static let folders = IMAPServerFolders(archive: "Archive", trash: "Trash", sent: "Sent")

    static func copy(_ folder: String, uid: UInt32, label: String?, id: Int64 = 1) -> IMAPMessageLocation {
        IMAPMessageLocation(
            folder: IMAPFolderID(rawValue: id), folderName: folder, folderLabel: label, uid: uid,
            state: IMAPCopyState(seen: false, flagged: false))
    }

    static func target(_ copies: [IMAPMessageLocation]) -> IMAPActionTarget {
        IMAPActionTarget(
            message: MessageID(rawValue: 7), key: "imap-k", rfc822MessageID: "<m@example.net>", locations: copies)
    }

    let inbox = copy("INBOX", uid: 4, label: "INBOX", id: 1)
    let projects = copy("Projects", uid: 9, label: "folder:Projects", id: 2)
    let archived = copy("Archive", uid: 3, label: nil, id: 3)
    let trashed = copy("Trash", uid: 5, label: "TRASH", id: 4)

    func steps(_ kind: PendingActionKind, _ copies: [IMAPMessageLocation], folders: IMAPServerFolders = folders)
        -> [IMAPStep]
    {
        IMAPActionPlan.steps(for: kind, target: Self.target(copies), folders: folders)
    }

    @Test("flags change on every copy")
    func flags() {
        #expect(
            steps(.read, [inbox, projects]) == [
                .storeFlag(inbox, .add, "\\Seen"), .storeFlag(projects, .add, "\\Seen"),
            ])
        #expect(steps(.unread, [inbox]) == [.storeFlag(inbox, .remove, "\\Seen")])
        #expect(steps(.star, [inbox]) == [.storeFlag(inbox, .add, "\\Flagged")])
        #expect(steps(.unstar, [inbox]) == [.storeFlag(inbox, .remove, "\\Flagged")])
    }

    @Test("archive moves the inbox copy, creating Archive only when the server has none; never a second archived copy")
    func archive() {
        #expect(steps(.archive, [inbox, projects]) == [.move(inbox, destination: "Archive", create: false)])
        let none = IMAPServerFolders(archive: nil, trash: "Trash")
        #expect(steps(.archive, [inbox], folders: none) == [.move(inbox, destination: "Archive", create: true)])
        #expect(steps(.archive, [inbox, archived]) == [.delete(inbox, keptIn: "Archive")])
        #expect(steps(.archive, [archived]).isEmpty)
    }

    @Test("unarchive moves the archived copy back, or copies a user folder's copy; nothing when already in INBOX")
    func unarchive() {
        #expect(steps(.unarchive, [archived]) == [.move(archived, destination: "INBOX", create: false)])
        #expect(steps(.unarchive, [projects]) == [.copy(projects, destination: "INBOX")])
        #expect(steps(.unarchive, [inbox, archived]).isEmpty)
    }

    @Test("trash leaves exactly one copy, in Trash; untrash brings exactly one back to INBOX")
    func trash() {
        #expect(
            steps(.trash, [inbox, projects]) == [
                .move(inbox, destination: "Trash", create: false), .delete(projects, keptIn: "Trash"),
            ])
        #expect(steps(.trash, [inbox, trashed]) == [.delete(inbox, keptIn: "Trash")])
        // No special-use Trash: a folder called Trash, created when the server has none.
        let noTrash = IMAPServerFolders(archive: "Archive", trash: nil)
        #expect(steps(.trash, [inbox], folders: noTrash) == [.move(inbox, destination: "Trash", create: true)])
        let plainTrash = IMAPServerFolders(
            listing: [IMAPListEntry(attributes: [], delimiter: "/", name: "trash", rawName: Array("trash".utf8))],
            isGmail: false)
        #expect(steps(.trash, [inbox], folders: plainTrash) == [.move(inbox, destination: "trash", create: false)])
        #expect(steps(.untrash, [trashed]) == [.move(trashed, destination: "INBOX", create: false)])
        #expect(steps(.untrash, [trashed, inbox]) == [.delete(trashed, keptIn: "INBOX")])
    }

    @Test("Gmail over IMAP: archive is the \\Inbox label on the All Mail copy; trash moves it; untrash finds it")
    func gmail() {
        let all = Self.copy("[Gmail]/All Mail", uid: 12, label: nil)
        let gmail = IMAPServerFolders(
            archive: nil, trash: "[Gmail]/Trash", all: "[Gmail]/All Mail", sent: "[Gmail]/Sent Mail", isGmail: true)
        #expect(steps(.archive, [all], folders: gmail) == [.storeGmailLabel(all, .remove, "\\Inbox")])
        #expect(steps(.unarchive, [all], folders: gmail) == [.storeGmailLabel(all, .add, "\\Inbox")])
        #expect(steps(.trash, [all], folders: gmail) == [.move(all, destination: "[Gmail]/Trash", create: false)])
        #expect(
            steps(.untrash, [], folders: gmail) == [
                .moveFound(rfc822MessageID: "<m@example.net>", folder: "[Gmail]/Trash", destination: "INBOX")
            ])
        #expect(steps(.read, [all], folders: gmail) == [.storeFlag(all, .add, "\\Seen")])
    }

    @Test("the folder roles come from the server's special-use attributes")
    func roles() {
        let listing = [
            IMAPListEntry(attributes: ["\\HasNoChildren"], delimiter: "/", name: "INBOX", rawName: Array("INBOX".utf8)),
            IMAPListEntry(attributes: ["\\Archive"], delimiter: "/", name: "Old mail", rawName: Array("Old mail".utf8)),
            IMAPListEntry(attributes: ["\\Trash"], delimiter: "/", name: "Bin", rawName: Array("Bin".utf8)),
            IMAPListEntry(attributes: ["\\Sent"], delimiter: "/", name: "Outgoing", rawName: Array("Outgoing".utf8)),
        ]
        let folders = IMAPServerFolders(listing: listing, isGmail: false)
        #expect(folders.archive == "Old mail" && folders.trash == "Bin" && folders.sent == "Outgoing")
        #expect(IMAPServerFolders(listing: [], isGmail: false).archiveTarget == ("Archive", true))
    }

    @Test("sent_copy auto files a copy unless the SMTP host files its own (Gmail, Outlook, iCloud)")
    func sentCopy() {
        func link(_ host: String, _ policy: IMAPAccountSettings.SentCopy) -> IMAPAccountLink {
            IMAPAccountLink(
                imap: IMAPConnector(
                    endpoint: IMAPEndpoint(host: "imap.example.org", port: 993, security: .tls),
                    authentication: { .password(user: "u", password: "p") }),
                smtp: SMTPEndpoint(host: host, port: 465, security: .tls), sentCopy: policy)
        }
        #expect(link("smtp.fastmail.com", .auto).appendsSentCopy)
        #expect(!link("smtp.gmail.com", .auto).appendsSentCopy)
        #expect(!link("smtp.office365.com", .auto).appendsSentCopy)
        #expect(!link("SMTP-MAIL.OUTLOOK.COM", .auto).appendsSentCopy)
        #expect(!link("smtp.mail.me.com", .auto).appendsSentCopy)
        #expect(link("notgmail.com.example.org", .auto).appendsSentCopy)
        #expect(link("smtp.gmail.com", .always).appendsSentCopy)
        #expect(!link("smtp.fastmail.com", .never).appendsSentCopy)
    }
}
