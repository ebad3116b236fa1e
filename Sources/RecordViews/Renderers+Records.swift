import ChatmailStore
import TerminalUI

// Stored records straight to text, for callers that hold records rather than views.

extension ConversationListRenderer {
    public func render(_ conversations: [ConversationSummary]) -> String {
        render(conversations.map(ConversationRow.init))
    }
}

extension TranscriptRenderer {
    /// A stored conversation as a chat.
    public func render(_ transcript: Transcript) -> String {
        render(TranscriptView(transcript))
    }
}

extension SearchResultRenderer {
    /// - Parameter openCommands: the `chatmail show …` command that opens each hit's conversation.
    public func render(_ hits: [SearchHit], openCommands: [ConversationID: String]) -> String {
        render(hits.map { SearchHitView($0, openCommand: openCommands[$0.conversation.id]) })
    }
}

extension StatusRenderer {
    /// The status of the account whose data lives at `dataPath` (the home directory); `isDemo` marks
    /// the demo's home, whose Gmail is the local emulator.
    public func render(_ status: StoreStatus, dataPath: String, isDemo: Bool = false) -> String {
        render(StatusView(status, dataPath: dataPath, isDemo: isDemo))
    }
}

extension PendingActionRenderer {
    public func render(_ actions: [PendingAction]) -> String {
        render(actions.map(QueuedActionRow.init))
    }
}
