import ChatmailStore
import TerminalKit

/// What happens to the app: the terminal's keys and resizes, the clock, and the results of the effects
/// the reducer asked for. Each effect is answered by one result event (or none, for `quit` and the
/// scheduling effects), so a runtime can run effects off the UI loop and feed the answers back.
public enum AppEvent: Sendable, Equatable {
    case terminal(TerminalEvent)
    /// The clock, in ms since the epoch. The runtime sends one at start, at least once a second, and
    /// after each ``AppEffect/scheduleTick(afterMs:)``.
    case tick(nowMs: Int64)

    /// Answers ``AppEffect/loadConversations(_:)``; the filter tells a stale answer from a current one.
    case conversationsLoaded(ConversationFilter, [ConversationSummary])
    /// Answers ``AppEffect/loadTranscript(_:limit:)``.
    case transcriptLoaded(Transcript)
    /// Answers ``AppEffect/loadScreener``.
    case screenerLoaded(ScreenerStatus)
    /// A load of the list, a transcript or the screener's count failed.
    case loadFailed(String)
    /// Answers ``AppEffect/loadCodes(sinceMs:limit:)``.
    /// `omittedCount`: how many more codes the window holds than the limit let through.
    case codesLoaded([VerificationCodeHit], omittedCount: Int = 0)
    case codesFailed(String)
    /// Answers ``AppEffect/search(_:)``; the query tells a stale answer from a current one.
    case searchResults(query: String, [SearchHit])
    case searchFailed(query: String, message: String)
    /// Answers ``AppEffect/perform(_:conversation:title:)`` and ``AppEffect/undo(_:)``.
    case actionFinished(ActionReport)
    case actionFailed(String)
    /// The runtime began a sync (asked for or its own).
    case syncStarted
    case syncFinished(SyncSummary)
    /// `isOffline` when Gmail could not be reached at all, rather than refusing something.
    case syncFailed(message: String, isOffline: Bool)
    /// Answers ``AppEffect/loadPending``.
    case pendingLoaded([PendingAction])
    /// Answers ``AppEffect/retryPending(_:)`` and ``AppEffect/dismissPending(_:)``, with what was done.
    case pendingChanged(String)
    case pendingFailed(String)
    /// Answers ``AppEffect/reply(_:text:)`` and ``AppEffect/send(addresses:subject:text:)``, with where
    /// the message is ("Queued", "Sent").
    case sendFinished(String)
    /// The message was not queued: the composer comes back with its text.
    case sendFailed(String)
    /// Answers ``AppEffect/openEditor(_:)``: the edited text, or `nil` when the editor was abandoned.
    case editorFinished(String?)
    /// The server said the mailbox changed (IMAP IDLE): sync now rather than at the next periodic sync.
    case serverChanged
}

/// What an action did, for the status line and for undo.
public struct ActionReport: Sendable, Equatable {
    public var kind: PendingActionKind
    public var conversation: ConversationID
    public var title: String
    /// The queued actions it created (none when it only cancelled an earlier one).
    public var actionIDs: [PendingActionID]
    public var messagesChanged: Int
    /// Whether this was an undo, which is not itself undone by `U`.
    public var isUndo: Bool

    public init(
        kind: PendingActionKind, conversation: ConversationID, title: String, actionIDs: [PendingActionID],
        messagesChanged: Int, isUndo: Bool = false
    ) {
        self.kind = kind
        self.conversation = conversation
        self.title = title
        self.actionIDs = actionIDs
        self.messagesChanged = messagesChanged
        self.isUndo = isUndo
    }
}

/// Whether the screener is on and how many conversations it holds, for the filter's label.
public struct ScreenerStatus: Sendable, Equatable {
    public var isEnabled: Bool
    /// Held conversations, counted whether the screener is on or not.
    public var heldCount: Int

    public init(isEnabled: Bool, heldCount: Int) {
        self.isEnabled = isEnabled
        self.heldCount = heldCount
    }
}

/// What a finished sync leaves for the status line.
public struct SyncSummary: Sendable, Equatable {
    public var finishedAtMs: Int64
    /// Actions waiting or being sent, and failed or abandoned ones, after the sync.
    public var pendingCount: Int
    public var failedCount: Int

    public init(finishedAtMs: Int64, pendingCount: Int, failedCount: Int) {
        self.finishedAtMs = finishedAtMs
        self.pendingCount = pendingCount
        self.failedCount = failedCount
    }
}

/// Work for the runtime. None of it touches the screen; each is answered by an ``AppEvent``.
public enum AppEffect: Sendable, Equatable {
    /// Answered by ``AppEvent/conversationsLoaded(_:_:)``.
    case loadConversations(ConversationFilter)
    /// The screener's switch and count; answered by ``AppEvent/screenerLoaded(_:)``.
    case loadScreener
    /// The codes in mail received since `sinceMs`, newest first; answered by ``AppEvent/codesLoaded(_:)``.
    case loadCodes(sinceMs: Int64, limit: Int)
    /// The newest `limit` messages; answered by ``AppEvent/transcriptLoaded(_:)``.
    case loadTranscript(ConversationID, limit: Int)
    /// Answered by ``AppEvent/searchResults(query:_:)``.
    case search(String)
    /// Apply `kind` to the conversation locally and queue it for Gmail; `title` names it in the queue.
    case perform(PendingActionKind, conversation: ConversationID, title: String)
    /// Undo the last action: cancel its queued actions if they have not gone out, else queue the opposite.
    case undo(LastAction)
    /// Queue a reply in the conversation.
    case reply(ConversationID, text: String)
    /// Queue a new message.
    case send(addresses: [String], subject: String, text: String)
    case syncNow
    case loadPending
    case retryPending(PendingActionID)
    case dismissPending(PendingActionID)
    /// Suspend the screen and open `$EDITOR` on the text; answered by ``AppEvent/editorFinished(_:)``.
    case openEditor(String)
    /// Restore the terminal and exit.
    case quit
    /// Deliver a ``AppEvent/tick(nowMs:)`` after this delay (for the progress note).
    case scheduleTick(afterMs: Int64)
    /// Draw the whole screen again, not only what changed (after a resume from Ctrl-Z).
    case redrawAll
}
