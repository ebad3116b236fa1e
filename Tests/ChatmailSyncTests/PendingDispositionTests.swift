import GmailAPI
import Testing

@testable import ChatmailSync

/// What a failed send does to a queued action, for every Gmail failure.
@Suite struct PendingDispositionTests {
    @Test(
        "each failure retries, waits for the network, abandons or stops the run",
        arguments: [
            (
                GmailAPIError.retryLater(.rateLimited(retryAfter: .seconds(30))),
                PendingActionSender.Disposition.retryLater(retryAfterMs: 30_000)
            ),
            (.retryLater(.rateLimited(retryAfter: nil)), .retryLater(retryAfterMs: nil)),
            (.retryLater(.server(status: 503)), .retryLater(retryAfterMs: nil)),
            (.retryLater(.transport(description: "network error -1004")), .unreachable),
            (.giveUp(.dailyLimitExceeded), .retryLater(retryAfterMs: nil)),
            (.giveUp(.decoding(description: "Message: missing id")), .retryLater(retryAfterMs: nil)),
            (.logInAgain(.unauthorized), .stopRun),
            (.logInAgain(.credentialsRevoked), .stopRun),
            (.logInAgain(.scopeNotGranted(missing: "gmail.modify")), .stopRun),
            (.logInAgain(.oauthRejected(code: "invalid_client")), .stopRun),
            (.giveUp(.notFound(resource: "message")), .abandon),
            (.giveUp(.historyExpired), .abandon),
            (.giveUp(.permissionDenied(reason: "forbidden")), .abandon),
            (.giveUp(.unexpectedStatus(409)), .abandon),
            (.badRequest(reason: "Invalid label: X"), .abandon),
            // A failed batch is judged by its first failure.
            (
                .giveUp(.batchPartsFailed(failedIDs: ["a"], first: .retryLater(.transport(description: "reset")))),
                .unreachable
            ),
            (.giveUp(.batchPartsFailed(failedIDs: ["a"], first: .logInAgain(.credentialsRevoked))), .stopRun),
        ])
    func disposition(error: GmailAPIError, expected: PendingActionSender.Disposition) {
        #expect(PendingActionSender.disposition(of: error) == expected)
    }
}
