/// One message as `chatmail view` shows it: a neutral value the CLI fills from the text pipeline, so
/// TerminalUI needs no knowledge of MIME.
public struct MessageView: Sendable, Equatable {
    /// An attachment as the message lists it.
    public struct Attachment: Sendable, Equatable {
        public var filename: String
        public var mimeType: String
        public var size: Int64

        public init(filename: String, mimeType: String, size: Int64) {
            self.filename = filename
            self.mimeType = mimeType
            self.size = size
        }
    }

    public var from: Person?
    public var to: [Person]
    public var cc: [Person]
    public var subject: String
    public var dateMs: Int64?
    public var text: String
    public var originalText: String
    public var quotedTextRemoved: Bool
    public var isNewsletter: Bool
    public var newsletterReasons: [String]
    public var attachments: [Attachment]
    public var sanitizedHTML: String?

    public init(
        from: Person?, to: [Person], cc: [Person], subject: String, dateMs: Int64?, text: String,
        originalText: String, quotedTextRemoved: Bool, isNewsletter: Bool, newsletterReasons: [String],
        attachments: [Attachment], sanitizedHTML: String?
    ) {
        self.from = from
        self.to = to
        self.cc = cc
        self.subject = subject
        self.dateMs = dateMs
        self.text = text
        self.originalText = originalText
        self.quotedTextRemoved = quotedTextRemoved
        self.isNewsletter = isNewsletter
        self.newsletterReasons = newsletterReasons
        self.attachments = attachments
        self.sanitizedHTML = sanitizedHTML
    }

    /// The message as a chat of one bubble. It was never stored, so it has no ids to show; a message
    /// without a date is shown at `nowMs`, one without a sender as from "unknown sender".
    public func transcriptView(nowMs: Int64) -> TranscriptView {
        // A placeholder, not an address: it is its own key.
        let sender = from ?? Person(address: "unknown sender", key: "unknown sender")
        // The first bubble always shows its subject, so a chat of one needs no subject base: the subject
        // stands in for it.
        let message = BubbleMessage(
            from: sender, isFromMe: false, isUnread: false, dateMs: dateMs ?? nowMs, subject: subject,
            subjectBase: subject, text: text, originalText: quotedTextRemoved ? originalText : nil,
            isNewsletter: isNewsletter,
            attachments: attachments.map { BubbleMessage.Attachment(filename: $0.filename, size: $0.size) })
        return TranscriptView(
            title: subject.isEmpty ? (sender.name ?? sender.address) : subject,
            participants: Self.unique([sender] + to + cc), messages: [message])
    }

    /// Each person once (by identity key), in first-seen order.
    static func unique(_ addresses: [Person]) -> [Person] {
        var seen = Set<String>()
        return addresses.filter { seen.insert($0.key).inserted }
    }
}
