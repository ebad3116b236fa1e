import GmailModel

// Gmail's payload model rendered by hand, like every emulator response: keys in the order of Google's
// examples, empty arrays omitted, `size` always present on a body.

extension JSONValue {
    init(_ part: MessagePart) {
        self = .compact([
            ("partId", part.partId.map(JSONValue.string)), ("mimeType", part.mimeType.map(JSONValue.string)),
            ("filename", part.filename.map(JSONValue.string)),
            (
                "headers",
                .array(part.headers.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
            ),
            ("body", part.body.map(JSONValue.init)), ("parts", .array(part.parts.map(JSONValue.init))),
        ])
    }

    /// A part's body, or an `attachments.get` answer: `attachmentId` before `size`, `data` after it.
    init(_ body: MessagePartBody) {
        self = .compact([
            ("attachmentId", body.attachmentId.map(JSONValue.string)), ("size", body.size.map { .int(Int64($0)) }),
            ("data", body.data.map(JSONValue.string)),
        ])
    }
}
