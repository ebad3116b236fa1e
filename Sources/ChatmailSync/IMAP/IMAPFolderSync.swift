import ChatmailStore
import IMAPClient
import IMAPProtocol

/// Syncs one folder: SELECT, the changes to copies already stored, then new mail.
///
/// The folder's state (UIDNEXT, HIGHESTMODSEQ) advances only in the transaction that stores the last of
/// what it accounts for; a sync killed before that finds the old state and redoes the folder, skipping
/// the UIDs already stored. Changes to known copies are read the cheapest way the server announced:
/// QRESYNC's SELECT, CONDSTORE's CHANGEDSINCE, or a full flag listing. CHANGEDSINCE 0 is never sent.
struct IMAPFolderSync {
    let connection: IMAPConnection
    let context: IMAPSyncContext
    let folder: IMAPFolderState
    let qresync: Bool

    /// What the folder pass did, for the report.
    struct Outcome {
        var added = 0
        var flagChanges = 0
        var removedCopies = 0
        var unreadable = 0
        var restarted = false
    }

    func run() async throws -> Outcome {
        var outcome = Outcome()
        let condstore = connection.has("CONDSTORE") || qresync
        var parameters: IMAPSelectParameters?
        if qresync, let validity = folder.uidValidity, let modSeq = folder.highestModSeq, modSeq > 0 {
            parameters = .qresync(uidValidity: validity, modSeq: modSeq, knownUIDs: nil)
        } else if condstore {
            parameters = .condstore
        }
        let selection = try await connection.select(folder.name, parameters: parameters)
        var state = folder
        if folder.uidValidity != selection.uidValidity {
            // A new UIDVALIDITY: the stored UIDs mean nothing now. Only the folder's copies go; its
            // messages stay, to be found again below (by headers first).
            outcome.restarted = folder.uidValidity != nil
            try await context.store.write { tx in
                try tx.restartIMAPFolder(folder.id, uidValidity: selection.uidValidity)
            }
            state.uidValidity = selection.uidValidity
            state.uidNext = 1
            state.highestModSeq = nil
        }
        let known = try await context.store.write { [state] tx in try tx.imapCopies(in: state.id) }

        // 1. What changed among the copies already stored.
        var changes = IMAPCopyChanges()
        if !known.isEmpty {
            if case .qresync = parameters {
                changes.vanished = Set(selection.vanished)
                changes.changed = selection.changed
            } else if condstore, let since = state.highestModSeq, since > 0, let now = selection.highestModSeq {
                if now != since {
                    let fetched = try await connection.uidFetch(
                        IMAPUIDSet(parsing: "1:*"), items: context.flagItems, changedSince: since)
                    changes.changed = fetched.messages
                }
            } else if state.uidNext > 1 {
                let listing = try await connection.uidFetch(
                    IMAPUIDSet(parsing: "1:\(state.uidNext - 1)"), items: context.flagItems)
                changes.changed = listing.messages
                let present = Set(listing.messages.compactMap(\.uid))
                changes.vanished = Set(known.keys.filter { !present.contains($0) })
                changes.listedEverything = true
            }
        }

        // 2. New mail: every UID from the stored UIDNEXT on. `n:*` also returns the last message when it
        // is below n, so UIDs under UIDNEXT are skipped, and so are UIDs already stored (a resumed run).
        let newMail = try await IMAPNewMail(connection: connection, context: context, folder: state).run(
            skipping: Set(known.keys), matchingHeaders: outcome.restarted)
        outcome.added = newMail.added
        outcome.unreadable = newMail.unreadable

        // 3. Deletions under CONDSTORE without QRESYNC: the message count tells whether any happened.
        if !known.isEmpty, case .condstore? = parameters, !changes.listedEverything, state.uidNext > 1 {
            let expected = UInt32(known.count + newMail.listed)
            if selection.exists != expected {
                let present = Set(try await connection.uidSearch("UID 1:\(state.uidNext - 1)"))
                changes.vanished = Set(known.keys.filter { !present.contains($0) })
            }
        }

        // 4. One transaction: flag changes, removed copies, labels, and the folder's new state.
        let uidNext = max(selection.uidNext ?? 1, newMail.highestUID.map { $0 + 1 } ?? 1, state.uidNext)
        let modSeq = selection.highestModSeq
        let applied = try await context.tracker.write(in: context.store) { [state, changes] tx, modifications in
            let result = try changes.apply(to: known, folder: state.id, tx: tx)
            // A full sync also repairs labels that drifted from copies the server did not change.
            let relabel = context.full ? result.touched.union(known.values.map(\.message)) : result.touched
            let labels = try tx.refreshIMAPLabels(of: relabel, in: context.account)
            modifications.report(labels.conversations)
            try tx.setIMAPFolderProgress(state.id, uidNext: uidNext, highestModSeq: modSeq)
            return (result.flagChanges, result.removed, labels.changed)
        }
        outcome.flagChanges = applied.2
        outcome.removedCopies = applied.1
        return outcome
    }
}

/// The changes to a folder's stored copies, as read from the server.
struct IMAPCopyChanges: Sendable {
    var changed: [IMAPFetchAttributes] = []
    var vanished: Set<UInt32> = []
    /// The changes came from listing every UID, so `vanished` is already complete.
    var listedEverything = false

    /// Writes the changes; returns the touched messages, for their labels.
    func apply(
        to known: [UInt32: (message: MessageID, state: IMAPCopyState)], folder: IMAPFolderID, tx: StoreTransaction
    ) throws -> (touched: Set<MessageID>, flagChanges: Int, removed: Int) {
        var touched = Set<MessageID>()
        var flagChanges = 0
        for attributes in changed {
            guard let uid = attributes.uid, let copy = known[uid], !vanished.contains(uid) else { continue }
            let state = IMAPMessagePreparer.copyState(attributes, fallback: copy.state)
            guard state != copy.state else { continue }
            try tx.setIMAPCopy(copy.message, folder: folder, uid: uid, state: state)
            touched.insert(copy.message)
            flagChanges += 1
        }
        let gone = vanished.filter { known[$0] != nil }
        touched.formUnion(try tx.removeIMAPCopies(gone.sorted(), folder: folder))
        return (touched, flagChanges, gone.count)
    }
}
