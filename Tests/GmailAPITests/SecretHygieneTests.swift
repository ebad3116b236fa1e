import Foundation
import GmailAPI
import Testing

@Suite struct SecretHygieneTests {
    static let token = "ya29.SECRET-ACCESS"

    /// Every case, with the richest payloads a failure could carry.
    static let allErrors: [GmailAPIError] = [
        .notFound(resource: "message"), .historyExpired, .unauthorized, .credentialsRevoked,
        .permissionDenied(reason: "insufficientPermissions"), .badRequest(reason: "Invalid label: X"), .rateLimited(retryAfter: .seconds(5)),
        .rateLimited(retryAfter: nil), .dailyLimitExceeded, .server(status: 503), .unexpectedStatus(409), .transport(description: "network error -1005"),
        .decoding(description: "Message.id: missing id"), .batchPartsFailed(failedIDs: ["a"], first: .server(status: 500)),
        .oauthRejected(code: "invalid_client"), .authorizationDenied(reason: "access_denied"), .stateMismatch, .loginTimedOut,
        .scopeNotGranted(missing: OAuthConfiguration.gmailModifyScope), .credentialStore(description: "x"), .loopback(description: "y"),
    ]

    @Test("no error message is empty, and none contains a token")
    func messages() {
        for error in Self.allErrors {
            let text = [error.errorDescription ?? "", error.description, "\(error)", error.localizedDescription].joined(separator: "\n")
            #expect(!(error.errorDescription ?? "").isEmpty)
            #expect(!text.contains(Self.token))
        }
    }

    @Test("errors raised through the client never echo the bearer token or request data")
    func clientErrors() async throws {
        let responses: [HTTPResponse] = [
            googleError(400, reason: "invalidArgument", message: "Invalid id value"), googleError(403, reason: "insufficientPermissions"),
            googleError(404, reason: "notFound"), googleError(503, reason: "backendError"), jsonResponse(200, "{}"),
        ]
        for response in responses {
            let transport = ScriptedTransport { _, _ in response }
            do {
                _ = try await makeClient(transport: transport, maxAttempts: 1).getMessage(id: "m1")
                Issue.record("expected an error")
            } catch {
                #expect(!"\(error)".contains(Self.token))
                #expect(!error.localizedDescription.contains(Self.token))
            }
        }
    }

    @Test("token grants and stored credentials redact tokens in their descriptions")
    func redaction() {
        let grant = TokenGrant(accessToken: Self.token, expiresIn: 10, refreshToken: "1//SECRET-REFRESH")
        #expect(!"\(grant)".contains("SECRET"))
    }
}
