/// What the chat renderer draws: a title, the people, and the messages as bubbles.
///
/// It holds no store ids: the renderer never needs them, and a message that was never stored (a file
/// given to `chatmail view`) can then be shown as itself rather than dressed up as a stored one.
/// The `RecordViews` module builds it from a stored transcript.
public struct TranscriptView: Sendable, Equatable {
    public var title: String
    public var participants: [Person]
    /// Shown under the title instead of the participants, when they are too many to name (a mailing
    /// list's senders); `nil` names the participants.
    public var subtitle: String?
    /// How many older messages a limit left out.
    public var earlierMessageCount: Int
    public var messages: [BubbleMessage]

    public init(
        title: String, participants: [Person], subtitle: String? = nil, earlierMessageCount: Int = 0,
        messages: [BubbleMessage]
    ) {
        self.title = title
        self.participants = participants
        self.subtitle = subtitle
        self.earlierMessageCount = earlierMessageCount
        self.messages = messages
    }
}

/// One message as a bubble.
public struct BubbleMessage: Sendable, Equatable {
    /// An attachment as a bubble lists it.
    public struct Attachment: Sendable, Equatable {
        public var filename: String
        public var size: Int64

        public init(filename: String, size: Int64) {
            self.filename = filename
            self.size = size
        }
    }

    public var from: Person
    public var isFromMe: Bool
    public var isUnread: Bool
    public var dateMs: Int64
    public var subject: String
    /// The subject without its reply and forward prefixes, normalized, as the store keeps it: a bubble
    /// shows its subject only when this differs from the bubble's before it. The renderer compares it and
    /// never strips prefixes itself, so it cannot disagree with the export or with a reply.
    public var subjectBase: String
    /// The bubble text: the message without quotes and signatures.
    public var text: String
    /// The whole text, when something was removed from it to make ``text``.
    public var originalText: String?
    public var isNewsletter: Bool
    public var attachments: [Attachment]
    /// For a message still in the outbox: where it is ("queued", "sending", "failed", "not sent").
    public var delivery: String?

    public init(
        from: Person, isFromMe: Bool, isUnread: Bool, dateMs: Int64, subject: String, subjectBase: String,
        text: String, originalText: String?, isNewsletter: Bool, attachments: [Attachment], delivery: String? = nil
    ) {
        self.delivery = delivery
        self.from = from
        self.isFromMe = isFromMe
        self.isUnread = isUnread
        self.dateMs = dateMs
        self.subject = subject
        self.subjectBase = subjectBase
        self.text = text
        self.originalText = originalText
        self.isNewsletter = isNewsletter
        self.attachments = attachments
    }
}
