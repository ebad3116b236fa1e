import Foundation
import Logging

/// Batched `messages.get`: up to `batchSize` calls per HTTP request.
extension GmailClient {
    /// Fetches many messages, returning one result per distinct id.
    ///
    /// Each inner response is classified like a standalone one. Successes are kept and never re-sent;
    /// transient part failures (429, 5xx, missing parts) are retried in a new, smaller batch after a
    /// full-jitter backoff, up to `maxAttempts` per id; inner 401s refresh the token (once per rejected
    /// token) and are re-sent at once. Permanent failures come back per id — a 404 as
    /// `.giveUp(.notFound(resource: "message"))`, i.e. gone — never as success. After a rate-limited batch the
    /// batch size halves (min 5), since the share of 429 parts grows with batch size, and grows back by 10
    /// per clean batch; a batch counts as rate-limited when a fifth or more of its parts hit the quota rate
    /// (not the concurrency limit).
    ///
    /// Up to `batchesInFlight` batches run at once, so one slow or failing batch — or the backoff
    /// before a retry — does not hold up the others; the quota pacer still meters every batch, and the
    /// limit is shared by every copy of this client, so concurrent calls together stay within it.
    /// - Throws: only when a whole batch request fails (its outer status, after retries) or on cancellation.
    public func getMessages(ids: [String], format: MessageFormat = .full, fields: String? = nil) async throws
        -> [String: Result<Message, GmailAPIError>]
    {
        var seen: Set<String> = []
        var state = BatchFetchState(
            pending: ids.filter { seen.insert($0).inserted }, batchSize: configuration.batchSize)
        let parallel = configuration.batchesInFlight
        return try await withThrowingTaskGroup(of: BatchEvent.self) { group in
            var inFlight = 0
            while true {
                while inFlight < parallel, let chunk = state.nextChunk() {
                    inFlight += 1
                    group.addTask {
                        let (parts, token) = try await self.sendBatch(ids: chunk, format: format, fields: fields)
                        return .answered(chunk: chunk, parts: parts, token: token)
                    }
                }
                guard let event = try await group.next() else { break }
                switch event {
                case .due(let ids):
                    state.pending += ids
                case .answered(let chunk, let parts, let token):
                    inFlight -= 1
                    let verdict = state.absorb(
                        chunk: chunk, parts: parts, token: token, maxAttempts: configuration.retryPolicy.maxAttempts)
                    if let rejected = verdict.invalidate { await tokens.invalidate(rejected) }
                    if verdict.rateLimited {
                        await pacer.recordRateLimited()
                        state.batchSize = max(min(5, configuration.batchSize), state.batchSize / 2)
                    } else {
                        state.batchSize = min(configuration.batchSize, state.batchSize + 10)
                    }
                    if !verdict.later.isEmpty {
                        // The backoff waits in its own task: other batches keep going meanwhile.
                        let delay = configuration.retryPolicy.delay(
                            beforeRetry: verdict.round, retryAfter: verdict.retryAfter, random: random)
                        logger.debug(
                            "retrying failed batch parts",
                            metadata: ["count": "\(verdict.later.count)", "round": "\(verdict.round)"])
                        let sleeper = self.sleeper
                        let later = verdict.later
                        group.addTask {
                            try await sleeper.sleep(for: delay)
                            return .due(later)
                        }
                    }
                }
            }
            return state.results
        }
    }

    /// Sends one batch of `messages.get` calls and parses the parts; the outer request gets the normal
    /// retry pipeline (a whole-batch error is handled like any request).
    func sendBatch(ids: [String], format: MessageFormat, fields: String?) async throws -> ([BatchResponsePart], String)
    {
        let query = FormEncoding.encode(messageQuery(format: format, fields: fields))
        let request = BatchRequest(
            boundary: BatchRequest.makeBoundary(random: random),
            parts: ids.enumerated().map {
                BatchRequest.Part(contentID: "item-\($0.offset)", pathAndQuery: messagePath($0.element) + "?" + query)
            })
        let call = Call(
            endpoint: .batch(of: .getMessage, count: ids.count), method: "POST", path: configuration.batchPath,
            body: request.encode(),
            contentType: request.contentType)
        let (response, token) = try await batchLimiter.run { try await self.executeReturningToken(call) }
        return (
            try BatchResponseParser.parse(body: response.body, contentType: response.headers["Content-Type"]), token
        )
    }
}

