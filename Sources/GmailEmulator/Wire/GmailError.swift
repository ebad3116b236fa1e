/// A Google API error with the exact body shape Google sends.
///
/// The factories carry Google's wording so every handler and fault produces byte-identical bodies.
public struct GmailError: Error, Sendable, Equatable {
    public var code: Int
    public var message: String
    public var reason: String?
    public var domain: String
    public var status: String?
    public var location: (name: String, type: String)?
    public var retryAfterSeconds: Int?
    /// `errors[0].message` when it differs from the top-level message (401: "Invalid Credentials").
    public var detailMessage: String?

    public static func == (lhs: GmailError, rhs: GmailError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.reason == rhs.reason && lhs.status == rhs.status
    }

    /// The `{"error": {...}}` body.
    public var body: JSONValue {
        var detail: [(String, JSONValue?)] = [
            ("message", .string(detailMessage ?? message)), ("domain", .string(domain)),
        ]
        if let reason { detail.append(("reason", .string(reason))) }
        if let location {
            detail.append(("location", .string(location.name)))
            detail.append(("locationType", .string(location.type)))
        }
        let errors: JSONValue? = reason == nil ? nil : .array([JSONValue.compact(detail)])
        return .object([
            (
                "error",
                JSONValue.compact([
                    ("code", .int(Int64(code))), ("message", .string(message)), ("errors", errors),
                    ("status", status.map(JSONValue.string)),
                ])
            )
        ])
    }

    public static let notFound = GmailError(
        code: 404, message: "Requested entity was not found.", reason: "notFound", domain: "global", status: "NOT_FOUND"
    )

    public static let unauthenticated = GmailError.withDetail(
        GmailError(
            code: 401,
            message:
                "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
            reason: "authError", domain: "global", status: "UNAUTHENTICATED", location: ("Authorization", "header")),
        "Invalid Credentials")

    static func withDetail(_ error: GmailError, _ detail: String) -> GmailError {
        var copy = error
        copy.detailMessage = detail
        return copy
    }

    public static func badRequest(_ message: String, reason: String = "badRequest") -> GmailError {
        GmailError(code: 400, message: message, reason: reason, domain: "global", status: "INVALID_ARGUMENT")
    }

    public static func invalidLabel(_ label: String) -> GmailError {
        badRequest("Invalid label: \(label)", reason: "invalidArgument")
    }

    public static func delegationDenied(_ userId: String) -> GmailError {
        GmailError(
            code: 403, message: "Delegation denied for \(userId)", reason: "forbidden", domain: "global",
            status: "PERMISSION_DENIED")
    }

    public static let tooManyConcurrent = GmailError(
        code: 429, message: "Too many concurrent requests for user", reason: "rateLimitExceeded", domain: "global",
        status: "RESOURCE_EXHAUSTED", retryAfterSeconds: 1)

    public static func quotaExceeded(retryAfter: Int) -> GmailError {
        GmailError(
            code: 429, message: "Resource has been exhausted (e.g. check quota).", reason: "rateLimitExceeded",
            domain: "global", status: "RESOURCE_EXHAUSTED", retryAfterSeconds: retryAfter)
    }

    /// A token without the scope the method needs (gmail.readonly calling modify): permanent.
    public static let insufficientPermissions = GmailError(
        code: 403, message: "Request had insufficient authentication scopes.", reason: "insufficientPermissions",
        domain: "global", status: "PERMISSION_DENIED")

    public static let userRateLimit = GmailError(
        code: 403, message: "User Rate Limit Exceeded", reason: "userRateLimitExceeded", domain: "usageLimits",
        status: "PERMISSION_DENIED", retryAfterSeconds: nil)

    public static let backendError = GmailError(
        code: 500, message: "Backend Error", reason: "backendError", domain: "global", status: "INTERNAL")

    public static let unavailable = GmailError(
        code: 503, message: "The service is currently unavailable.", reason: "backendError", domain: "global",
        status: "UNAVAILABLE", retryAfterSeconds: 1)

    public static let methodNotAllowed = GmailError(
        code: 405, message: "Method not allowed.", reason: "badRequest", domain: "global", status: "INVALID_ARGUMENT")

    /// A request body or uploaded message over the endpoint's limit.
    public static func payloadTooLarge(limit: Int) -> GmailError {
        GmailError(
            code: 413, message: "Request payload size exceeds the limit: \(limit) bytes.", reason: "uploadTooLarge",
            domain: "global", status: "FAILED_PRECONDITION")
    }

    /// The whole-batch failure for more than 100 inner calls: Google sends no `errors` array here.
    public static func batchTooLarge(_ count: Int) -> GmailError {
        GmailError(
            code: 400, message: "Inner request count exceeds the limit. Received: \(count), Limit: 100",
            reason: nil, domain: "global", status: "INVALID_ARGUMENT")
    }

    init(
        code: Int, message: String, reason: String?, domain: String, status: String?,
        location: (name: String, type: String)? = nil, retryAfterSeconds: Int? = nil
    ) {
        self.code = code
        self.message = message
        self.reason = reason
        self.domain = domain
        self.status = status
        self.location = location
        self.retryAfterSeconds = retryAfterSeconds
    }
}
