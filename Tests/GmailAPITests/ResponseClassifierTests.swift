import Foundation
import GmailAPI
import Testing

@Suite struct ResponseClassifierTests {
    typealias Outcome = ResponseClassifier.Outcome

    static let now = Date(timeIntervalSince1970: 1_731_410_000)  // 2024-11-12T11:13:20Z

    /// The contract's error table, one row per status/reason pair, with the endpoint that changes the meaning
    /// of a 404.
    @Test(
        arguments: [
            (200, nil, "", GmailEndpoint.getMessage, Outcome.success),
            (204, nil, "", .batchModify, .success),  // batchModify answers 204 with no body
            (400, "badRequest", "Invalid id value", .getMessage, .permanent(.badRequest(reason: "Invalid id value"))),
            (400, "invalidArgument", "Invalid label: X", .modify, .permanent(.badRequest(reason: "Invalid label: X"))),
            (
                400, "failedPrecondition", "Precondition check failed.", .modify,
                .permanent(.badRequest(reason: "Precondition check failed."))
            ),
            // Gmail answers a stale startHistoryId with 400 at times
            (400, "invalidArgument", "Invalid startHistoryId", .listHistory, .permanent(.giveUp(.historyExpired))),
            (401, "authError", "Invalid Credentials", .getMessage, .refreshToken),
            (
                403, "insufficientPermissions", "Request had insufficient authentication scopes.", .getMessage,
                .permanent(.giveUp(.permissionDenied(reason: "insufficientPermissions")))
            ),
            (
                403, "forbidden", "Delegation denied for x", .getProfile,
                .permanent(.giveUp(.permissionDenied(reason: "forbidden")))
            ),
            (
                403, "domainPolicy", "domain disallows", .getProfile,
                .permanent(.giveUp(.permissionDenied(reason: "domainPolicy")))
            ),
            (
                403, "userRateLimitExceeded", "User Rate Limit Exceeded", .getMessage,
                .transient(.retryLater(.rateLimited(retryAfter: nil)), retryAfter: nil)
            ),
            (
                403, "rateLimitExceeded", "Quota exceeded", .listMessages,
                .transient(.retryLater(.rateLimited(retryAfter: nil)), retryAfter: nil)
            ),
            (403, "dailyLimitExceeded", "Daily Limit Exceeded", .getMessage, .permanent(.giveUp(.dailyLimitExceeded))),
            (
                404, "notFound", "Requested entity was not found.", .getMessage,
                .permanent(.giveUp(.notFound(resource: "message")))
            ),
            (
                404, "notFound", "Requested entity was not found.", .modify,
                .permanent(.giveUp(.notFound(resource: "message")))
            ),
            (
                404, "notFound", "Requested entity was not found.", .getAttachment,
                .permanent(.giveUp(.notFound(resource: "attachment")))
            ),
            (404, "notFound", "Requested entity was not found.", .listHistory, .permanent(.giveUp(.historyExpired))),
            (
                429, "rateLimitExceeded", "Too many concurrent requests for user", .getMessage,
                .transient(.retryLater(.rateLimited(retryAfter: nil)), retryAfter: nil)
            ),
            (
                429, nil, "Resource has been exhausted (e.g. check quota).", .getMessage,
                .transient(.retryLater(.rateLimited(retryAfter: nil)), retryAfter: nil)
            ),
            (
                500, "backendError", "Backend Error", .getMessage,
                .transient(.retryLater(.server(status: 500)), retryAfter: nil)
            ),
            (502, "backendError", "", .getMessage, .transient(.retryLater(.server(status: 502)), retryAfter: nil)),
            (503, "backendError", "", .listHistory, .transient(.retryLater(.server(status: 503)), retryAfter: nil)),
            (504, "backendError", "", .getMessage, .transient(.retryLater(.server(status: 504)), retryAfter: nil)),
            (409, nil, "conflict", .modify, .permanent(.giveUp(.unexpectedStatus(409)))),
        ] as [(Int, String?, String, GmailEndpoint, Outcome)])
    func classifiesEveryContractRow(
        status: Int, reason: String?, message: String, endpoint: GmailEndpoint, expected: Outcome
    ) {
        let response = googleError(status, reason: reason, message: message)
        let body = (200..<300).contains(status) ? Data() : response.body
        #expect(ResponseClassifier.classify(status: status, body: body, endpoint: endpoint, now: Self.now) == expected)
    }

    @Test("a non-JSON error body is classified by status alone")
    func htmlBody() {
        let body = Data("<html>Bad Gateway</html>".utf8)
        #expect(
            ResponseClassifier.classify(status: 502, body: body, endpoint: .getMessage)
                == .transient(.retryLater(.server(status: 502)), retryAfter: nil))
        #expect(
            ResponseClassifier.classify(status: 403, body: body, endpoint: .getMessage)
                == .permanent(.giveUp(.permissionDenied(reason: "HTTP 403"))))
    }

    @Test("Retry-After in seconds is read")
    func retryAfterSeconds() {
        let outcome = ResponseClassifier.classify(
            status: 429, headers: ["retry-after": "7"], body: Data(), endpoint: .getMessage, now: Self.now)
        #expect(outcome == .transient(.retryLater(.rateLimited(retryAfter: nil)), retryAfter: .seconds(7)))
    }

    @Test("Retry-After as an HTTP date is read relative to now")
    func retryAfterHTTPDate() {
        let outcome = ResponseClassifier.classify(
            status: 503, headers: ["Retry-After": "Tue, 12 Nov 2024 11:13:50 GMT"], body: Data(), endpoint: .getMessage,
            now: Self.now)
        #expect(outcome == .transient(.retryLater(.server(status: 503)), retryAfter: .seconds(30)))
    }

    @Test("Google's 'Retry after <RFC 3339>' message text is read, and the later hint wins")
    func retryAfterMessage() {
        let response = googleError(
            429, reason: "rateLimitExceeded", message: "User-rate limit exceeded.  Retry after 2024-11-12T11:16:42.247Z"
        )
        let outcome = ResponseClassifier.classify(
            status: 429, headers: ["Retry-After": "5"], body: response.body, endpoint: .getMessage, now: Self.now)
        guard case .transient(_, let hint?) = outcome else {
            Issue.record("expected a transient outcome with a hint, got \(outcome)")
            return
        }
        #expect(abs(Double(hint.components.seconds) - 202) <= 1)
    }
}
