/// One conversation as a line of the conversation list.
public struct ConversationRow: Sendable, Equatable {
    public var title: String
    public var snippet: String
    public var lastMessageAtMs: Int64
    public var unreadCount: Int
    public var isNewsletter: Bool

    public init(title: String, snippet: String, lastMessageAtMs: Int64, unreadCount: Int, isNewsletter: Bool) {
        self.title = title
        self.snippet = snippet
        self.lastMessageAtMs = lastMessageAtMs
        self.unreadCount = unreadCount
        self.isNewsletter = isNewsletter
    }
}
