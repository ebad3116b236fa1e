import ChatmailStore
import TerminalUI
import TextFormatting

extension JSONRenderer {
    /// `view --json`: `{from, to, cc, subject, date, text, quotedTextRemoved, isNewsletter,
    /// newsletterReasons, attachments, sanitizedHtml}`, with `--full` giving the original text.
    public func render(_ view: MessageView, fullText: Bool) throws -> String {
        try encode(
            MessageViewJSON(
                from: view.from.map(AddressJSON.init), to: view.to.map(AddressJSON.init),
                cc: view.cc.map(AddressJSON.init),
                subject: view.subject, date: view.dateMs.map(time.iso8601),
                text: fullText ? view.originalText : view.text,
                quotedTextRemoved: view.quotedTextRemoved, isNewsletter: view.isNewsletter,
                newsletterReasons: view.newsletterReasons,
                attachments: view.attachments.map {
                    AttachmentJSON(filename: $0.filename, mimeType: $0.mimeType, size: $0.size)
                },
                sanitizedHtml: view.sanitizedHTML))
    }
}

// `view` shows a message that was never stored, as TerminalUI's `Person`: the one place JSON reads a
// TerminalUI value.
extension AddressJSON {
    init(_ person: Person) {
        self.address = person.address
        self.name = person.name
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
        case from, to, cc, subject, date, text, quotedTextRemoved, isNewsletter, newsletterReasons, attachments,
            sanitizedHtml
    }
}
