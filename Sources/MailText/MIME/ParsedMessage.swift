import Foundation

/// An attachment as listed in a message's MIME structure.
///
/// The store keeps its own copy of this shape (`MessageInput.Attachment`): it does not depend on MailText.
public struct MailAttachment: Sendable, Equatable {
    public var partID: String
    /// The file name as the sender gave it (decoded); empty when the part had none.
    public var filename: String
    public var mimeType: String
    /// Decoded size in bytes.
    public var size: Int
    public var contentID: String?
    /// Shown inside the message (an inline image) rather than attached.
    public var isInline: Bool
    /// Gmail's id for fetching the body with `attachments.get`.
    public var gmailAttachmentID: String?

    public init(
        partID: String, filename: String, mimeType: String, size: Int, contentID: String?, isInline: Bool,
        gmailAttachmentID: String?
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

/// A message parsed into headers, a MIME tree, its chosen body parts and its attachments.
///
/// Built the same way from raw RFC 5322 bytes (``init(raw:)``) and from Gmail's `format=full` payload
/// (``GmailPayloadAdapter``): one model, two doors.
public struct ParsedMessage: Sendable, Equatable {
    public var root: MIMEPart
    public var subject: String
    /// Every author: RFC 5322 lets `From` list several mailboxes. When a message has more than one `From`
    /// field, the first well-formed one is used (see ``authors(in:)``); ``sender`` is the first author.
    public var from: [MailAddress]
    public var to: [MailAddress]
    public var cc: [MailAddress]
    public var bcc: [MailAddress]
    public var replyTo: [MailAddress]
    /// Where the author asks replies to a list discussion to go (`Mail-Followup-To`).
    public var mailFollowupTo: [MailAddress]
    /// The mailing list the message came through (`List-Id`), if any.
    public var mailingList: MailingList?
    /// How the list accepts posts (`List-Post`); `nil` when the header is absent or names no mail address.
    public var listPosting: ListPosting?
    /// The Date header in ms since the epoch, `nil` when absent or unreadable.
    public var dateMs: Int64?
    public var messageID: String?
    /// The ids of the References header, in order, each with its angle brackets.
    public var references: [String] = []
    /// The text/plain part chosen as the body, if any.
    public var plainPart: MIMEPart?
    /// The text/html part chosen as the body, if any.
    public var htmlPart: MIMEPart?
    public var attachments: [MailAttachment]

    /// Parses raw message bytes.
    public init(raw: [UInt8]) {
        self.init(root: MIMEParser.parse(raw))
    }

    /// Reads the message-level facts from a MIME tree built by either door.
    public init(root: MIMEPart) {
        self.root = root
        let headers = root.headers
        subject = headers.first("Subject").map(EncodedWords.decode) ?? ""
        from = Self.authors(in: headers)
        to = headers.all("To").flatMap(AddressListParser.parse)
        cc = headers.all("Cc").flatMap(AddressListParser.parse)
        bcc = headers.all("Bcc").flatMap(AddressListParser.parse)
        replyTo = headers.first("Reply-To").map(AddressListParser.parse) ?? []
        mailFollowupTo = headers.first("Mail-Followup-To").map(AddressListParser.parse) ?? []
        mailingList = headers.first("List-Id").flatMap(ListHeaders.mailingList)
        listPosting = headers.first("List-Post").flatMap(ListHeaders.posting)
        dateMs = headers.first("Date").flatMap { MailDate.parse(String(decoding: $0, as: UTF8.self)) }
        messageID = headers.first("Message-ID").map {
            ReplyReferences.parse($0).first
                ?? WhitespaceTrimming.whitespaces.trimming(String(decoding: $0, as: UTF8.self))
        }
        references = headers.first("References").map(ReplyReferences.parse) ?? []
        let body = BodySelector.select(in: root)
        plainPart = body.plain
        htmlPart = body.html
        let chosen = Set([body.plain?.partID, body.html?.partID].compactMap { $0 })
        attachments = root.leaves.filter { !chosen.contains($0.partID) && Self.isListedAttachment($0) }
            .map { part in
                MailAttachment(
                    partID: part.partID, filename: part.filename.map { EncodedWords.decode(Array($0.utf8)) } ?? "",
                    mimeType: part.mediaType,
                    size: part.attachmentID == nil ? part.body.count : part.declaredSize ?? part.body.count,
                    contentID: part.contentID,
                    isInline: part.disposition == "inline" || (part.disposition == nil && part.contentID != nil),
                    gmailAttachmentID: part.attachmentID)
            }
    }

    /// The authors from the first `From` field that is a well-formed mailbox list, else from the first one
    /// that yields any mailbox.
    ///
    /// A message may carry two `From` fields when an mbox `From ` separator was mangled into a header
    /// (`From: bob@host  Fri Aug 23 11:08:46 2002`); the real one can come before or after it.
    static func authors(in headers: HeaderFields) -> [MailAddress] {
        let values = headers.all("From")
        if let wellFormed = values.first(where: AddressListParser.isWellFormedMailboxList) {
            return AddressListParser.parse(wellFormed)
        }
        return values.lazy.map(AddressListParser.parse).first { !$0.isEmpty } ?? []
    }

    /// Parts a reader would call attachments: marked or named ones, and any other non-text leaf
    /// except cryptographic signatures, which mean nothing to a reader.
    static func isListedAttachment(_ part: MIMEPart) -> Bool {
        if part.isAttachment { return true }
        guard !part.isText, !part.isMultipart, !signatureTypes.contains(part.mediaType) else { return false }
        return !(part.body.isEmpty && part.attachmentID == nil)
    }

    static let signatureTypes: Set<String> = [
        "application/pgp-signature", "application/pkcs7-signature", "application/x-pkcs7-signature",
        "application/pgp-keys",
    ]

    /// The first author, the one a conversation shows.
    public var sender: MailAddress? { from.first }
}

/// Chooses which parts carry the message text.
///
/// In `multipart/alternative` the last text/plain and the last text/html are both kept (later
/// alternatives are richer); the pipeline then decides whether the plain part is a real twin of the HTML.
/// `multipart/related` uses its root, and `multipart/mixed` and `signed` use their first part that has a
/// body. Attachments are never chosen.
enum BodySelector {
    struct Choice {
        var plain: MIMEPart?
        var html: MIMEPart?
        var isEmpty: Bool { plain == nil && html == nil }
    }

    static func select(in part: MIMEPart, depth: Int = 0) -> Choice {
        guard depth <= MIMEParser.maximumDepth, !part.isAttachment else { return Choice() }
        switch part.mediaType {
        case "text/plain":
            return Choice(plain: part)
        case "text/html":
            return Choice(html: part)
        case "multipart/alternative":
            var choice = Choice()
            for child in part.children {
                let found = select(in: child, depth: depth + 1)
                if let plain = found.plain { choice.plain = plain }
                if let html = found.html { choice.html = html }
            }
            return choice
        case "multipart/related":
            let startID = part.parameters["start"].map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "<> ")) }
            let root = part.children.first { startID != nil && $0.contentID == startID } ?? part.children.first
            return root.map { select(in: $0, depth: depth + 1) } ?? Choice()
        case "message/rfc822":
            // An inline forwarded message with nothing around it: its body is the text.
            return part.children.first.map { select(in: $0, depth: depth + 1) } ?? Choice()
        default:
            if part.isMultipart {
                for child in part.children {
                    let found = select(in: child, depth: depth + 1)
                    if !found.isEmpty { return found }
                }
            }
            return Choice()
        }
    }
}
