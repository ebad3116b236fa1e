import ChatmailStore
import MailText

/// Gmail's facts about a message that are not in its MIME content.
public struct MessageEnvelope: Sendable, Equatable {
    public var gmailID: String
    public var threadID: String
    public var internalDateMs: Int64
    public var labelIDs: [String]
    public var snippet: String
    public var sizeEstimate: Int64
    public var historyID: UInt64?

    public init(
        gmailID: String, threadID: String, internalDateMs: Int64, labelIDs: [String], snippet: String = "",
        sizeEstimate: Int64 = 0, historyID: UInt64? = nil
    ) {
        self.gmailID = gmailID
        self.threadID = threadID
        self.internalDateMs = internalDateMs
        self.labelIDs = labelIDs
        self.snippet = snippet
        self.sizeEstimate = sizeEstimate
        self.historyID = historyID
    }
}

/// Turns what the text pipeline made of a message into the store's ``MessageInput``.
///
/// One mapping for every way mail arrives (sync, import), so the store sees the same fields whatever
/// the source.
public enum MessageInputBuilder {
    public static func make(_ processed: ProcessedMessage, envelope: MessageEnvelope) -> MessageInput {
        let message = processed.message
        let text = processed.text
        return MessageInput(
            gmailID: envelope.gmailID, threadID: envelope.threadID, internalDateMs: envelope.internalDateMs,
            from: message.sender.map(emailAddress), to: message.to.map(emailAddress), cc: message.cc.map(emailAddress),
            bcc: message.bcc.map(emailAddress), subject: message.subject, gmailSnippet: envelope.snippet,
            bodyText: text.text, originalText: text.quotedTextRemoved ? text.originalText : nil,
            isNewsletter: processed.newsletter.isNewsletter,
            newsletterReasons: processed.newsletter.reasons, sizeEstimate: envelope.sizeEstimate,
            historyID: envelope.historyID, labelIDs: envelope.labelIDs,
            attachments: message.attachments.map { attachment in
                MessageInput.Attachment(
                    partID: attachment.partID, filename: attachment.filename, mimeType: attachment.mimeType,
                    size: Int64(attachment.size), contentID: attachment.contentID, isInline: attachment.isInline,
                    gmailAttachmentID: attachment.gmailAttachmentID)
            },
            coAuthors: message.from.dropFirst().map(emailAddress),
            mailingList: message.mailingList.map { MessageInput.MailingList(id: $0.id, name: $0.name) },
            listPosting: message.listPosting.map(listPosting),
            replyTo: addressList(message.replyTo), mailFollowupTo: addressList(message.mailFollowupTo),
            rfc822MessageID: message.messageID, references: message.references,
            verificationCode: VerificationCodeDetector.detect(
                subject: message.subject, text: text.text, from: message.sender
            ).map { VerificationCodeInput(code: $0.code, service: $0.service) })
    }

    static func listPosting(_ posting: ListPosting) -> MessageInput.ListPosting {
        switch posting {
        case .address(let address): .address(emailAddress(address))
        case .readOnly: .readOnly
        }
    }

    /// `nil` for an absent (or empty) header, so the store keeps "no header" apart from an address list.
    static func addressList(_ addresses: [MailAddress]) -> [EmailAddress]? {
        addresses.isEmpty ? nil : addresses.map(emailAddress)
    }

    static func emailAddress(_ address: MailAddress) -> EmailAddress {
        EmailAddress(address: address.address, name: address.name)
    }
}
