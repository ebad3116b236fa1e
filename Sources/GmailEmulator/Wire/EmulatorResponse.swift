/// One HTTP response from an emulator handler.
public struct EmulatorResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// Fault injection asked to close the connection without a complete response.
    public var dropConnection: Bool
    /// Fault injection asked to reset the connection before any byte of a response.
    public var resetConnection: Bool

    public init(
        status: Int, headers: [(String, String)] = [], body: [UInt8] = [], dropConnection: Bool = false,
        resetConnection: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.dropConnection = dropConnection
        self.resetConnection = resetConnection
    }

    /// A JSON response (`application/json; charset=UTF-8`, as Google labels it).
    public static func json(_ value: JSONValue, status: Int = 200, headers: [(String, String)] = []) -> EmulatorResponse
    {
        EmulatorResponse(
            status: status, headers: [("Content-Type", "application/json; charset=UTF-8")] + headers,
            body: value.serialized())
    }

    /// 204 with no body (`batchModify`, `delete`).
    public static let noContent = EmulatorResponse(status: 204)

    /// A Google API error, shaped like Google's.
    public static func error(_ error: GmailError) -> EmulatorResponse {
        var extra: [(String, String)] = []
        if let seconds = error.retryAfterSeconds { extra.append(("Retry-After", String(seconds))) }
        if error.code == 401 { extra.append(("WWW-Authenticate", "Bearer realm=\"https://accounts.google.com/\"")) }
        return json(error.body, status: error.code, headers: extra)
    }

    /// The HTTP reason phrase used in batch part status lines.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 302: "Found"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 413: "Payload Too Large"
        case 405: "Method Not Allowed"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status \(status)"
        }
    }
}
