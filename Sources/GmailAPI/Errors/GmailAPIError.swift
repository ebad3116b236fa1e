import Foundation

/// What a Gmail API call can fail with, sorted by what the caller does next.
///
/// The four cases are the decisions, so a `switch` or `catch` reads as one: wait and try again, send the
/// user to `chatmail login`, drop this item or request, or fix the request. Each carries the detail the
/// message needs. A caller that knows more may refine a default: the pending-action queue, whose retries
/// span runs, tries a daily-limit or unreadable answer again on its own schedule, and the CLI sends a
/// denied permission to `chatmail login` (exit 3), since a token without the Gmail scope is its usual cause. Errors of the interactive login are ``LoginFlowError``; those of the credentials file
/// are ``CredentialStoreError``.
///
/// Messages say what failed and what to do next. They never contain an access or refresh token, a
/// request body, or an authorization code; a test formats every case and searches for a token.
public enum GmailAPIError: Error, Sendable, Equatable {
    /// Gmail or the network is busy or down. The client has already retried (except after an unknown
    /// outcome, which it never retries); a later run can succeed.
    case retryLater(RetryLater)
    /// The saved login no longer works: nothing succeeds until the user logs in again.
    case logInAgain(LogInAgain)
    /// This item or request cannot succeed as it stands: record it and move on. Retrying it now does not
    /// help; the detail says whether anything later might (a full sync, tomorrow's quota).
    case giveUp(GiveUp)
    /// 400: the request itself is wrong (`Invalid label: X`), so it is the caller's input or bug.
    case badRequest(reason: String)

    /// Failures that pass: retrying later (not now) can succeed.
    public enum RetryLater: Sendable, Equatable {
        /// 429 or a rate-limit 403, still failing after every retry.
        case rateLimited(retryAfter: Duration?)
        /// 5xx after every retry.
        case server(status: Int)
        /// No HTTP response at all (connection refused, reset, timeout), after every retry. For
        /// `messages.send` this means the request certainly never reached Gmail (no connection was made):
        /// nothing was sent.
        case transport(description: String)
        /// A `messages.send` whose request may have reached Gmail but whose answer never came or was a 5xx
        /// (a reset or timeout after the request was written, a 500): the message may or may not have
        /// been sent. It is never retried automatically, since a retry could send it twice; the caller
        /// must find out (the account's SENT history) before sending again.
        case outcomeUnknown(cause: String)
    }

    /// Failures of the saved login.
    public enum LogInAgain: Sendable, Equatable {
        /// 401 even after one token refresh and retry.
        case unauthorized
        /// The token endpoint answered `invalid_grant`: the saved login is dead.
        case credentialsRevoked
        /// Google granted a narrower scope than chatmail needs (granular consent).
        case scopeNotGranted(missing: String)
        /// The OAuth server refused the request with an error code other than `invalid_grant`
        /// (`invalid_client`, `invalid_request`, `invalid_scope`, `unauthorized_client`): a configuration
        /// problem, which no token this login holds can get past.
        case oauthRejected(code: String)
    }

    /// Failures that are final for this item or request.
    public enum GiveUp: Sendable, Equatable {
        /// 404 on a message, attachment or label: it is gone. Sync records it as deleted, not as a failure.
        case notFound(resource: String)
        /// 404 (or 400 for an invalid `startHistoryId`) from `history.list`: the caller must run a full sync.
        case historyExpired
        /// 403 that is not a rate limit (`insufficientPermissions`, `forbidden`, `domainPolicy`).
        case permissionDenied(reason: String)
        /// 403 `dailyLimitExceeded`: nothing helps until the next day.
        case dailyLimitExceeded
        /// A status Gmail does not document for these calls (3xx, 409, ...).
        case unexpectedStatus(Int)
        /// A message over Gmail's size limit for sending (35 MB), refused before any request, or a 413.
        case messageTooLarge(bytes: Int)
        /// A 2xx body that does not match the schema.
        case decoding(description: String)
        /// Some parts of a batch or of a chunked `batchModify` failed; `failedIDs` lists them, `first` says why.
        indirect case batchPartsFailed(failedIDs: [String], first: GmailAPIError)
    }
}

extension GmailAPIError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .retryLater(let detail): detail.message
        case .logInAgain(let detail): detail.message
        case .giveUp(let detail): detail.message
        case .badRequest(let reason): "Gmail rejected the request as invalid (\(reason))."
        }
    }
}

extension GmailAPIError: CustomStringConvertible {
    public var description: String { errorDescription ?? "GmailAPIError" }
}

extension GmailAPIError.RetryLater {
    var message: String {
        switch self {
        case .rateLimited(let retryAfter):
            if let retryAfter {
                "Gmail is rate limiting this account; try again in about \(retryAfter.components.seconds) s."
            } else {
                "Gmail is rate limiting this account; try again in a few minutes."
            }
        case .server(let status):
            "Gmail had a server error (HTTP \(status)) that persisted through retries; try again later."
        case .transport(let description):
            "Could not reach Gmail (\(description)). Check the network connection and try again."
        case .outcomeUnknown(let cause):
            "Gmail may or may not have sent the message (\(cause)); it was not sent again, so that it cannot go out twice."
        }
    }
}

extension GmailAPIError.LogInAgain {
    var message: String {
        switch self {
        case .unauthorized:
            "Gmail rejected the access token even after a refresh. Run `chatmail login` again."
        case .credentialsRevoked:
            "Gmail no longer accepts the saved login (expired or revoked). Run `chatmail login` again."
        case .scopeNotGranted(let missing):
            "The Google sign-in did not grant \(missing). Run `chatmail login` again and allow all requested access."
        case .oauthRejected(let code):
            "Google's sign-in server refused the request (\(code)). Check the OAuth client id and secret."
        }
    }
}

extension GmailAPIError.GiveUp {
    var message: String {
        switch self {
        case .notFound(let resource):
            "Gmail has no such \(resource); it was probably deleted."
        case .historyExpired:
            "Gmail no longer has the change history chatmail last saw; a full sync is needed."
        case .permissionDenied(let reason):
            "Gmail denied access (\(reason)). Check that the login granted the gmail.modify scope, then run `chatmail login` again."
        case .dailyLimitExceeded:
            "Gmail's daily API limit for this project is used up; try again tomorrow."
        case .unexpectedStatus(let status):
            "Gmail answered with an unexpected HTTP status \(status)."
        case .messageTooLarge(let bytes):
            "The message is \(bytes) bytes, more than the 35 MB Gmail accepts for sending."
        case .decoding(let description):
            "Gmail's answer could not be read (\(description))."
        case .batchPartsFailed(let failedIDs, let first):
            "\(failedIDs.count) of the requested Gmail operations failed; the first failure: \(first.errorDescription ?? "unknown")"
        }
    }
}
