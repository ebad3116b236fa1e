import ChatmailStore

/// One message as `chatmail view` shows it: a neutral value the CLI fills from the text pipeline, so
/// TerminalUI needs no knowledge of MIME.
public struct MessageView: Sendable, Equatable {
    public var from: EmailAddress?
    public var to: [EmailAddress]
    public var cc: [EmailAddress]
    public var subject: String
    public var dateMs: Int64?
    public var text: String
    public var originalText: String
    public var quotedTextRemoved: Bool
    public var isNewsletter: Bool
    public var newsletterReasons: [String]
    public var attachments: [TranscriptMessage.Attachment]
    public var sanitizedHTML: String?

    public init(
        from: EmailAddress?, to: [EmailAddress], cc: [EmailAddress], subject: String, dateMs: Int64?, text: String,
        originalText: String, quotedTextRemoved: Bool, isNewsletter: Bool, newsletterReasons: [String],
        attachments: [TranscriptMessage.Attachment], sanitizedHTML: String?
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

    /// The message as a one-message transcript, for the bubble renderer.
    public func transcript(nowMs: Int64) -> Transcript {
        let sender = from ?? EmailAddress(address: "unknown sender")
        let message = TranscriptMessage(
            id: MessageID(rawValue: 0), gmailID: "", threadID: "", from: sender, isFromMe: false,
            internalDateMs: dateMs ?? nowMs, subject: subject, text: text,
            originalText: quotedTextRemoved ? originalText : nil, isNewsletter: isNewsletter, labels: [],
            attachments: attachments)
        let conversation = ConversationSummary(
            id: ConversationID(rawValue: 0), title: subject.isEmpty ? (sender.name ?? sender.address) : subject,
            participants: Self.unique([sender] + to + cc), lastMessageAtMs: message.internalDateMs, snippet: text,
            messageCount: 1, unreadCount: 0, hasInbox: false, archivedAtMs: nil, isNewsletter: isNewsletter)
        return Transcript(conversation: conversation, messages: [message], earlierMessageCount: 0)
    }

    /// Each person once (by identity key), in first-seen order.
    static func unique(_ addresses: [EmailAddress]) -> [EmailAddress] {
        var seen = Set<String>()
        return addresses.filter { seen.insert($0.normalizedAddress).inserted }
    }
}

extension JSONRenderer {
    /// `view --json`: `{from, to, cc, subject, date, text, quotedTextRemoved, isNewsletter,
    /// newsletterReasons, attachments, sanitizedHtml}`, with `--full` giving the original text.
    public func render(_ view: MessageView, fullText: Bool) throws -> String {
        try encode(MessageViewJSON(
            from: view.from.map(AddressJSON.init), to: view.to.map(AddressJSON.init), cc: view.cc.map(AddressJSON.init),
            subject: view.subject, date: view.dateMs.map(time.iso8601), text: fullText ? view.originalText : view.text,
            quotedTextRemoved: view.quotedTextRemoved, isNewsletter: view.isNewsletter,
            newsletterReasons: view.newsletterReasons,
            attachments: view.attachments.map { AttachmentJSON(filename: $0.filename, mimeType: $0.mimeType, size: $0.size) },
            sanitizedHtml: view.sanitizedHTML))
    }
}

struct MessageViewJSON: Encodable {
    var from: AddressJSON?
    var to: [AddressJSON]
    var cc: [AddressJSON]
    var subject: String
    var date: String?
    var text: String
    var quotedTextRemoved: Bool
    var isNewsletter: Bool
    var newsletterReasons: [String]
    var attachments: [AttachmentJSON]
    var sanitizedHtml: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)  // null, not absent
        try container.encode(to, forKey: .to)
        try container.encode(cc, forKey: .cc)
        try container.encode(subject, forKey: .subject)
        try container.encode(date, forKey: .date)
        try container.encode(text, forKey: .text)
        try container.encode(quotedTextRemoved, forKey: .quotedTextRemoved)
        try container.encode(isNewsletter, forKey: .isNewsletter)
        try container.encode(newsletterReasons, forKey: .newsletterReasons)
        try container.encode(attachments, forKey: .attachments)
        try container.encode(sanitizedHtml, forKey: .sanitizedHtml)
    }

    enum CodingKeys: String, CodingKey {
        case from, to, cc, subject, date, text, quotedTextRemoved, isNewsletter, newsletterReasons, attachments, sanitizedHtml
    }
}
