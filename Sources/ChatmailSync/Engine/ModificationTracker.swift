import ChatmailStore

/// The single source of truth for which conversations changed, and which of them still need their
/// rollups recomputed.
///
/// Every write that can change a conversation goes through ``write(in:rollups:_:)``: the writer (the
/// persister, the history processor, the label refresh, the pending-action sender) reports the
/// conversations it modified into the transaction's ``Modifications``, and the tracker recomputes the
/// rollups of exactly those, plus any left stale by an earlier deferred write, before the same
/// transaction commits. A deferred write (the batches of an initial sync) commits without rollups; its
/// conversations stay stale here until ``recomputeStaleRollups(in:repairing:)`` or the next immediate
/// write recomputes them. A process killed in between loses this memory, so whoever defers must repair
/// on the next run: the initial sync keeps its cursor until its final, account-wide pass has committed.
///
/// A sync uses its tracker from one task at a time (the sync lock serializes runs). Should writes through
/// one tracker overlap, a stale conversation is still never forgotten: a recompute clears only the
/// reports it saw, so one reported again meanwhile stays stale.
public actor ModificationTracker {
    /// Conversations changed since ``beginRun()``: the summary's "conversations updated".
    public private(set) var changed: Set<ConversationID> = []
    /// Conversations whose rollups are out of date, each with the number of the report that last named it,
    /// so a recompute clears only what it actually covered.
    private var stale: [ConversationID: UInt64] = [:]
    private var reports: UInt64 = 0

    /// When a write's rollups are recomputed.
    public enum Rollups: Sendable {
        /// In the write's own transaction, with everything stale before it.
        case inTransaction
        /// Later: the conversations are kept as stale.
        case deferred
    }

    public init() {}

    /// Conversations whose rollups no write has recomputed yet.
    public var staleConversations: Set<ConversationID> { Set(stale.keys) }

    /// Forgets the previous run's changes. ``SyncEngine/run(account:full:)`` calls it first, so an engine
    /// that lives across runs reports each run's changes, not everything since it was made. Stale
    /// conversations are kept: their rollups are still owed.
    public func beginRun() {
        changed.removeAll()
    }

    /// Runs `body` in one write transaction; what it reports into its ``Modifications`` counts as changed,
    /// and (unless deferred) the rollups of those conversations and of every stale one are recomputed
    /// before the transaction commits.
    public func write<T: Sendable>(
        in store: ChatmailStore, rollups: Rollups = .inTransaction,
        _ body: @escaping @Sendable (StoreTransaction, inout Modifications) throws -> T
    ) async throws -> T {
        let due = rollups == .inTransaction ? stale : [:]
        let (result, modified) = try await store.write { tx -> (T, Set<ConversationID>) in
            var modifications = Modifications()
            let result = try body(tx, &modifications)
            if rollups == .inTransaction {
                try tx.recomputeRollups(for: modifications.conversations.union(due.keys))
            }
            return (result, modifications.conversations)
        }
        changed.formUnion(modified)
        switch rollups {
        case .inTransaction: settle(due)
        case .deferred: markStale(modified)
        }
        return result
    }

    /// Recomputes, in one transaction, the rollups of every stale conversation and, with `account`, of
    /// every conversation of that account (the repair after a run that may have been killed with
    /// deferred rollups: what it left stale was only in its memory).
    public func recomputeStaleRollups(in store: ChatmailStore, repairing account: AccountID? = nil) async throws {
        let due = stale
        guard account != nil || !due.isEmpty else { return }
        try await store.write { tx in
            var conversations = Set(due.keys)
            if let account { conversations.formUnion(try tx.conversationIDs(in: account)) }
            try tx.recomputeRollups(for: conversations)
        }
        settle(due)
    }

    private func markStale(_ conversations: Set<ConversationID>) {
        guard !conversations.isEmpty else { return }
        reports += 1
        for conversation in conversations { stale[conversation] = reports }
    }

    /// Clears what a committed recompute covered; a conversation reported again meanwhile stays stale.
    private func settle(_ recomputed: [ConversationID: UInt64]) {
        for (conversation, report) in recomputed where stale[conversation] == report {
            stale[conversation] = nil
        }
    }
}

/// The conversations one transaction modified, reported by the code that modified them.
public struct Modifications: Sendable, Equatable {
    public private(set) var conversations: Set<ConversationID> = []

    public init() {}

    public mutating func report(_ modified: Set<ConversationID>) {
        conversations.formUnion(modified)
    }

    public mutating func report(_ modified: ConversationID) {
        conversations.insert(modified)
    }
}
