import GRDB

/// One row of the conversation list: a conversation with its rollups and participants.
public struct ConversationSummary: Sendable, Equatable {
    public var id: ConversationID
    public var title: String
    /// Everyone in the conversation except the account's aliases, sorted by normalized address.
    public var participants: [EmailAddress]
    public var lastMessageAtMs: Int64
    public var snippet: String
    public var messageCount: Int
    public var unreadCount: Int
    public var hasInbox: Bool
    public var archivedAtMs: Int64?
    public var isNewsletter: Bool

    public var isArchived: Bool { archivedAtMs != nil }

    public init(
        id: ConversationID, title: String, participants: [EmailAddress], lastMessageAtMs: Int64, snippet: String,
        messageCount: Int, unreadCount: Int, hasInbox: Bool, archivedAtMs: Int64?, isNewsletter: Bool
    ) {
        self.id = id
        self.title = title
        self.participants = participants
        self.lastMessageAtMs = lastMessageAtMs
        self.snippet = snippet
        self.messageCount = messageCount
        self.unreadCount = unreadCount
        self.hasInbox = hasInbox
        self.archivedAtMs = archivedAtMs
        self.isNewsletter = isNewsletter
    }
}

/// Which conversations the list shows.
public struct ConversationFilter: Sendable, Equatable {
    /// Archived conversations are hidden unless `archived` or `all` is chosen.
    public enum Visibility: Sendable, Equatable {
        case active, archived, all
    }

    /// People, newsletters, or both.
    public enum Kind: Sendable, Equatable {
        case any, people, newsletters
    }

    public var visibility: Visibility
    public var kind: Kind
    public var unreadOnly: Bool
    /// At most this many rows, newest first; `nil` for no limit.
    public var limit: Int?

    public init(visibility: Visibility = .active, kind: Kind = .any, unreadOnly: Bool = false, limit: Int? = nil) {
        self.visibility = visibility
        self.kind = kind
        self.unreadOnly = unreadOnly
        self.limit = limit
    }
}
