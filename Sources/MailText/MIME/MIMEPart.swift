import Foundation

/// One node of a message's MIME tree, the same shape whether it came from raw bytes or from Gmail's
/// `format=full` payload ("one model, two doors").
public struct MIMEPart: Sendable, Equatable {
    /// The part's own header fields (the message headers for the root).
    public var headers: HeaderFields
    /// The media type, lowercased (`text/plain`); `text/plain` when absent or unreadable (RFC 2045 §5.2).
    public var mediaType: String
    /// Content-Type parameters, names lowercased (`charset`, `boundary`, `format`, `delsp`, `name`).
    public var parameters: [String: String]
    /// `attachment`, `inline`, or `nil` when there is no Content-Disposition.
    public var disposition: String?
    /// Content-Disposition parameters (`filename`, `size`).
    public var dispositionParameters: [String: String]
    /// The body with its transfer encoding undone (still in its charset); empty for containers and for
    /// bodies that live elsewhere (``attachmentID``).
    public var body: [UInt8]
    /// Children of a `multipart/*` part, or the single embedded message of a `message/rfc822` part.
    public var children: [MIMEPart]
    /// Gmail-style part id: `""` for the root, then `0`, `1`, `0.1`, …
    public var partID: String
    /// Gmail's id for a body fetched separately with `attachments.get`.
    public var attachmentID: String?
    /// The decoded size as declared by Gmail, when the body is not inline.
    public var declaredSize: Int?

    public init(
        headers: HeaderFields, mediaType: String, parameters: [String: String] = [:], disposition: String? = nil,
        dispositionParameters: [String: String] = [:], body: [UInt8] = [], children: [MIMEPart] = [],
        partID: String = "", attachmentID: String? = nil, declaredSize: Int? = nil
    ) {
        self.headers = headers
        self.mediaType = mediaType
        self.parameters = parameters
        self.disposition = disposition
        self.dispositionParameters = dispositionParameters
        self.body = body
        self.children = children
        self.partID = partID
        self.attachmentID = attachmentID
        self.declaredSize = declaredSize
    }

    public var isMultipart: Bool { mediaType.hasPrefix("multipart/") }
    public var isText: Bool { mediaType.hasPrefix("text/") }

    /// The file name from Content-Disposition, else the Content-Type `name` parameter.
    public var filename: String? {
        let name = dispositionParameters["filename"] ?? parameters["name"]
        return name?.isEmpty == false ? name : nil
    }

    /// An attachment is a part marked `attachment`, or any named non-text part, or a body stored
    /// elsewhere; these are never chosen as the message text.
    public var isAttachment: Bool {
        if disposition == "attachment" { return true }
        if filename != nil && !(isText && disposition == "inline") { return true }
        return attachmentID != nil && !isText
    }

    /// The Content-ID without angle brackets.
    public var contentID: String? {
        guard let raw = headers.first("Content-ID") else { return nil }
        var id = WhitespaceTrimming.whitespaces.trimming(String(decoding: raw, as: UTF8.self))
        if id.hasPrefix("<") && id.hasSuffix(">") && id.count >= 2 { id = String(id.dropFirst().dropLast()) }
        return id.isEmpty ? nil : id
    }

    /// The body decoded from its declared charset.
    public var text: String {
        CharsetDecoder.decode(body, charset: parameters["charset"])
    }

    /// Every leaf in depth-first order.
    public var leaves: [MIMEPart] {
        children.isEmpty ? [self] : children.flatMap(\.leaves)
    }
}
