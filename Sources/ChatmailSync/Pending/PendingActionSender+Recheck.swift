import ChatmailStore
import GmailAPI

extension PendingActionSender {
    /// Re-reads the labels of the messages the queue asked for, and gives every message no live action
    /// protects Gmail's labels. Ids Gmail could not answer for stay queued for the next run.
    /// - returns: how many messages were re-read.
    ///
    /// Holds the account's ``SyncLock``: a sync running meanwhile could apply a newer history change
    /// that this re-read, answered earlier, would overwrite.
    /// - throws: ``SyncError/alreadyRunning`` when a sync or queue run of the account is under way.
    public func recheckLabels(account: AccountID) async throws -> Int {
        let lock = try SyncLock(store: store, account: account)
        defer { lock.release() }
        return try await recheck(account: account)
    }

    /// ``recheckLabels(account:)`` without the lock, for a caller that holds it.
    func recheck(account: AccountID) async throws -> Int {
        var total = 0
        while true {
            let ids = try await store.write { tx in try tx.labelRechecks(in: account, limit: 100) }
            guard !ids.isEmpty else { break }
            let outcome: FetchPhase.Outcome
            do {
                outcome = try await FetchPhase(gmail: gmail).run(ids, format: .minimal)
            } catch let error as GmailAPIError where Self.disposition(of: error) != .stopRun {
                break  // Gmail unreachable: the ids stay in label_recheck, and the next run re-reads them
            }
            try await tracker.write(in: store) { tx, modifications in
                let protected = try tx.protectedGmailIDs(in: account)
                let local = try tx.labelIDs(ofMessages: outcome.messages.map(\.id), in: account)
                for message in outcome.messages where !protected.contains(message.id) {
                    guard let current = local[message.id], current != Set(message.labelIds) else { continue }
                    if let conversation = try tx.replaceLabels(message.labelIds, onMessage: message.id, in: account) {
                        modifications.report(conversation)
                    }
                }
                modifications.report(try tx.deleteMessages(gmailIDs: outcome.gone, in: account))
                try tx.clearLabelRechecks(outcome.messages.map(\.id) + outcome.gone, in: account)
            }
            total += outcome.messages.count + outcome.gone.count
            if !outcome.failed.isEmpty { break }
        }
        return total
    }
}
