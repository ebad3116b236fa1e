import ChatmailStore
import IMAPClient
import IMAPProtocol
import MailText

/// Syncs an IMAP account: folders → labels, then each synced folder (``IMAPFolderSync``), then the
/// messages no folder holds any more are deleted.
///
/// Deletion waits for the end of a complete pass, so a message moved between folders by another client
/// is found in its new folder first and keeps its local identity. A pass in which a folder started over
/// under a new UIDVALIDITY deletes nothing: local mail is never deleted because the server renumbered.
struct IMAPSyncOrchestrator: Sendable {
    let connection: IMAPConnection
    let store: ChatmailStore
    let tracker: ModificationTracker
    let pipeline: TextPipeline
    let crashes: CrashPoints
    let progress: @Sendable (SyncProgress) -> Void

    func run(account: Account, full: Bool) async throws -> SyncReport {
        // QRESYNC must be enabled before any SELECT; a server that announces it but refuses is used without it.
        var qresync = false
        if connection.has("QRESYNC") {
            qresync = try await connection.enable(["QRESYNC"]).contains("QRESYNC")
        }
        let entries = try await connection.listFolders()
        let isGmail = connection.isGmail
        let synced = entries.filter { IMAPFolderRoles.isSynced($0, onGmail: isGmail) }
        let (folders, firstSync, lostCopies) = try await store.write { tx in
            let before = try tx.imapFolders(of: account.id)
            // Folders the server no longer lists (deleted, renamed, or no longer synced) lose their copies.
            let listed = Set(synced.map(\.name))
            var lost: [MessageID] = []
            for folder in before where !listed.contains(folder.name) {
                lost += try tx.forgetIMAPFolder(folder.id)
            }
            // A full sync lists every stored copy's flags again (and sees every deletion), and still downloads
            // only what is missing.
            if full { try tx.forgetIMAPModSeqs(of: account.id) }
            var folders: [IMAPFolderState] = []
            for entry in synced {
                let label = isGmail ? nil : IMAPFolderRoles.label(for: entry)
                if let label, label.isUserLabel {
                    try tx.upsertLabel(gmailID: label.id, name: label.name, type: .user, in: account.id)
                }
                folders.append(try tx.ensureIMAPFolder(named: entry.name, labelID: label?.id, in: account.id))
            }
            // A first sync defers rollups to one pass at its end; the mark says that pass is still owed, so
            // a first sync killed before it is finished as one by the next run.
            let owed = try tx.syncCursor(of: account.id) == Self.firstSyncMark
            let first = owed || before.allSatisfy { $0.uidValidity == nil }
            if first { try tx.setSyncCursor(Self.firstSyncMark, of: account.id) }
            return (folders, first, Set(lost))
        }
        var report = SyncReport(mode: firstSync || full ? .initial : .incremental)
        var context = IMAPSyncContext(
            store: store, tracker: tracker, account: account.id, preparer: IMAPMessagePreparer(pipeline: pipeline),
            crashes: crashes, progress: progress, isGmail: isGmail, rollups: firstSync ? .deferred : .inTransaction)
        context.full = full
        var restarted = false
        for (index, folder) in folders.enumerated() {
            progress(SyncProgress(phase: "folder \(folder.name)", done: index, total: folders.count))
            let outcome = try await IMAPFolderSync(
                connection: connection, context: context, folder: folder, qresync: qresync
            ).run()
            restarted = restarted || outcome.restarted
            report.messagesAdded += outcome.added
            report.labelChanges += outcome.flagChanges
            report.unreadable += outcome.unreadable
        }
        if restarted { report.mode = .recovery }
        let deleted = try await tracker.write(in: store) { [restarted] tx, modifications -> Int in
            try tx.markIMAPSynced(account.id)
            modifications.report(try tx.refreshIMAPLabels(of: lostCopies, in: account.id).conversations)
            guard !restarted else { return 0 }
            let gone = try tx.deleteIMAPMessagesWithoutCopies(in: account.id)
            modifications.report(gone.conversations)
            return gone.count
        }
        report.messagesDeleted += deleted
        if firstSync {
            try await tracker.recomputeStaleRollups(in: store, repairing: account.id)
            try await store.write { tx in try tx.setSyncCursor(nil, of: account.id) }
            crashes.reach(.rollupsCommitted)
        }
        return report
    }

    /// The sync cursor of an IMAP account whose first sync has not finished its rollups.
    static let firstSyncMark = "imap-first-sync"
}
