import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The typed Gmail REST client for one account.
///
/// Every call goes through one pipeline: quota pacing (shared bucket), bounded concurrency, the bearer
/// token, the transport, then classification *before* decoding, so a 404 reads as "gone", not as bad JSON.
/// Transient failures retry with full-jitter backoff; a 401 refreshes the token once; permanent failures
/// surface as `GmailAPIError`.
/// A value whose shared state lives in actors (pacer, limiter, token provider), so copies share one
/// budget; only a copy's configuration can differ (``retrying(maxAttempts:)``).
public struct GmailClient: Sendable {
    /// Tuning that does not depend on collaborators.
    public struct Configuration: Sendable, Equatable {
        /// `https://gmail.googleapis.com`, or the emulator's `http://127.0.0.1:<port>`.
        public var baseURL: URL
        /// `me`: the token's owner.
        public var userID: String
        /// Inner calls per batch request: Google recommends ≤ 50 and rejects > 100.
        public var batchSize: Int
        public var retryPolicy: RetryPolicy
        /// Concurrent HTTP requests on this client.
        public var concurrencyLimit: Int
        /// Batch requests in flight at once for this account: enough that one slow batch, or a backoff,
        /// does not idle the sync, few enough that Gmail's per-user concurrency limit is not provoked.
        public var batchesInFlight: Int
        /// Per-call timeouts, sized from what each call moves (see `RequestTimeouts`).
        public var timeouts: RequestTimeouts
        /// `/batch/gmail/v1`; the emulator also serves `/batch`.
        public var batchPath: String

        public init(
            baseURL: URL = URL(string: GmailAPIModule.defaultBaseURL)!, userID: String = "me", batchSize: Int = 50,
            maxAttempts: Int = 8, concurrencyLimit: Int = 8, batchesInFlight: Int = 3,
            timeouts: RequestTimeouts = RequestTimeouts(),
            batchPath: String = "/batch/gmail/v1"
        ) {
            precondition(batchesInFlight >= 1, "batchesInFlight must be at least 1")
            precondition((1...100).contains(batchSize), "a Gmail batch holds 1–100 calls, got \(batchSize)")
            precondition(concurrencyLimit >= 1, "concurrencyLimit must be at least 1")
            self.baseURL = baseURL
            self.userID = userID
            self.batchSize = batchSize
            self.retryPolicy = RetryPolicy(maxAttempts: maxAttempts)
            self.concurrencyLimit = concurrencyLimit
            self.batchesInFlight = batchesInFlight
            self.timeouts = timeouts
            self.batchPath = batchPath
        }
    }

    public private(set) var configuration: Configuration
    let transport: any HTTPTransport
    let tokens: any AccessTokenSource
    /// The account's quota bucket; share one pacer between every client of the same account.
    public let pacer: QuotaPacer
    let limiter: ConcurrencyLimiter
    /// Bounds batch requests across every concurrent `getMessages` on this client and its copies.
    let batchLimiter: ConcurrencyLimiter
    let sleeper: any Sleeper
    let random: any RandomSource
    let logger: Logger

