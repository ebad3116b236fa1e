import Foundation

/// A plain-text message to send, and its RFC 5322 form (what Gmail's `messages.send` takes as `raw`).
///
/// ```swift
/// let ann = MailAddress(name: "Ann", address: "ann@example.org")
/// let message = OutgoingMessage(
///     from: ann, to: [MailAddress(address: "bob@example.org")], subject: "Re: Plan", date: .now,
///     timeZone: .current, messageID: MessageIDGenerator.make(for: ann), body: "Sounds good.\n")
/// let raw = try message.rfc5322()
/// ```
///
/// What it writes, and why:
/// - Headers in the usual order: Date, From, To, Cc, Bcc, Subject, Message-ID, In-Reply-To, References,
///   then the MIME headers. Empty address lists are left out. Bcc is written because Gmail reads it to
///   deliver, then removes it from what recipients get.
/// - No User-Agent or X-Mailer: nothing the recipient needs, and one more fact about the sender.
/// - `Content-Type: text/plain; charset=utf-8`, without `format=flowed`: lines are sent as the user wrote
///   them, and quoted-printable keeps long ones intact. Line breaks become CRLF. The transfer encoding is
///   7bit for printable ASCII in short lines, else quoted-printable, or base64 when quoted-printable would
///   be more than a quarter larger (mostly non-Latin text); `BodyEncoder` says why in detail.
/// - Subject and display names: control characters (CR and LF included: no value can start a header of its
///   own) and whitespace runs become one space, and the ends are trimmed. Non-ASCII text becomes RFC 2047
///   UTF-8 encoded words. Names that are not plain atoms are quoted.
/// - Addresses are written as given, trimmed; one with non-ASCII characters is written as UTF-8
///   (RFC 6532), which Gmail accepts, with no IDNA or SMTPUTF8 conversion. An address that could break the
///   header (a control character, whitespace outside a quoted local part, an angle bracket, no `@`, more
///   than 254 octets) is refused with ``ComposeError/invalidAddress(_:)``.
/// - Message ids are written with angle brackets whether given with them or not; an id that cannot be
///   written safely is refused with ``ComposeError/invalidMessageID(_:)``.
public struct OutgoingMessage: Sendable, Equatable {
    public var from: MailAddress
    public var to: [MailAddress]
    public var cc: [MailAddress]
    public var bcc: [MailAddress]
    public var subject: String
    public var date: Date
    /// The zone whose offset the Date header shows.
    public var timeZone: TimeZone
    public var messageID: String
    /// The id of the message answered; `nil` for a new conversation.
    public var inReplyTo: String?
    /// The thread's ids, oldest first (see ``ReplyReferences/make(parentReferences:parentInReplyTo:parentMessageID:limit:)``).
    public var references: [String]
    /// The text; any line break convention, written as CRLF.
    public var body: String

    public init(
        from: MailAddress, to: [MailAddress], cc: [MailAddress] = [], bcc: [MailAddress] = [], subject: String,
        date: Date, timeZone: TimeZone, messageID: String, inReplyTo: String? = nil, references: [String] = [],
        body: String
    ) {
        self.from = from
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.subject = subject
        self.date = date
        self.timeZone = timeZone
        self.messageID = messageID
        self.inReplyTo = inReplyTo
        self.references = references
        self.body = body
    }

    /// The message as RFC 5322 bytes with CRLF line endings.
    /// - Throws: ``ComposeError`` when an address or id cannot be written, or there are no recipients.
    public func rfc5322() throws(ComposeError) -> [UInt8] {
        guard !(to.isEmpty && cc.isEmpty && bcc.isEmpty) else { throw .noRecipients }
        var header = ""
        header += field("Date", [.literal(MailDate.format(date, timeZone: timeZone))])
        header += field("From", try Self.addressList([from]))
        for (name, list) in [("To", to), ("Cc", cc), ("Bcc", bcc)] where !list.isEmpty {
            header += field(name, try Self.addressList(list))
        }
        header += field("Subject", HeaderEncoding.unstructured(subject))
        header += field("Message-ID", [.literal(try Self.messageID(messageID))])
        if let inReplyTo { header += field("In-Reply-To", [.literal(try Self.messageID(inReplyTo))]) }
        if !references.isEmpty {
            header += field(
                "References", try references.map { id throws(ComposeError) in .literal(try Self.messageID(id)) })
        }
        let (encoding, bodyBytes) = BodyEncoder.encode(body)
        header += "MIME-Version: 1.0\r\n"
        header += "Content-Type: text/plain; charset=utf-8\r\n"
        header += "Content-Transfer-Encoding: \(encoding.rawValue)\r\n"
        return Array(header.utf8) + BodyEncoder.crlf + bodyBytes
    }

    private func field(_ name: String, _ pieces: [HeaderEncoding.Piece]) -> String {
        var folded = FoldedHeader(name: name)
        folded.append(pieces)
        return folded.text
    }

    /// The pieces of an address list: each mailbox as `name <address>` (or the bare address when there is no
    /// name), separated by commas.
    static func addressList(_ mailboxes: [MailAddress]) throws(ComposeError) -> [HeaderEncoding.Piece] {
        var pieces: [HeaderEncoding.Piece] = []
        for (index, mailbox) in mailboxes.enumerated() {
            let address = try validatedAddress(mailbox.address)
            let separator = index < mailboxes.count - 1 ? "," : ""
            let name = mailbox.name.map(HeaderEncoding.cleaned) ?? ""
            if name.isEmpty {
                pieces.append(.literal(address + separator))
            } else {
                pieces += HeaderEncoding.phrase(name) + [.literal("<" + address + ">" + separator)]
            }
        }
        return pieces
    }

    /// The address trimmed, when it can be written into a header as it is.
    static func validatedAddress(_ raw: String) throws(ComposeError) -> String {
        let address = raw.trimmingCharacters(in: .whitespaces)
        guard let at = address.lastIndex(of: "@"), at != address.startIndex,
            address.index(after: at) != address.endIndex,
            address.utf8.count <= 254
        else { throw .invalidAddress(raw) }
        let local = address[..<at]
        let quotedLocal = local.count >= 2 && local.hasPrefix("\"") && local.hasSuffix("\"")
        for (offset, scalar) in address.unicodeScalars.enumerated() {
            let value = scalar.value
            let insideQuotes = quotedLocal && offset < local.unicodeScalars.count
            // A comma, semicolon or colon would make a reader see two addresses (or a group), a parenthesis a
            // comment: outside a quoted local part they could add a recipient.
            if value < 0x20 || (0x7F...0x9F).contains(value) || scalar == "<" || scalar == ">"
                || (scalar.properties.isWhitespace && !(insideQuotes && scalar == " "))
                || (!insideQuotes && ",;:()\"\\".unicodeScalars.contains(scalar))
            {
                throw .invalidAddress(raw)
            }
        }
        return address
    }

    static func messageID(_ id: String) throws(ComposeError) -> String {
        guard let normalized = ReplyReferences.normalized(id) else { throw .invalidMessageID(id) }
        return normalized
    }
}
