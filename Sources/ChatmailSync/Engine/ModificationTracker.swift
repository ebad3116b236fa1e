import ChatmailStore

/// The single source of truth for which conversations a sync run changed.
///
/// The persister and the history processor report every conversation they touch; rollups are then
/// recomputed for exactly these (inside each transaction), so the cost of a sync grows with the number of
/// changes, not with the mailbox.
public actor ModificationTracker {
    public private(set) var changed: Set<ConversationID> = []

    public init() {}

    public func record(_ conversations: Set<ConversationID>) {
        changed.formUnion(conversations)
    }

    /// Forgets the previous run's conversations. ``SyncEngine/run(account:full:)`` calls it first, so
    /// an engine that lives across runs reports each run's changes, not everything since it was made.
    public func beginRun() {
        changed.removeAll()
    }
}
