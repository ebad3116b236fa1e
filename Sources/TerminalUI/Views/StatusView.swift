/// What `chatmail status` reports about one account and its home.
public struct StatusView: Sendable, Equatable {
    public var account: String
    /// The home directory the account's data lives in.
    public var dataPath: String
    /// Whether this is the demo's home, whose Gmail is the local emulator.
    public var isDemo: Bool
    /// `nil` before the first sync.
    public var historyID: String?
    public var lastSyncAtMs: Int64?
    public var messageCount: Int
    public var conversationCount: Int
    public var archivedConversationCount: Int
    public var unreadConversationCount: Int
    /// Queued actions waiting or being sent.
    public var pendingActionCount: Int
    public var failedActionCount: Int
    public var abandonedActionCount: Int
    public var abandonedMessageCount: Int
    /// An IMAP account's server (`host:port (security)`); `nil` for a Gmail API account.
    public var imapServer: String? = nil

    public init(
        account: String, dataPath: String, isDemo: Bool, historyID: String?, lastSyncAtMs: Int64?, messageCount: Int,
        conversationCount: Int, archivedConversationCount: Int, unreadConversationCount: Int, pendingActionCount: Int,
        failedActionCount: Int, abandonedActionCount: Int, abandonedMessageCount: Int
    ) {
        self.account = account
        self.dataPath = dataPath
        self.isDemo = isDemo
        self.historyID = historyID
        self.lastSyncAtMs = lastSyncAtMs
        self.messageCount = messageCount
        self.conversationCount = conversationCount
        self.archivedConversationCount = archivedConversationCount
        self.unreadConversationCount = unreadConversationCount
        self.pendingActionCount = pendingActionCount
        self.failedActionCount = failedActionCount
        self.abandonedActionCount = abandonedActionCount
        self.abandonedMessageCount = abandonedMessageCount
    }
}