/// What finished in a `getMessages` task group.
enum BatchEvent: Sendable {
    /// A batch came back.
    case answered(chunk: [String], parts: [BatchResponsePart], token: String)
    /// A backoff ended: these ids may be sent again.
    case due([String])
}

/// The bookkeeping of one `getMessages` call: what is still to send, what came back, how often each id was tried.
struct BatchFetchState {
    var pending: [String]
    var batchSize: Int
    var results: [String: Result<Message, GmailAPIError>] = [:]
    private var attempts: [String: Int] = [:]
    private var authRetries: [String: Int] = [:]
    private var invalidated: Set<String> = []

    init(pending: [String], batchSize: Int) {
        self.pending = pending
        self.batchSize = batchSize
    }

    /// What to do after one batch: ids to retry after a backoff, and why.
    struct Verdict {
        var later: [String] = []
        /// The retry number for the backoff (1 for an id's first retry).
        var round = 1
        var retryAfter: Duration?
        var rateLimited = false
        /// A token the server rejected, to invalidate before the re-send.
        var invalidate: String?
    }

    /// The next batch to send, or nil when nothing is waiting.
    mutating func nextChunk() -> [String]? {
        guard !pending.isEmpty else { return nil }
        let chunk = Array(pending.prefix(batchSize))
        pending.removeFirst(chunk.count)
        return chunk
    }

    /// Sorts one batch's parts into results, immediate re-sends (appended to `pending`) and backoff retries.
    mutating func absorb(chunk: [String], parts: [BatchResponsePart], token: String, maxAttempts: Int) -> Verdict {
        var verdict = Verdict()
        var rateLimitedParts = 0
        for (position, id) in chunk.enumerated() {
            // Match by Content-ID, falling back to position: parts come back in request order.
            let byID = parts.first { $0.contentID == "item-\(position)" }
            let positionIsUsable =
                parts.count == chunk.count && !(parts[position].contentID?.hasPrefix("item-") ?? false)
            let part = byID ?? (positionIsUsable ? parts[position] : nil)
            let outcome: ResponseClassifier.Outcome
            if let part {
                outcome = ResponseClassifier.classify(
                    status: part.status, headers: part.headers, body: part.body, endpoint: .getMessage)
            } else {
                outcome = .transient(
                    .giveUp(.decoding(description: "the batch response had no part for a requested message")),
                    retryAfter: nil)
            }
            switch outcome {
            case .success:
                do {
                    results[id] = .success(try JSONDecoder().decode(Message.self, from: part?.body ?? Data()))
                } catch let error as DecodingError {
                    results[id] = .failure(
                        .giveUp(.decoding(description: GmailClient.describe(error, type: Message.self))))
                } catch {
                    results[id] = .failure(.giveUp(.decoding(description: "Message: \(error.localizedDescription)")))
                }
            case .permanent(let error):
                results[id] = .failure(error)
            case .refreshToken:
                // Several batches may fly with the same expired token: each rejected token is refreshed
                // once, and an id rejected twice in a row, with fresh tokens, fails.
                authRetries[id, default: 0] += 1
                if authRetries[id, default: 0] > 2 {
                    results[id] = .failure(.logInAgain(.unauthorized))
                } else {
                    if invalidated.insert(token).inserted { verdict.invalidate = token }
                    pending.append(id)
                }
            case .transient(let error, let hint):
                if case .retryLater(.rateLimited) = error,
                    !ResponseClassifier.isConcurrencyLimit(body: part?.body ?? Data())
                {
                    rateLimitedParts += 1
                }
                let tried = attempts[id, default: 1] + 1
                attempts[id] = tried
                if tried > maxAttempts {
                    if case .retryLater(.rateLimited) = error {
                        results[id] = .failure(.retryLater(.rateLimited(retryAfter: hint)))
                    } else {
                        results[id] = .failure(error)
                    }
                } else {
                    verdict.later.append(id)
                    verdict.round = max(verdict.round, tried - 1)
                    if let hint { verdict.retryAfter = max(verdict.retryAfter ?? .zero, hint) }
                }
            }
        }
        // A lone 429 among many answered parts says little about the account's rate: it is retried after
        // its Retry-After like any transient part. Only a fifth of the batch or more turned away is a
        // sign to slow down (pacer and batch size).
        verdict.rateLimited = rateLimitedParts > 0 && rateLimitedParts * 5 >= chunk.count
        return verdict
    }
}
