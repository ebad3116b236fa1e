import TextSafety

/// One search result as the results list shows it.
public struct SearchHitView: Sendable, Equatable {
    public var author: Person
    public var isFromMe: Bool
    public var conversationTitle: String
    /// The command that opens the conversation, when there is one to show.
    public var openCommand: String?
    public var dateMs: Int64
    public var subject: MarkedText
    public var snippet: MarkedText

    public init(
        author: Person, isFromMe: Bool, conversationTitle: String, openCommand: String?, dateMs: Int64,
        subject: MarkedText, snippet: MarkedText
    ) {
        self.author = author
        self.isFromMe = isFromMe
        self.conversationTitle = conversationTitle
        self.openCommand = openCommand
        self.dateMs = dateMs
        self.subject = subject
        self.snippet = snippet
    }
}