    public init(
        configuration: Configuration = Configuration(), transport: any HTTPTransport, tokens: any AccessTokenSource,
        pacer: QuotaPacer,
        sleeper: any Sleeper = ContinuousSleeper(), random: any RandomSource = SystemRandomSource(),
        logger: Logger = Logger(label: "chatmail.gmail", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.configuration = configuration
        self.transport = transport
        self.tokens = tokens
        self.pacer = pacer
        self.limiter = ConcurrencyLimiter(limit: configuration.concurrencyLimit)
        self.batchLimiter = ConcurrencyLimiter(limit: configuration.batchesInFlight)
        self.sleeper = sleeper
        self.random = random
        self.logger = logger
    }

    /// A copy that tries each request at most `maxAttempts` times, sharing this client's quota bucket,
    /// concurrency limit and token. The pending-action queue uses one attempt: it persists its own
    /// backoff between runs instead of sleeping inline.
    public func retrying(maxAttempts: Int) -> GmailClient {
        var copy = self
        copy.configuration.retryPolicy.maxAttempts = max(1, maxAttempts)
        return copy
    }

    /// One REST call before it is sent.
    struct Call: Sendable {
        var endpoint: GmailEndpoint
        var method: String = "GET"
        /// Path below the base URL, e.g. `/gmail/v1/users/me/profile`.
        var path: String
        var query: [(String, String)] = []
        var body: Data? = nil
        var contentType: String? = nil
    }

    /// `/gmail/v1/users/{userId}` + `suffix`, with `userId` escaped.
    func userPath(_ suffix: String) -> String {
        "/gmail/v1/users/\(FormEncoding.escape(configuration.userID))\(suffix)"
    }

    func url(path: String, query: [(String, String)]) -> URL {
        var base = configuration.baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let text = base + path + "?" + FormEncoding.encode(query + [("prettyPrint", "false")])
        guard let url = URL(string: text) else {
            preconditionFailure("a URL made of a valid base URL and escaped components must parse")
        }
        return url
    }

    /// Sends `call` with pacing, retries and one token refresh; returns a 2xx response.
    func execute(_ call: Call) async throws -> HTTPResponse {
        try await executeReturningToken(call).response
    }

    /// Like `execute(_:)`, also returning the token used, so a batch can invalidate it after inner 401s.
    func executeReturningToken(_ call: Call) async throws -> (response: HTTPResponse, token: String) {
        var attempt = 1
        var refreshed = false
        while true {
            try Task.checkCancellation()
            try await pacer.acquire(cost: call.endpoint.cost)
            let token: String
            do {
                token = try await tokens.accessToken()
            } catch GmailAPIError.retryLater where attempt < configuration.retryPolicy.maxAttempts {
                // The token endpoint was unreachable or busy: back off like any transient failure.
                let delay = configuration.retryPolicy.delay(beforeRetry: attempt, retryAfter: nil, random: random)
                attempt += 1
                try await sleeper.sleep(for: delay)
                continue
            }
            var headers: HTTPHeaders = ["Authorization": "Bearer \(token)", "Accept": "application/json"]
            if let contentType = call.contentType { headers.add("Content-Type", contentType) }
            let request = HTTPRequest(
                method: call.method, url: url(path: call.path, query: call.query), headers: headers, body: call.body,
                timeoutSeconds: configuration.timeouts.seconds(for: call.endpoint))
            let outcome: ResponseClassifier.Outcome
            var received: HTTPResponse?
            do {
                let transport = self.transport
                let response = try await limiter.run { try await transport.send(request) }
                received = response
                outcome = ResponseClassifier.classify(
                    status: response.status, headers: response.headers, body: response.body, endpoint: call.endpoint)
            } catch {
                if Task.isCancelled || error is CancellationError { throw CancellationError() }
                if call.endpoint == .sendMessage && !Self.certainlyNotSent(error) {
                    throw GmailAPIError.retryLater(.outcomeUnknown(cause: OAuthTokenClient.describe(error)))
                }
                outcome = .transient(
                    .retryLater(.transport(description: OAuthTokenClient.describe(error))), retryAfter: nil)
            }
            switch outcome {
            case .success:
                guard let received else { preconditionFailure("success needs a response") }
                return (received, token)
            case .refreshToken:
                guard !refreshed else { throw GmailAPIError.logInAgain(.unauthorized) }
                refreshed = true
                logger.info("access token rejected; refreshing once", metadata: ["endpoint": "\(call.endpoint)"])
                await tokens.invalidate(token)
            case .permanent(let error):
                throw error
            case .transient(let error, let retryAfter):
                // A 5xx to a send may come after Gmail sent the message; a rate limit comes before.
                if call.endpoint == .sendMessage, case .retryLater(.server(let status)) = error {
                    throw GmailAPIError.retryLater(.outcomeUnknown(cause: "HTTP \(status)"))
                }
                if case .retryLater(.rateLimited) = error,
                    !ResponseClassifier.isConcurrencyLimit(body: received?.body ?? Data())
                {
                    await pacer.recordRateLimited()
                }
                guard attempt < configuration.retryPolicy.maxAttempts else {
                    if case .retryLater(.rateLimited) = error {
                        throw GmailAPIError.retryLater(.rateLimited(retryAfter: retryAfter))
                    }
                    throw error
                }
                let delay = configuration.retryPolicy.delay(
                    beforeRetry: attempt, retryAfter: retryAfter, random: random)
                logger.debug(
                    "transient failure; backing off",
                    metadata: ["endpoint": "\(call.endpoint)", "attempt": "\(attempt)", "error": "\(error)"])
                attempt += 1
                try await sleeper.sleep(for: delay)
            }
        }
    }

    /// Whether a transport error proves the request never left: no connection was made at all. Any
    /// other failure (reset, timeout, truncated answer) may have come after Gmail read the request.
    static func certainlyNotSent(_ error: any Error) -> Bool {
        guard let error = error as? URLError else { return false }
        return [.cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet].contains(error.code)
    }

    /// Decodes a 2xx body, turning schema mismatches into `.giveUp(.decoding)`.
    func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch let error as DecodingError {
            throw GmailAPIError.giveUp(.decoding(description: Self.describe(error, type: T.self)))
        } catch {
            throw GmailAPIError.giveUp(.decoding(description: "\(T.self): \(error.localizedDescription)"))
        }
    }

    /// A decoding failure as type, path and problem — never the body (it may hold mail content).
    static func describe<T>(_ error: DecodingError, type: T.Type) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(T.self)\(path(context.codingPath)): missing \(key.stringValue)"
        case .typeMismatch(_, let context): return "\(T.self)\(path(context.codingPath)): \(context.debugDescription)"
        case .valueNotFound(_, let context): return "\(T.self)\(path(context.codingPath)): null value"
        case .dataCorrupted(let context): return "\(T.self)\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(T.self): undecodable"
        }
    }
}
