import ChatmailStore

/// Putting a message in the outbox: the one way `reply`, `send` and the app queue what the user wrote.
public enum OutboxQueue {
    /// Stores `message` with its send action, before any network call, and rolls up the conversation
    /// it joins, in one transaction.
    /// - returns: the send action, for ``PendingActionSender/sendMessage(_:account:)``.
    public static func queue(_ message: QueuedMessage, in store: ChatmailStore, account: AccountID) async throws
        -> PendingActionID
    {
        try await ModificationTracker().write(in: store) { tx, modifications in
            let queued = try tx.queueSend(message, in: account)
            modifications.report(queued.affected)
            return queued.action
        }
    }
}
