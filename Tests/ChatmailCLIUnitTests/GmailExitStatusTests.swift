import GmailAPI
import Testing

@testable import ChatmailCLI

/// The exit code of every Gmail, login and credential-file failure: scripts rely on these.
@Suite struct GmailExitStatusTests {
    static let notLoggedIn: [any Error] = [
        GmailAPIError.logInAgain(.unauthorized), GmailAPIError.logInAgain(.credentialsRevoked),
        GmailAPIError.logInAgain(.scopeNotGranted(missing: "gmail.modify")),
        GmailAPIError.logInAgain(.oauthRejected(code: "invalid_client")),
        GmailAPIError.giveUp(.permissionDenied(reason: "insufficientPermissions")),
        LoginFlowError.authorizationDenied(reason: "access_denied"), LoginFlowError.stateMismatch,
    ]

    static let failure: [any Error] = [
        GmailAPIError.retryLater(.rateLimited(retryAfter: nil)), GmailAPIError.retryLater(.server(status: 503)),
        GmailAPIError.retryLater(.transport(description: "network error -1004")),
        GmailAPIError.giveUp(.notFound(resource: "message")), GmailAPIError.giveUp(.historyExpired),
        GmailAPIError.giveUp(.dailyLimitExceeded), GmailAPIError.giveUp(.unexpectedStatus(409)),
        GmailAPIError.giveUp(.decoding(description: "Message: missing id")),
        GmailAPIError.giveUp(.batchPartsFailed(failedIDs: ["a"], first: .logInAgain(.unauthorized))),
        GmailAPIError.badRequest(reason: "Invalid label: X"),
        LoginFlowError.loginTimedOut, LoginFlowError.loopback(description: "poll failed"),
        CredentialStoreError("cannot write"),
    ]

    @Test("login failures exit 3, and a permission Gmail denies does too: its message says to log in again")
    func loginFailures() {
        for error in Self.notLoggedIn {
            #expect(ExitStatus(for: error) == .notLoggedIn, "\(error)")
        }
    }

    @Test("everything else from Gmail, the browser login or the credentials file exits 1")
    func runtimeFailures() {
        for error in Self.failure {
            #expect(ExitStatus(for: error) == .failure, "\(error)")
        }
    }

    @Test("the two lists hold each of the twenty cases of the three error types once")
    func coverage() {
        let all = Self.notLoggedIn + Self.failure
        #expect(all.count == 20)
        #expect(Set(all.map(Self.caseKey)).count == all.count)
    }

    /// The type and case of an error, payload left out; a decision case names its detail's case too.
    static func caseKey(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else { return "\(type(of: value))" }
        guard let child = mirror.children.first, let label = child.label else { return "\(type(of: value)).\(value)" }
        let detail = Mirror(reflecting: child.value).displayStyle == .enum ? "/" + caseKey(child.value) : ""
        return "\(type(of: value)).\(label)" + detail
    }
}
