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
    /// The mailing list the conversation is, `nil` for a conversation between people.
    public var list: MailingList?
    /// Who wrote the newest visible message, for a list conversation (whose snippet names them);
    /// `nil` otherwise.
    public var lastSender: LastSender?

    public var isArchived: Bool { archivedAtMs != nil }

    public init(
        id: ConversationID, title: String, participants: [EmailAddress], lastMessageAtMs: Int64, snippet: String,
        messageCount: Int, unreadCount: Int, hasInbox: Bool, archivedAtMs: Int64?, isNewsletter: Bool,
        list: MailingList? = nil, lastSender: LastSender? = nil
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
        self.list = list
        self.lastSender = lastSender
    }
}

/// A mailing list as its conversation shows it.
public struct MailingList: Sendable, Equatable {
    /// The RFC 2919 identifier, lowercased, without angle brackets.
    public var id: String
    /// The posting address (the `mailto:` of the newest `List-Post`), `nil` when none was seen or the
    /// list is read-only.
    public var postAddress: String?
    /// The display name of the `List-Id` header, `nil` without one.
    public var name: String?

    public init(id: String, postAddress: String?, name: String?) {
        self.id = id
        self.postAddress = postAddress
        self.name = name
    }
}

/// The author of a conversation's newest visible message.
public struct LastSender: Sendable, Equatable {
    public var from: EmailAddress
    public var isFromMe: Bool

    public init(from: EmailAddress, isFromMe: Bool) {
        self.from = from
        self.isFromMe = isFromMe
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

    /// Whether mailing-list conversations are listed with the others, left out, or alone.
    public enum Lists: Sendable, Equatable {
        case included, excluded, only
    }

    /// Which of the three places a conversation can wait in is listed.
    public enum Section: Sendable, Equatable {
        /// The main list: no conversation that rules deny, and, with the screener on, none it holds.
        case main
        /// What deny rules hide (`conversations --filtered`).
        case filtered
        /// What the screener holds (`conversations --screener`): conversations with nobody the account
        /// has written to or allowed. Listed whether the screener is on or not, so it can be tried first.
        case screener
    }

    public var visibility: Visibility
    public var kind: Kind
    public var lists: Lists
    public var section: Section
    public var unreadOnly: Bool
    /// At most this many rows, newest first; `nil` for no limit.
    public var limit: Int?

    public init(
        visibility: Visibility = .active, kind: Kind = .any, lists: Lists = .included, section: Section = .main,
        unreadOnly: Bool = false, limit: Int? = nil
    ) {
        self.section = section
        self.visibility = visibility
        self.kind = kind
        self.lists = lists
        self.unreadOnly = unreadOnly
        self.limit = limit
    }
}
