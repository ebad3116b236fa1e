import Foundation

/// Turns an HTTP status and Google's error body into the one thing the client should do next.
///
/// Pure, so every status and reason is one parameterised test. Runs *before* any decoding: a 404 body
/// is never mistaken for a malformed message, so a deleted message is not a retried failure.
public enum ResponseClassifier {
    /// What to do with a response.
    public enum Outcome: Sendable, Equatable {
        /// 2xx: decode the body.
        case success
        /// 401: refresh the access token once and retry.
        case refreshToken
        /// Retry with backoff; `error` is what to report when retries run out. `retryAfter` is the
        /// server's hint (Retry-After header or "Retry after <time>" text), if any.
        case transient(GmailAPIError, retryAfter: Duration?)
        /// Never retry.
        case permanent(GmailAPIError)
    }

    /// Reasons that mean "slow down" on a 403 or 429 (Google's Python client retries exactly these).
    static let rateLimitReasons: Set<String> = ["rateLimitExceeded", "userRateLimitExceeded"]

    /// Classifies one response.
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - headers: the response headers (for `Retry-After`).
    ///   - body: the raw body; parsed as Google's error JSON when not 2xx, leniently.
    ///   - endpoint: the method called, which decides what a 404 means.
    ///   - now: wall-clock time, to turn an absolute "Retry after" time into a delay.
    public static func classify(
        status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data, endpoint: GmailEndpoint, now: Date = Date()
    ) -> Outcome {
        if (200..<300).contains(status) { return .success }
        let error = try? JSONDecoder().decode(GoogleErrorBody.self, from: body)
        let reason = error?.reason
        let message = error?.message
        switch status {
        case 400:
            // history.list answers an invalid (too old or malformed) startHistoryId with 400 at
            // times; either way the stored id is useless and the cure is a full sync.
            if case .listHistory = endpoint, let message, message.lowercased().contains("historyid") {
                return .permanent(.giveUp(.historyExpired))
            }
            return .permanent(.badRequest(reason: message ?? reason ?? "HTTP 400"))
        case 401:
            return .refreshToken
        case 403:
            if let reason, rateLimitReasons.contains(reason) {
                return .transient(
                    .retryLater(.rateLimited(retryAfter: nil)),
                    retryAfter: retryAfter(headers: headers, message: message, now: now))
            }
            if reason == "dailyLimitExceeded" { return .permanent(.giveUp(.dailyLimitExceeded)) }
            return .permanent(.giveUp(.permissionDenied(reason: reason ?? error?.status ?? "HTTP 403")))
        case 404:
            if case .listHistory = endpoint { return .permanent(.giveUp(.historyExpired)) }
            return .permanent(.giveUp(.notFound(resource: endpoint.resourceName)))
        case 429:
            return .transient(
                .retryLater(.rateLimited(retryAfter: nil)),
                retryAfter: retryAfter(headers: headers, message: message, now: now))
        case 500...599:
            return .transient(
                .retryLater(.server(status: status)),
                retryAfter: retryAfter(headers: headers, message: message, now: now))
        default:
            return .permanent(.giveUp(.unexpectedStatus(status)))
        }
    }

    /// Whether a rate-limit answer is Gmail's "Too many concurrent requests for user": a limit on requests
    /// in flight, not on the quota rate, so it is retried after its Retry-After without cutting the
    /// pacer's rate (the in-flight limits already bound concurrency).
    public static func isConcurrencyLimit(body: Data) -> Bool {
        guard let message = (try? JSONDecoder().decode(GoogleErrorBody.self, from: body))?.message else { return false }
        return message.lowercased().contains("concurrent")
    }

    /// The later of the `Retry-After` header (delta-seconds or HTTP-date, RFC 9110 §10.2.3) and a
    /// "Retry after <RFC 3339 time>" in Google's message, or nil when neither is usable.
    public static func retryAfter(headers: HTTPHeaders, message: String?, now: Date) -> Duration? {
        var candidates: [Duration] = []
        if let header = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Int(header), seconds >= 0 {
                candidates.append(.seconds(seconds))
            } else if let date = parseHTTPDate(header) {
                candidates.append(.seconds(max(0, date.timeIntervalSince(now))))
            }
        }
        if let message, let date = parseRetryAfterText(message) {
            candidates.append(.seconds(max(0, date.timeIntervalSince(now))))
        }
        return candidates.max()
    }

    /// Finds "Retry after 2024-11-12T11:16:42.247Z" in a message.
    static func parseRetryAfterText(_ message: String) -> Date? {
        guard let range = message.range(of: "retry after ", options: .caseInsensitive) else { return nil }
        let rest = message[range.upperBound...]
        let token = rest.prefix { !$0.isWhitespace && $0 != "," && $0 != ";" && $0 != ")" }
        return parseRFC3339(String(token))
    }

    static func parseRFC3339(_ text: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        return plain.date(from: text)
    }

    /// IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func parseHTTPDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
