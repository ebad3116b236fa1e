import GRDB

/// A parsed message, ready to be stored: what the text pipeline made of one Gmail message.
///
/// The store derives everything that depends on the account from it (participant set, conversation,
/// `is_from_me`), so callers cannot get identity wrong.
public struct MessageInput: Sendable, Equatable {
    /// An attachment as listed in the MIME structure.
    public struct Attachment: Sendable, Equatable {
        public var partID: String
        public var filename: String
        public var mimeType: String
        public var size: Int64
        public var contentID: String?
        public var isInline: Bool
        public var gmailAttachmentID: String?

        public init(
            partID: String, filename: String, mimeType: String, size: Int64,
            contentID: String? = nil, isInline: Bool = false, gmailAttachmentID: String? = nil
        ) {
            self.partID = partID
            self.filename = filename
            self.mimeType = mimeType
            self.size = size
            self.contentID = contentID
            self.isInline = isInline
            self.gmailAttachmentID = gmailAttachmentID
        }
    }

    public var gmailID: String
    public var threadID: String
    /// Gmail's `internalDate`: when Gmail received the message, in ms since the epoch.
    public var internalDateMs: Int64
    public var from: EmailAddress?
    public var to: [EmailAddress]
    public var cc: [EmailAddress]
    public var bcc: [EmailAddress]
    public var subject: String
    /// Gmail's own snippet, used when the bubble text is empty.
    public var gmailSnippet: String
    /// The bubble text: quotes and signatures removed, lines unwrapped.
    public var bodyText: String
    /// The text before quotes and signatures were removed, when anything was removed.
    public var originalText: String?
    public var isNewsletter: Bool
    public var newsletterReasons: [String]
    public var sizeEstimate: Int64
    public var historyID: UInt64?
    /// Gmail label ids (`INBOX`, `UNREAD`, `Label_12`, ...).
    public var labelIDs: [String]
    public var attachments: [Attachment]

    public init(
        gmailID: String, threadID: String, internalDateMs: Int64,
        from: EmailAddress?, to: [EmailAddress] = [], cc: [EmailAddress] = [], bcc: [EmailAddress] = [],
        subject: String = "", gmailSnippet: String = "", bodyText: String = "", originalText: String? = nil,
        isNewsletter: Bool = false, newsletterReasons: [String] = [],
        sizeEstimate: Int64 = 0, historyID: UInt64? = nil, labelIDs: [String] = [], attachments: [Attachment] = []
    ) {
        self.gmailID = gmailID
        self.threadID = threadID
        self.internalDateMs = internalDateMs
        self.from = from
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.subject = subject
        self.gmailSnippet = gmailSnippet
        self.bodyText = bodyText
        self.originalText = originalText
        self.isNewsletter = isNewsletter
        self.newsletterReasons = newsletterReasons
        self.sizeEstimate = sizeEstimate
        self.historyID = historyID
        self.labelIDs = labelIDs
        self.attachments = attachments
    }

    /// `true` when `originalText` holds more than the bubble text.
    public var quotedTextRemoved: Bool { originalText != nil }
}

/// What storing one message did, so the caller can tell the ModificationTracker which conversations
/// changed.
public struct MessageUpsert: Sendable, Equatable {
    public var messageID: MessageID
    public var conversationID: ConversationID
    /// The conversation the message used to be in, when an update moved it (aliases changed).
    public var previousConversationID: ConversationID?
    /// `false` when the message was already stored and has been updated.
    public var wasInserted: Bool

    /// Every conversation whose rollups this change affects.
    public var affectedConversations: Set<ConversationID> {
        Set([conversationID] + [previousConversationID].compactMap { $0 })
    }
}

/// A participant's role on a message, as stored in `message_participant.role` (CHECK-constrained).
public enum ParticipantRole: String, Sendable, CaseIterable, DatabaseValueConvertible {
    case from, to, cc, bcc
}
