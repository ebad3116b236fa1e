import ChatmailStore
import TerminalUI

// Stored records straight to text, for callers that hold records rather than views.

extension ConversationListRenderer {
    public func render(_ conversations: [ConversationSummary]) -> String {
        render(conversations.map(ConversationRow.init))
    }

    /// The list, and how many more conversations its limit left out.
    public func render(_ list: LimitedList<ConversationSummary>) -> String {
        render(list.items.map(ConversationRow.init), omittedCount: list.omittedCount)
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

    /// The hits, and how many more messages match than the limit let through.
    public func render(_ hits: LimitedList<SearchHit>, openCommands: [ConversationID: String]) -> String {
        render(
            hits.items.map { SearchHitView($0, openCommand: openCommands[$0.conversation.id]) },
            omittedCount: hits.omittedCount)
    }
}

extension CodesRenderer {
    /// The codes, and how many more there are than the limit let through.
    /// - Parameter scope: where the others are (`in this window`), for the last line.
    public func render(_ codes: LimitedList<VerificationCodeHit>, scope: String? = nil) -> String {
        render(codes.items.map(CodeRow.init), omittedCount: codes.omittedCount, scope: scope)
    }

    public func rows(_ hits: [VerificationCodeHit]) -> [String] {
        rows(hits.map(CodeRow.init))
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
