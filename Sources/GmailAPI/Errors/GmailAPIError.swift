import Foundation

/// Everything the Gmail client can fail with, one case per decision a caller makes.
///
/// Messages say what failed and what to do next. They never contain an access or refresh token, a
/// request body, or an authorization code; a test formats every case and searches for a token.
public enum GmailAPIError: Error, Sendable, Equatable {
    /// 404 on a message, attachment or label: it is gone. Sync records it as deleted, not as a failure.
    case notFound(resource: String)
    /// 404 (or 400 for an invalid `startHistoryId`) from `history.list`: the caller must run a full sync.
    case historyExpired
    /// 401 even after one token refresh and retry.
    case unauthorized
    /// The token endpoint answered `invalid_grant`: the saved login is dead; the user must log in again.
    case credentialsRevoked
    /// 403 that is not a rate limit (`insufficientPermissions`, `forbidden`, `domainPolicy`): permanent.
    case permissionDenied(reason: String)
    /// 400: the request is wrong and retrying cannot help (`Invalid label: X`).
    case badRequest(reason: String)
    /// 429 or a rate-limit 403, still failing after every retry.
    case rateLimited(retryAfter: Duration?)
    /// 403 `dailyLimitExceeded`: nothing helps until the next day.
    case dailyLimitExceeded
    /// 5xx after every retry.
    case server(status: Int)
    /// A status Gmail does not document for these calls (3xx, 409, ...).
    case unexpectedStatus(Int)
    /// No HTTP response at all (connection refused, reset, timeout), after every retry.
    case transport(description: String)
    /// A 2xx body that does not match the schema.
    case decoding(description: String)
    /// Some parts of a batch or of a chunked `batchModify` failed; `failedIDs` lists them, `first` says why.
    indirect case batchPartsFailed(failedIDs: [String], first: GmailAPIError)
    /// The OAuth server refused the request with an error code other than `invalid_grant`
    /// (`invalid_client`, `invalid_request`, `invalid_scope`, `unauthorized_client`): a configuration problem.
    case oauthRejected(code: String)
    /// The user declined access in the browser (`error=access_denied`).
    case authorizationDenied(reason: String)
    /// The browser came back with a `state` that this login did not send: possibly a forged redirect.
    case stateMismatch
    /// Nobody completed the browser login in time.
    case loginTimedOut
    /// Google granted a narrower scope than chatmail needs (granular consent).
    case scopeNotGranted(missing: String)
    /// Reading or writing the credentials file failed.
    case credentialStore(description: String)
    /// The loopback listener for the OAuth redirect could not be set up.
    case loopback(description: String)

    /// Whether retrying later (not now) could succeed: rate limits, server and network failures.
    public var isTransient: Bool {
        switch self {
        case .rateLimited, .server, .transport: true
        case .notFound, .historyExpired, .unauthorized, .credentialsRevoked, .permissionDenied, .badRequest,
            .dailyLimitExceeded, .unexpectedStatus, .decoding, .batchPartsFailed, .oauthRejected,
            .authorizationDenied, .stateMismatch, .loginTimedOut, .scopeNotGranted, .credentialStore, .loopback:
            false
        }
    }
}

extension GmailAPIError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .notFound(let resource):
            "Gmail has no such \(resource); it was probably deleted."
        case .historyExpired:
            "Gmail no longer has the change history chatmail last saw; a full sync is needed."
        case .unauthorized:
            "Gmail rejected the access token even after a refresh. Run `chatmail login` again."
        case .credentialsRevoked:
            "Gmail no longer accepts the saved login (expired or revoked). Run `chatmail login` again."
        case .permissionDenied(let reason):
            "Gmail denied access (\(reason)). Check that the login granted the gmail.modify scope, then run `chatmail login` again."
        case .badRequest(let reason):
            "Gmail rejected the request as invalid (\(reason))."
        case .rateLimited(let retryAfter):
            if let retryAfter {
                "Gmail is rate limiting this account; try again in about \(retryAfter.components.seconds) s."
            } else {
                "Gmail is rate limiting this account; try again in a few minutes."
            }
        case .dailyLimitExceeded:
            "Gmail's daily API limit for this project is used up; try again tomorrow."
        case .server(let status):
            "Gmail had a server error (HTTP \(status)) that persisted through retries; try again later."
        case .unexpectedStatus(let status):
            "Gmail answered with an unexpected HTTP status \(status)."
        case .transport(let description):
            "Could not reach Gmail (\(description)). Check the network connection and try again."
        case .decoding(let description):
            "Gmail's answer could not be read (\(description))."
        case .batchPartsFailed(let failedIDs, let first):
            "\(failedIDs.count) of the requested Gmail operations failed; the first failure: \(first.errorDescription ?? "unknown")"
        case .oauthRejected(let code):
            "Google's sign-in server refused the request (\(code)). Check the OAuth client id and secret."
        case .authorizationDenied(let reason):
            "The Google sign-in was not approved (\(reason)). Run `chatmail login` again and allow access."
        case .stateMismatch:
            "The sign-in answer did not belong to this login attempt and was ignored. Run `chatmail login` again."
        case .loginTimedOut:
            "The browser sign-in was not completed in time. Run `chatmail login` again."
        case .scopeNotGranted(let missing):
            "The Google sign-in did not grant \(missing). Run `chatmail login` again and allow all requested access."
        case .credentialStore(let description):
            "Could not access the saved credentials (\(description))."
        case .loopback(let description):
            "Could not listen for the sign-in redirect on 127.0.0.1 (\(description))."
        }
    }
}

extension GmailAPIError: CustomStringConvertible {
    public var description: String { errorDescription ?? "GmailAPIError" }
}
