import Foundation
import GmailAPI
import Testing

@Suite struct SecretHygieneTests {
    static let token = "ya29.SECRET-ACCESS"

    /// Every case of every error the module throws, with the richest payloads a failure could carry.
    static let allErrors: [any LocalizedError] = [
        GmailAPIError.retryLater(.rateLimited(retryAfter: .seconds(5))),
        GmailAPIError.retryLater(.rateLimited(retryAfter: nil)),
        GmailAPIError.retryLater(.server(status: 503)),
        GmailAPIError.retryLater(.transport(description: "network error -1005")),
        GmailAPIError.retryLater(.outcomeUnknown(cause: "HTTP 500")),
        GmailAPIError.giveUp(.messageTooLarge(bytes: 40_000_000)),
        GmailAPIError.logInAgain(.unauthorized), GmailAPIError.logInAgain(.credentialsRevoked),
        GmailAPIError.logInAgain(.scopeNotGranted(missing: OAuthConfiguration.gmailModifyScope)),
        GmailAPIError.logInAgain(.oauthRejected(code: "invalid_client")),
        GmailAPIError.giveUp(.notFound(resource: "message")), GmailAPIError.giveUp(.historyExpired),
        GmailAPIError.giveUp(.permissionDenied(reason: "insufficientPermissions")),
        GmailAPIError.giveUp(.dailyLimitExceeded),
        GmailAPIError.giveUp(.unexpectedStatus(409)),
        GmailAPIError.giveUp(.decoding(description: "Message.id: missing id")),
        GmailAPIError.giveUp(.batchPartsFailed(failedIDs: ["a"], first: .retryLater(.server(status: 500)))),
        GmailAPIError.badRequest(reason: "Invalid label: X"),
        LoginFlowError.authorizationDenied(reason: "access_denied"), LoginFlowError.stateMismatch,
        LoginFlowError.loginTimedOut,
        LoginFlowError.loopback(description: "y"), CredentialStoreError("x"),
    ]

    /// How many distinct cases ``caseNumber(_:)`` numbers.
    static let caseCount = 22

    /// A number per case. The switches have no `default`, so a new case does not compile until it is
    /// numbered here, and then ``coverage()`` fails until ``allErrors`` has a sample of it.
    static func caseNumber(_ error: any Error) -> Int {
        switch error {
        case let error as GmailAPIError:
            switch error {
            case .retryLater(.rateLimited): 0
            case .retryLater(.server): 1
            case .retryLater(.transport): 2
            case .logInAgain(.unauthorized): 3
            case .logInAgain(.credentialsRevoked): 4
            case .logInAgain(.scopeNotGranted): 5
            case .logInAgain(.oauthRejected): 6
            case .giveUp(.notFound): 7
            case .giveUp(.historyExpired): 8
            case .giveUp(.permissionDenied): 9
            case .giveUp(.dailyLimitExceeded): 10
            case .giveUp(.unexpectedStatus): 11
            case .giveUp(.decoding): 12
            case .giveUp(.batchPartsFailed): 13
            case .badRequest: 14
            case .retryLater(.outcomeUnknown): 20
            case .giveUp(.messageTooLarge): 21
            }
        case let error as LoginFlowError:
            switch error {
            case .authorizationDenied: 15
            case .stateMismatch: 16
            case .loginTimedOut: 17
            case .loopback: 18
            }
        case is CredentialStoreError: 19
        default: -1
        }
    }

    @Test("the samples cover every case of every error type")
    func coverage() {
        #expect(Set(Self.allErrors.map(Self.caseNumber)) == Set(0..<Self.caseCount))
    }

    @Test("no error message is empty, and none contains a token")
    func messages() {
        for error in Self.allErrors {
            let text = [
                error.errorDescription ?? "", "\(error)", String(reflecting: error), error.localizedDescription,
            ].joined(separator: "\n")
            #expect(!(error.errorDescription ?? "").isEmpty)
            #expect(!text.contains(Self.token))
        }
    }

    @Test("errors raised through the client never echo the bearer token or request data")
    func clientErrors() async throws {
        let responses: [HTTPResponse] = [
            googleError(400, reason: "invalidArgument", message: "Invalid id value"),
            googleError(403, reason: "insufficientPermissions"),
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
