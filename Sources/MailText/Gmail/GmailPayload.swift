import GmailModel

/// Turns Gmail's payload tree into the same ``MIMEPart`` tree a raw parse produces.
///
/// Gmail has already undone the Content-Transfer-Encoding, so `body.data` is only base64url-decoded;
/// the charset is still the part's own and is decoded later, like a raw part's.
public enum GmailPayloadAdapter {
    public static func makeRoot(_ payload: MessagePart) -> MIMEPart {
        makePart(payload, depth: 0)
    }

    /// A ``ParsedMessage`` from a `format=full` payload.
    public static func parse(_ payload: MessagePart) -> ParsedMessage {
        ParsedMessage(root: makeRoot(payload))
    }

    static func makePart(_ payload: MessagePart, depth: Int) -> MIMEPart {
        let headers = HeaderFields(payload.headers.map { HeaderField(name: $0.name, value: Array($0.value.utf8)) })
        let contentType = headers.first("Content-Type").map(HeaderParameters.parse)
        let disposition = headers.first("Content-Disposition").map(HeaderParameters.parse)
        var mediaType = (payload.mimeType ?? "").lowercased()
        if mediaType.isEmpty { mediaType = contentType?.value ?? "text/plain" }
        var dispositionParameters = disposition?.parameters ?? [:]
        if let filename = payload.filename, !filename.isEmpty, dispositionParameters["filename"] == nil {
            dispositionParameters["filename"] = filename
        }
        let children = depth < MIMEParser.maximumDepth ? payload.parts.map { makePart($0, depth: depth + 1) } : []
        return MIMEPart(
            headers: headers, mediaType: mediaType, parameters: contentType?.parameters ?? [:],
            disposition: disposition.map(\.value).flatMap { $0.isEmpty ? nil : $0 },
            dispositionParameters: dispositionParameters,
            // Gmail's data is always well-formed; a body that is not base64url is shown as empty
            // rather than as bytes guessed from part of it.
            body: payload.body?.data.flatMap(Base64URL.decode) ?? [],
            children: children, partID: payload.partId ?? "", attachmentID: payload.body?.attachmentId,
            declaredSize: payload.body.map { $0.size ?? 0 })
    }
}
