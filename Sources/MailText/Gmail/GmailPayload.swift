import Foundation

/// Gmail's `MessagePart` as returned by `messages.get?format=full`.
///
/// Absent arrays decode as empty and absent strings as empty, since Gmail omits empty fields.
public struct GmailMessagePart: Decodable, Sendable, Equatable {
    public struct Header: Decodable, Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public struct Body: Decodable, Sendable, Equatable {
        public var size: Int
        /// base64url of the transfer-decoded bytes (still in the part's charset).
        public var data: String?
        public var attachmentId: String?

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            size = try container.decodeIfPresent(Int.self, forKey: .size) ?? 0
            data = try container.decodeIfPresent(String.self, forKey: .data)
            attachmentId = try container.decodeIfPresent(String.self, forKey: .attachmentId)
        }

        enum CodingKeys: String, CodingKey { case size, data, attachmentId }

        public init(size: Int, data: String?, attachmentId: String?) {
            self.size = size
            self.data = data
            self.attachmentId = attachmentId
        }
    }

    public var partId: String
    public var mimeType: String
    public var filename: String
    public var headers: [Header]
    public var body: Body?
    public var parts: [GmailMessagePart]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        partId = try container.decodeIfPresent(String.self, forKey: .partId) ?? ""
        mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
        filename = try container.decodeIfPresent(String.self, forKey: .filename) ?? ""
        headers = try container.decodeIfPresent([Header].self, forKey: .headers) ?? []
        body = try container.decodeIfPresent(Body.self, forKey: .body)
        parts = try container.decodeIfPresent([GmailMessagePart].self, forKey: .parts) ?? []
    }

    enum CodingKeys: String, CodingKey { case partId, mimeType, filename, headers, body, parts }

    /// A part built by code that already decoded Gmail's JSON with its own model (the sync engine).
    public init(partId: String, mimeType: String, filename: String, headers: [Header], body: Body?, parts: [GmailMessagePart]) {
        self.partId = partId
        self.mimeType = mimeType
        self.filename = filename
        self.headers = headers
        self.body = body
        self.parts = parts
    }
}

/// Turns Gmail's payload tree into the same ``MIMEPart`` tree a raw parse produces.
///
/// Gmail has already undone the Content-Transfer-Encoding, so `body.data` is only base64url-decoded;
/// the charset is still the part's own and is decoded later, like a raw part's.
public enum GmailPayloadAdapter {
    public static func makeRoot(_ payload: GmailMessagePart) -> MIMEPart {
        makePart(payload, depth: 0)
    }

    /// A ``ParsedMessage`` from a `format=full` payload.
    public static func parse(_ payload: GmailMessagePart) -> ParsedMessage {
        ParsedMessage(root: makeRoot(payload))
    }

    static func makePart(_ payload: GmailMessagePart, depth: Int) -> MIMEPart {
        let headers = HeaderFields(payload.headers.map { HeaderField(name: $0.name, value: Array($0.value.utf8)) })
        let contentType = headers.first("Content-Type").map(HeaderParameters.parse)
        let disposition = headers.first("Content-Disposition").map(HeaderParameters.parse)
        var mediaType = payload.mimeType.lowercased()
        if mediaType.isEmpty { mediaType = contentType?.value ?? "text/plain" }
        var dispositionParameters = disposition?.parameters ?? [:]
        if !payload.filename.isEmpty && dispositionParameters["filename"] == nil {
            dispositionParameters["filename"] = payload.filename
        }
        let children = depth < MIMEParser.maximumDepth ? payload.parts.map { makePart($0, depth: depth + 1) } : []
        return MIMEPart(
            headers: headers, mediaType: mediaType, parameters: contentType?.parameters ?? [:],
            disposition: disposition.map(\.value).flatMap { $0.isEmpty ? nil : $0 },
            dispositionParameters: dispositionParameters,
            body: payload.body?.data.map { TransferDecoding.base64(Array($0.utf8)) } ?? [],
            children: children, partID: payload.partId, attachmentID: payload.body?.attachmentId,
            declaredSize: payload.body?.size)
    }
}
