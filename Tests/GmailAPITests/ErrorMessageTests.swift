import Foundation
import GmailAPI
import Testing

/// The exact words users see; sorting the errors by decision must not change one of them.
@Suite struct ErrorMessageTests {
    static let expected: [(any Error & CustomStringConvertible, String)] = [
        (
            GmailAPIError.retryLater(.rateLimited(retryAfter: .seconds(7))),
            "Gmail is rate limiting this account; try again in about 7 s."
        ),
        (
            GmailAPIError.retryLater(.rateLimited(retryAfter: nil)),
            "Gmail is rate limiting this account; try again in a few minutes."
        ),
        (
            GmailAPIError.retryLater(.server(status: 503)),
            "Gmail had a server error (HTTP 503) that persisted through retries; try again later."
        ),
        (
            GmailAPIError.retryLater(.transport(description: "network error -1004")),
            "Could not reach Gmail (network error -1004). Check the network connection and try again."
        ),
        (
            GmailAPIError.retryLater(.outcomeUnknown(cause: "HTTP 500")),
            "Gmail may or may not have sent the message (HTTP 500); it was not sent again, so that it cannot go out twice."
        ),
        (
            GmailAPIError.giveUp(.messageTooLarge(bytes: 40_000_000)),
            "The message is 40000000 bytes, more than the 35 MB Gmail accepts for sending."
        ),
        (
            GmailAPIError.logInAgain(.unauthorized),
            "Gmail rejected the access token even after a refresh. Run `chatmail login` again."
        ),
        (
            GmailAPIError.logInAgain(.credentialsRevoked),
            "Gmail no longer accepts the saved login (expired or revoked). Run `chatmail login` again."
        ),
        (
            GmailAPIError.logInAgain(.scopeNotGranted(missing: "gmail.modify")),
            "The Google sign-in did not grant gmail.modify. Run `chatmail login` again and allow all requested access."
        ),
        (
            GmailAPIError.logInAgain(.oauthRejected(code: "invalid_client")),
            "Google's sign-in server refused the request (invalid_client). Check the OAuth client id and secret."
        ),
        (GmailAPIError.giveUp(.notFound(resource: "message")), "Gmail has no such message; it was probably deleted."),
        (
            GmailAPIError.giveUp(.historyExpired),
            "Gmail no longer has the change history chatmail last saw; a full sync is needed."
        ),
        (
            GmailAPIError.giveUp(.permissionDenied(reason: "forbidden")),
            "Gmail denied access (forbidden). Check that the login granted the gmail.modify scope, then run `chatmail login` again."
        ),
        (
            GmailAPIError.giveUp(.dailyLimitExceeded),
            "Gmail's daily API limit for this project is used up; try again tomorrow."
        ),
        (GmailAPIError.giveUp(.unexpectedStatus(409)), "Gmail answered with an unexpected HTTP status 409."),
        (
            GmailAPIError.giveUp(.decoding(description: "Message: missing id")),
            "Gmail's answer could not be read (Message: missing id)."
        ),
        (
            GmailAPIError.giveUp(.batchPartsFailed(failedIDs: ["a", "b"], first: .giveUp(.historyExpired))),
            "2 of the requested Gmail operations failed; the first failure: Gmail no longer has the change history chatmail last saw; a full sync is needed."
        ),
        (
            GmailAPIError.badRequest(reason: "Invalid label: X"),
            "Gmail rejected the request as invalid (Invalid label: X)."
        ),
        (
            LoginFlowError.authorizationDenied(reason: "access_denied"),
            "The Google sign-in was not approved (access_denied). Run `chatmail login` again and allow access."
        ),
        (
            LoginFlowError.stateMismatch,
            "The sign-in answer did not belong to this login attempt and was ignored. Run `chatmail login` again."
        ),
        (LoginFlowError.loginTimedOut, "The browser sign-in was not completed in time. Run `chatmail login` again."),
        (
            LoginFlowError.loopback(description: "poll failed: errno 4"),
            "Could not listen for the sign-in redirect on 127.0.0.1 (poll failed: errno 4)."
        ),
        (
            CredentialStoreError("cannot write /h/credentials.json.tmp"),
            "Could not access the saved credentials (cannot write /h/credentials.json.tmp)."
        ),
    ]

    @Test("every case keeps its message, as description and as localizedDescription")
    func messages() {
        for (error, message) in Self.expected {
            #expect(error.description == message)
            #expect(error.localizedDescription == message)
        }
    }

    @Test("the table has a row for every case")
    func coverage() {
        #expect(Set(Self.expected.map { SecretHygieneTests.caseNumber($0.0) }) == Set(0..<SecretHygieneTests.caseCount))
    }
}
