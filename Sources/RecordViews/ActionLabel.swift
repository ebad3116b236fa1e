import ChatmailStore

extension PendingActionKind {
    /// What the action did, in the past tense: "Archived", "Moved to the trash".
    ///
    /// The one wording of every confirmation, the commands' summaries and the app's notes alike, so that
    /// an action reads the same wherever it was taken.
    public var pastTense: String {
        switch self {
        case .archive: "Archived"
        case .unarchive: "Moved back to the inbox"
        case .read: "Marked as read"
        case .unread: "Marked as unread"
        case .star: "Starred"
        case .unstar: "Unstarred"
        case .trash: "Moved to the trash"
        case .untrash: "Restored from the trash"
        // A message waits in the outbox until Gmail accepts it.
        case .send: "Queued"
        }
    }
}
