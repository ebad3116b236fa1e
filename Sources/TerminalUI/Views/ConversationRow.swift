/// One conversation as a line of the conversation list.
public struct ConversationRow: Sendable, Equatable {
    public var title: String
    public var snippet: String
    /// Who wrote the snippet, shown before it ("Lukasz: …") where several people write, as on a
    /// mailing list; `nil` shows the snippet alone.
    public var snippetAuthor: String?
    public var lastMessageAtMs: Int64
    public var unreadCount: Int
    public var isNewsletter: Bool

    public init(
        title: String, snippet: String, snippetAuthor: String? = nil, lastMessageAtMs: Int64, unreadCount: Int,
        isNewsletter: Bool
    ) {
        self.title = title
        self.snippet = snippet
        self.snippetAuthor = snippetAuthor
        self.lastMessageAtMs = lastMessageAtMs
        self.unreadCount = unreadCount
        self.isNewsletter = isNewsletter
    }
}
