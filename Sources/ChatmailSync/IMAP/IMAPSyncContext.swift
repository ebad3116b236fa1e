import ChatmailStore
import MailText

/// What every folder pass of one IMAP sync shares.
struct IMAPSyncContext: Sendable {
    let store: ChatmailStore
    let tracker: ModificationTracker
    let account: AccountID
    let preparer: IMAPMessagePreparer
    let crashes: CrashPoints
    let progress: @Sendable (SyncProgress) -> Void
    /// The server is Gmail (X-GM-EXT-1): labels and ids come from its extension.
    let isGmail: Bool
    /// A first sync defers rollups to one pass at the end; later syncs settle them per transaction.
    let rollups: ModificationTracker.Rollups
    /// `sync --full`: every stored copy's labels are recomputed from the server's listing, changed or not.
    var full = false
    var batchCount = 250
    var batchBytes = 4 << 20
    var pipelineWindow = 3

    /// What a listing of known copies asks for: enough to see their flags (and Gmail labels) change.
    var flagItems: [String] { isGmail ? ["UID", "FLAGS", "X-GM-LABELS"] : ["UID", "FLAGS"] }

    /// What a listing of new UIDs asks for: flags, size and date, Gmail's ids, and when messages may be
    /// matched by headers their Message-ID.
    func metadataItems(headers: Bool) -> [String] {
        var items = ["UID", "FLAGS", "RFC822.SIZE", "INTERNALDATE"]
        if isGmail { items += ["X-GM-MSGID", "X-GM-THRID", "X-GM-LABELS"] }
        if headers { items.append("BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]") }
        return items
    }
}
