/// A failure as JSON: the exit code, its stable name, and the message printed on stderr.
public struct JSONError: Encodable, Sendable {
    public var code: Int32
    public var kind: String
    public var message: String

    public init(code: Int32, kind: String, message: String) {
        self.code = code
        self.kind = kind
        self.message = message
    }
}

/// The document a failed `--json` run prints: `{"error": {"code": 3, "kind": "notLoggedIn", "message": "…"}}`.
public struct JSONErrorDocument: Encodable, Sendable {
    public var error: JSONError

    public init(_ error: JSONError) {
        self.error = error
    }
}
