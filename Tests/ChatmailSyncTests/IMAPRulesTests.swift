import ChatmailStore
import IMAPProtocol
import Testing

@testable import ChatmailSync

/// The pure rules of IMAP sync: folders and Gmail labels as labels, a copy's state, keys and batches.
@Suite struct IMAPRulesTests {
    func entry(_ name: String, _ attributes: [String] = []) -> IMAPListEntry {
        IMAPListEntry(attributes: attributes, delimiter: "/", name: name, rawName: Array(name.utf8))
    }

    @Test("folders are labels: INBOX, the special uses as system labels, archives none, others by name")
    func folderLabels() {
        #expect(IMAPFolderRoles.label(for: entry("INBOX"))?.id == "INBOX")
        #expect(IMAPFolderRoles.label(for: entry("inbox"))?.id == "INBOX")
        #expect(IMAPFolderRoles.label(for: entry("Gesendet", ["\\HasNoChildren", "\\Sent"]))?.id == "SENT")
        #expect(IMAPFolderRoles.label(for: entry("Papierkorb", ["\\Trash"]))?.id == "TRASH")
        #expect(IMAPFolderRoles.label(for: entry("Spam", ["\\Junk"]))?.id == "SPAM")
        #expect(IMAPFolderRoles.label(for: entry("Entwürfe", ["\\Drafts"]))?.id == "DRAFT")
        #expect(IMAPFolderRoles.label(for: entry("Archive", ["\\Archive"])) == nil)
        #expect(IMAPFolderRoles.label(for: entry("All", ["\\All"])) == nil)
        let user = IMAPFolderRoles.label(for: entry("Projects/2026"))
        #expect(user?.id == "folder:Projects/2026" && user?.name == "Projects/2026" && user?.isUserLabel == true)
        // A folder named like a system label is still the user's folder.
        #expect(IMAPFolderRoles.label(for: entry("SENT"))?.id == "folder:SENT")
    }

    @Test("on Gmail only All Mail is read; elsewhere every selectable folder but a \\Flagged view")
    func syncedFolders() {
        let all = entry("[Gmail]/All Mail", ["\\All", "\\HasNoChildren"])
        let sent = entry("[Gmail]/Sent Mail", ["\\Sent"])
        #expect(IMAPFolderRoles.isSynced(all, onGmail: true) && !IMAPFolderRoles.isSynced(sent, onGmail: true))
        #expect(!IMAPFolderRoles.isSynced(entry("INBOX"), onGmail: true))
        #expect(
            IMAPFolderRoles.isSynced(sent, onGmail: false) && IMAPFolderRoles.isSynced(entry("INBOX"), onGmail: false))
        #expect(!IMAPFolderRoles.isSynced(entry("[Gmail]", ["\\Noselect", "\\HasChildren"]), onGmail: false))
        #expect(!IMAPFolderRoles.isSynced(entry("Starred", ["\\Flagged"]), onGmail: false))
    }

    @Test("Gmail's labels map to its API's ids; user labels keep their names")
    func gmailLabels() {
        let attributes = IMAPFetchAttributes(
            uid: 7, flags: ["\\Flagged"], gmailLabels: ["\\Inbox", "\\Important", "Work", "\\Sent"])
        let state = IMAPMessagePreparer.copyState(attributes)
        #expect(!state.seen && state.flagged)
        #expect(state.gmailLabels == ["IMPORTANT", "INBOX", "SENT", "folder:Work"])
        #expect(
            IMAPMessagePreparer.labels(folderLabel: nil, copy: state)
                == ["IMPORTANT", "INBOX", "SENT", "STARRED", "UNREAD", "folder:Work"])
    }

    @Test("a listing without flags keeps the stored state; \\Seen is read case-insensitively")
    func copyStateFallback() {
        let stored = IMAPCopyState(seen: false, flagged: true, gmailLabels: ["INBOX"])
        #expect(IMAPMessagePreparer.copyState(IMAPFetchAttributes(uid: 1), fallback: stored) == stored)
        let read = IMAPMessagePreparer.copyState(IMAPFetchAttributes(uid: 1, flags: ["\\SEEN"]), fallback: stored)
        #expect(read == IMAPCopyState(seen: true, flagged: false, gmailLabels: ["INBOX"]))
    }

    @Test("keys: the digest first, then the lowest free counter for further copies of the same bytes")
    func keys() {
        let digest = String(repeating: "ab", count: 32)
        let base = "imap-" + String(digest.prefix(32))
        #expect(IMAPCopyPlacer.key(digest: digest, taken: []) == base)
        #expect(IMAPCopyPlacer.key(digest: digest, taken: [base]) == base + "-2")
        #expect(IMAPCopyPlacer.key(digest: digest, taken: [base, base + "-3"]) == base + "-2")
        #expect(IMAPCopyPlacer.key(digest: digest, taken: [base + "-2"]) == base)
    }

    @Test("batches hold at most the count and about the bytes; a large message is a batch of its own")
    func batches() {
        let messages = (1...7).map { IMAPFetchAttributes(uid: UInt32($0), rfc822Size: $0 == 4 ? 900 : 100) }
        #expect(IMAPBatchPlan.batches(messages, maxCount: 3, maxBytes: 10_000) == [[1, 2, 3], [4, 5, 6], [7]])
        #expect(IMAPBatchPlan.batches(messages, maxCount: 10, maxBytes: 500) == [[1, 2, 3], [4], [5, 6, 7]])
    }
}
