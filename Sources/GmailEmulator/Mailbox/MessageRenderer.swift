import GmailModel
import MailText

/// Turns a stored message into Gmail's `Message` JSON in one of the four formats.
///
/// The `full` payload is built from the raw bytes with `MIMEParser`, so part ids, headers and decoded
/// bodies come from the same parser the client uses, into the same ``MessagePart`` model the client
/// decodes, not into a second description of the payload.
struct MessageRenderer: Sendable {
    enum Format: String, Sendable { case minimal, metadata, full, raw }

    /// Leaves larger than this are served by `attachments.get` instead of inline `data`.
    var inlineLimit = 512 * 1024
    /// Makes attachment ids differ between fetches, as Gmail's ephemeral ids do.
    var attachmentNonce: UInt64 = 0

    func render(_ message: StoredMessage, snippet: String, format: Format, metadataHeaders: [String]) -> JSONValue {
        var pairs: [(String, JSONValue?)] = [
            ("id", .string(message.id)), ("threadId", .string(message.threadId)),
            ("labelIds", .array(message.labelIds.map(JSONValue.string))), ("snippet", .string(snippet)),
        ]
        switch format {
        case .minimal:
            break
        case .metadata:
            let root = MIMEParser.parse(message.raw)
            let wanted = Set(metadataHeaders.map { $0.lowercased() })
            let headers = root.headers.fields.filter { wanted.isEmpty || wanted.contains($0.name.lowercased()) }
            pairs.append(("payload", JSONValue(MessagePart(mimeType: root.mediaType, headers: headers.map(header)))))
        case .full:
            pairs.append(("payload", JSONValue(part(MIMEParser.parse(message.raw), messageId: message.id))))
        case .raw:
            break
        }
        pairs.append(("sizeEstimate", .int(Int64(message.sizeEstimate))))
        if format == .raw { pairs.append(("raw", .string(Base64URL.encode(message.raw, padded: true)))) }
        pairs.append(("historyId", .string(String(message.historyId))))
        pairs.append(("internalDate", .string(String(message.internalDateMs))))
        return JSONValue.compact(pairs)
    }

    private func header(_ field: HeaderField) -> MessagePartHeader {
        MessagePartHeader(name: field.name, value: String(decoding: field.value, as: UTF8.self))
    }

    private func part(_ part: MIMEPart, messageId: String) -> MessagePart {
        let isAttachment = part.isAttachment && !part.isMultipart
        let body: MessagePartBody
        if part.isMultipart && !part.children.isEmpty {
            body = MessagePartBody(size: 0)
        } else if isAttachment || part.body.count > inlineLimit {
            let id = AttachmentID(messageId: messageId, partId: part.partID, nonce: attachmentNonce).encoded
            body = MessagePartBody(size: part.body.count, attachmentId: id)
        } else if part.body.isEmpty {
            body = MessagePartBody(size: 0)
        } else {
            body = MessagePartBody(size: part.body.count, data: Base64URL.encode(part.body, padded: true))
        }
        return MessagePart(
            partId: part.partID, mimeType: part.mediaType, filename: isAttachment ? part.filename ?? "" : "",
            headers: part.headers.fields.map(header), body: body,
            parts: part.isMultipart ? part.children.map { self.part($0, messageId: messageId) } : [])
    }

    /// The transfer-decoded bytes of one part, for `attachments.get`.
    static func partBody(raw: [UInt8], partId: String) -> [UInt8]? {
        func find(_ part: MIMEPart) -> MIMEPart? {
            if part.partID == partId { return part }
            for child in part.children { if let hit = find(child) { return hit } }
            return nil
        }
        return find(MIMEParser.parse(raw)).map(\.body)
    }
}

/// An attachment id: message, part and a per-fetch nonce, base64url-encoded and opaque to clients.
struct AttachmentID: Sendable, Equatable {
    var messageId: String
    var partId: String
    var nonce: UInt64

    var encoded: String { "ANGjdJ" + Base64URL.encode(Array("\(messageId):\(partId):\(nonce)".utf8), padded: false) }

    init(messageId: String, partId: String, nonce: UInt64) {
        self.messageId = messageId
        self.partId = partId
        self.nonce = nonce
    }

    init?(_ text: String) {
        guard text.hasPrefix("ANGjdJ"), let bytes = Base64URL.decode(String(text.dropFirst(6))) else { return nil }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3, let nonce = UInt64(fields[2]) else { return nil }
        self.init(messageId: String(fields[0]), partId: String(fields[1]), nonce: nonce)
    }
}
