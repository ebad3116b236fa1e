import ChatmailStore
import IMAPClient
import IMAPProtocol

/// Brings a folder's new UIDs into the store: their metadata in one command, then the bodies of what the
/// store does not hold yet, in batches of a few hundred messages or a few megabytes, several batches in
/// flight at once. Each batch commits in its own transaction.
struct IMAPNewMail {
    let connection: IMAPConnection
    let context: IMAPSyncContext
    let folder: IMAPFolderState

    struct Outcome {
        /// UIDs from UIDNEXT on that the server listed (stored before or now).
        var listed = 0
        var added = 0
        var unreadable = 0
        var highestUID: UInt32?
    }

    /// - parameter matchingHeaders: the folder has just started over under a new UIDVALIDITY, so its
    ///   listing may be matched to stored messages by headers (``IMAPHeaderMatch``).
    func run(skipping stored: Set<UInt32>, matchingHeaders: Bool) async throws -> Outcome {
        var outcome = Outcome()
        let listing = try await connection.uidFetch(
            IMAPUIDSet(parsing: "\(folder.uidNext):*"), items: context.metadataItems(headers: matchingHeaders))
        let fresh = listing.messages.filter { ($0.uid ?? 0) >= folder.uidNext }
        outcome.listed = fresh.count
        outcome.highestUID = fresh.compactMap(\.uid).max()
        var wanted = fresh.filter { !stored.contains($0.uid ?? 0) }.sorted { ($0.uid ?? 0) < ($1.uid ?? 0) }
        guard !wanted.isEmpty else { return outcome }

        // Copies the store already has under another UID: Gmail's id, or after a UIDVALIDITY change the
        // Message-ID, size and INTERNALDATE of exactly one stored message. Adopted without a download.
        let placer = IMAPCopyPlacer(account: context.account, folder: folder)
        if context.isGmail || matchingHeaders {
            try await adoptKnownCopies(&wanted, placer: placer, matchingHeaders: matchingHeaders)
        }
        guard !wanted.isEmpty else { return outcome }

        let batches = IMAPBatchPlan.batches(wanted, maxCount: context.batchCount, maxBytes: context.batchBytes)
        let byUID = Dictionary(wanted.map { ($0.uid ?? 0, $0) }, uniquingKeysWith: { first, _ in first })
        let stream = connection.uidFetchBatches(
            batches.map { IMAPUIDSet($0) }, items: ["UID", "BODY.PEEK[]"], window: context.pipelineWindow)
        var done = 0
        for try await result in stream {
            let fetched = result.messages.compactMap { message -> (IMAPFetchAttributes, [UInt8])? in
                guard let uid = message.uid, var attributes = byUID[uid], let body = message.body else { return nil }
                attributes.body = nil
                return (attributes, body)
            }
            let prepared = await context.preparer.prepareAll(fetched, folderLabel: folder.labelID)
            let crashes = context.crashes
            let placed = try await context.tracker.write(in: context.store, rollups: context.rollups) {
                tx, modifications in
                var placed = try placer.place(prepared, tx: tx, modifications: &modifications)
                let labels = try tx.refreshIMAPLabels(of: placed.touched, in: context.account)
                modifications.report(labels.conversations)
                placed.touched = []
                crashes.reach(.chunkPersisted)
                return placed
            }
            context.crashes.reach(.chunkCommitted)
            outcome.added += placed.inserted
            outcome.unreadable += placed.unreadable
            done += fetched.count
            context.progress(SyncProgress(phase: "downloading \(folder.name)", done: done, total: wanted.count))
        }
        return outcome
    }

    /// Adopts the copies the store already holds (by X-GM-MSGID, or by headers after a UIDVALIDITY
    /// change) in one transaction, and removes them from `wanted`.
    private func adoptKnownCopies(_ wanted: inout [IMAPFetchAttributes], placer: IMAPCopyPlacer, matchingHeaders: Bool)
        async throws
    {
        let listed = wanted
        let adopted = try await context.tracker.write(in: context.store) { tx, modifications in
            var adopted: [UInt32: MessageID] = [:]
            for attributes in listed {
                guard let uid = attributes.uid,
                    let match = try IMAPHeaderMatch.storedMessage(
                        for: attributes, folder: folder, matchingHeaders: matchingHeaders, tx: tx,
                        account: context.account)
                else { continue }
                try placer.adopt(match, uid: uid, state: IMAPMessagePreparer.copyState(attributes), tx: tx)
                adopted[uid] = match
            }
            let labels = try tx.refreshIMAPLabels(of: Set(adopted.values), in: context.account)
            modifications.report(labels.conversations)
            return adopted
        }
        wanted.removeAll { adopted[$0.uid ?? 0] != nil }
    }
}

/// Splits the UIDs to download into batches of at most `maxCount` messages and about `maxBytes` bytes by
/// RFC822.SIZE (a single larger message is a batch of its own).
enum IMAPBatchPlan {
    static func batches(_ messages: [IMAPFetchAttributes], maxCount: Int, maxBytes: Int) -> [[UInt32]] {
        var batches: [[UInt32]] = []
        var current: [UInt32] = []
        var bytes = 0
        for message in messages {
            guard let uid = message.uid else { continue }
            let size = message.rfc822Size ?? 0
            if !current.isEmpty && (current.count >= maxCount || bytes + size > maxBytes) {
                batches.append(current)
                current = []
                bytes = 0
            }
            current.append(uid)
            bytes += size
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }
}
