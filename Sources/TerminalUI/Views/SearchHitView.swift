/// One search result as the results list shows it.
public struct SearchHitView: Sendable, Equatable {
    public var author: Person
    public var isFromMe: Bool
    public var conversationTitle: String
    /// The command that opens the conversation, when there is one to show.
    public var openCommand: String?
    public var dateMs: Int64
    public var subject: HighlightedText
    public var snippet: HighlightedText

    public init(
        author: Person, isFromMe: Bool, conversationTitle: String, openCommand: String?, dateMs: Int64,
        subject: HighlightedText, snippet: HighlightedText
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

/// Text in which some words matched the query.
public struct HighlightedText: Sendable, Equatable {
    public struct Segment: Sendable, Equatable {
        public var text: String
        public var isMatch: Bool

        public init(text: String, isMatch: Bool) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    public var segments: [Segment]

    public init(segments: [Segment]) {
        self.segments = segments
    }

    /// The text without its marks.
    public var plain: String { segments.map(\.text).joined() }
}
