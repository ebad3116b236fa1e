import GRDB

/// A parsed message, ready to be stored: what the text pipeline made of one Gmail message.
///
/// The store derives everything that depends on the account from it (participant set, conversation,
/// `is_from_me`), so callers cannot get identity wrong.
public struct MessageInput: Sendable, Equatable {
    /// An attachment as listed in the MIME structure.
    ///
    /// It repeats MailText's `MailAttachment` field for field, and is not that type, because the store and
    /// MailText are siblings that must not depend on each other (and no module below both knows MIME):
    /// `MessageInputBuilder` in ChatmailSync, the one place that knows both, maps one to the other. The
    /// size is an `Int64`, as SQLite stores it, where the parser counts decoded bytes in an `Int`.
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

    /// The mailing list a message came through (its `List-Id`, RFC 2919).
    public struct MailingList: Sendable, Equatable {
        /// The list identifier: lowercased, without angle brackets, never empty.
        public var id: String
        /// The display name before the identifier, when the header had one.
        public var name: String?

        public init(id: String, name: String? = nil) {
            self.id = id
            self.name = name
        }
    }

    /// How a list accepts posts (its `List-Post`, RFC 2369).
    public enum ListPosting: Sendable, Equatable {
        /// Members post by writing to this address.
        case address(EmailAddress)
        /// `List-Post: NO`: nobody can post to the list.
        case readOnly
    }

    public var gmailID: String
    public var threadID: String
    /// Gmail's `internalDate`: when Gmail received the message, in ms since the epoch.
    public var internalDateMs: Int64
    /// The first author: the sender shown on the bubble, and the one that says whether it is from me.
    public var from: EmailAddress?
    /// The other authors of a From header that lists several (RFC 5322 allows it); participants too.
    public var coAuthors: [EmailAddress]
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
    public var mailingList: MailingList?
    public var listPosting: ListPosting?
    /// `Reply-To` and `Mail-Followup-To`, `nil` when the header is absent (or names nobody).
    public var replyTo: [EmailAddress]?
    public var mailFollowupTo: [EmailAddress]?
    /// The RFC 5322 Message-ID, with its angle brackets; what a reply's In-Reply-To names.
    public var rfc822MessageID: String?
    /// The ids of the References header, in order, each with its angle brackets.
    public var references: [String]
    /// The one-time code the message carries, as the service wrote it, and the service; `nil` for most mail.
    public var verificationCode: VerificationCodeInput?

    public init(
        gmailID: String, threadID: String, internalDateMs: Int64,
        from: EmailAddress?, to: [EmailAddress] = [], cc: [EmailAddress] = [], bcc: [EmailAddress] = [],
        subject: String = "", gmailSnippet: String = "", bodyText: String = "", originalText: String? = nil,
        isNewsletter: Bool = false, newsletterReasons: [String] = [],
        sizeEstimate: Int64 = 0, historyID: UInt64? = nil, labelIDs: [String] = [], attachments: [Attachment] = [],
        coAuthors: [EmailAddress] = [], mailingList: MailingList? = nil, listPosting: ListPosting? = nil,
        replyTo: [EmailAddress]? = nil, mailFollowupTo: [EmailAddress]? = nil, rfc822MessageID: String? = nil,
        references: [String] = [], verificationCode: VerificationCodeInput? = nil
    ) {
        self.verificationCode = verificationCode
        self.rfc822MessageID = rfc822MessageID
        self.references = references
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
        self.coAuthors = coAuthors
        self.mailingList = mailingList
        self.listPosting = listPosting
        self.replyTo = replyTo
        self.mailFollowupTo = mailFollowupTo
    }

    /// Every author: ``from`` then ``coAuthors``.
    public var authors: [EmailAddress] { [from].compactMap { $0 } + coAuthors }

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
    /// Conversations that earlier messages left or joined because this one taught the store a list's
    /// posting address (the account's own posts to it move into the list).
    public var regroupedConversations: Set<ConversationID> = []
    /// `false` when the message was already stored and has been updated.
    public var wasInserted: Bool
    /// Whether the message is decided by a deny rule that archives: pass it to
    /// ``StoreTransaction/archiveByRules(_:in:)``, which acts on each message once.
    public var decidedByArchivingRule = false

    /// Every conversation whose rollups this change affects.
    public var affectedConversations: Set<ConversationID> {
        Set([conversationID] + [previousConversationID].compactMap { $0 }).union(regroupedConversations)
    }
}

/// A participant's role on a message, as stored in `message_participant.role` (CHECK-constrained).
public enum ParticipantRole: String, Sendable, CaseIterable, DatabaseValueConvertible {
    case from, to, cc, bcc
}

/// A one-time code found in a message when it was stored.
public struct VerificationCodeInput: Sendable, Equatable {
    /// As the service wrote it (`123-456`).
    public var code: String
    /// Who sent it, as a person would name the service ("GitHub"); `nil` when it cannot be told.
    public var service: String?

    public init(code: String, service: String?) {
        self.code = code
        self.service = service
    }
}
