/// Google's JSON error body: `{"error": {"code", "message", "errors": [{"reason", "domain"}], "status"}}`
/// Every field is optional: some errors lack `errors`, and proxies may send HTML.
struct GoogleErrorBody: Decodable, Sendable {
    var error: Detail?

    struct Detail: Decodable, Sendable {
        var code: Int?
        var message: String?
        var status: String?
        var errors: [Item]?
    }

    struct Item: Decodable, Sendable {
        var reason: String?
        var domain: String?
        var message: String?
    }

    /// `errors[0].reason`: read first, as it is more specific than `status`.
    var reason: String? { error?.errors?.first?.reason }
    var status: String? { error?.status }
    var message: String? { error?.message }
}

/// The OAuth token endpoint's error body: `{"error": "<code>", "error_description": "<text>"}`.
struct OAuthErrorBody: Decodable, Sendable {
    var error: String?
    var errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
