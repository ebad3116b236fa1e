/// A message as the transcript shows it.
public struct TranscriptMessage: Sendable, Equatable {
    /// An attachment of the message.
    public struct Attachment: Sendable, Equatable {
        public var filename: String
        public var mimeType: String
        public var size: Int64
        public var isInline: Bool

        public init(filename: String, mimeType: String, size: Int64, isInline: Bool) {
            self.filename = filename
            self.mimeType = mimeType
            self.size = size
            self.isInline = isInline
        }
    }

    public var id: MessageID
    public var gmailID: String
    public var threadID: String
    public var from: EmailAddress
    public var isFromMe: Bool
    public var internalDateMs: Int64
    public var subject: String
    /// The subject's base (see ``ChatmailStore/SubjectBase``): a message whose base differs from the one
    /// before it starts a new topic.
    public var subjectBase: String
    public var text: String
    /// The text before quotes and signatures were removed, or `nil` when nothing was removed.
    public var originalText: String?
    public var isNewsletter: Bool
    /// Label names, sorted.
    public var labels: [String]
    public var attachments: [Attachment]
    /// Where the message is on its way to Gmail, while it is in the outbox; `nil` for every other message.
    public var outbox: OutboxState?

    /// `true` when the message is UNREAD.
    public var isUnread: Bool { labels.contains("UNREAD") }

    public init(
        id: MessageID, gmailID: String, threadID: String, from: EmailAddress, isFromMe: Bool, internalDateMs: Int64,
        subject: String, subjectBase: String, text: String, originalText: String?, isNewsletter: Bool,
        labels: [String], attachments: [Attachment], outbox: OutboxState? = nil
    ) {
        self.outbox = outbox
        self.id = id
        self.gmailID = gmailID
        self.threadID = threadID
        self.from = from
        self.isFromMe = isFromMe
        self.internalDateMs = internalDateMs
        self.subject = subject
        self.subjectBase = subjectBase
        self.text = text
        self.originalText = originalText
        self.isNewsletter = isNewsletter
        self.labels = labels
        self.attachments = attachments
    }
}

/// The newest messages of one conversation, oldest first.
public struct Transcript: Sendable, Equatable {
    public var conversation: ConversationSummary
    public var messages: [TranscriptMessage]
    /// How many older messages the limit left out.
    public var earlierMessageCount: Int

    public init(conversation: ConversationSummary, messages: [TranscriptMessage], earlierMessageCount: Int) {
        self.conversation = conversation
        self.messages = messages
        self.earlierMessageCount = earlierMessageCount
    }
}

/// Counts for `chatmail status`.
public struct StoreStatus: Sendable, Equatable {
    public var account: Account
    public var messageCount: Int
    public var conversationCount: Int
    public var archivedConversationCount: Int
    public var unreadConversationCount: Int
    /// Pending actions by status; statuses with no action are absent.
    public var actionCounts: [PendingActionStatus: Int]
    public var abandonedMessageCount: Int
    /// The IMAP server an IMAP account syncs with, as `host:port (security)`; `nil` for Gmail's API.
    public var imapServer: String? = nil
}

/// The life cycle of a queued action, as stored in `pending_action.status` (CHECK-constrained).
public enum PendingActionStatus: String, Sendable, CaseIterable, Codable {
    case pending, processing, failed, completed, abandoned
}
