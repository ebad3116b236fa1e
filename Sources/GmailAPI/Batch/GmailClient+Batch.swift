import Foundation
import Logging

/// Batched `messages.get`: up to `batchSize` calls per HTTP request (contract §5).
extension GmailClient {
    /// Fetches many messages, returning one result per distinct id.
    ///
    /// Each inner response is classified like a standalone one. Successes are kept and never re-sent;
    /// transient part failures (429, 5xx, missing parts) are retried in a new, smaller batch after a
    /// full-jitter backoff, up to `maxAttempts` per id; inner 401s refresh the token once. Permanent
    /// failures come back per id — a 404 as `.notFound(resource: "message")`, i.e. gone — never as
    /// success. After a rate-limited batch the batch size halves (min 5), and grows back by 10 per clean
    /// batch (contract §7). Batches run one at a time: one batch in flight per account.
    /// - Throws: only when a whole batch request fails (its outer status, after retries) or on cancellation.
    public func getMessages(ids: [String], format: MessageFormat = .full, fields: String? = nil) async throws -> [String: Result<Message, GmailAPIError>] {
        var results: [String: Result<Message, GmailAPIError>] = [:]
        var seen: Set<String> = []
        var pending = ids.filter { seen.insert($0).inserted }
        var attempts: [String: Int] = [:]
        var retryRound = 0
        var refreshed = false
        var batchSize = configuration.batchSize
        let maxAttempts = configuration.retryPolicy.maxAttempts

        while !pending.isEmpty {
            var retry: [String] = []
            var retryAfter: Duration?
            var onlyAuthRetries = true
            var index = 0
            while index < pending.count {
                let chunk = Array(pending[index..<min(index + batchSize, pending.count)])
                index += chunk.count
                let (parts, token) = try await sendBatch(ids: chunk, format: format, fields: fields)
                var rateLimited = false
                var unauthorized = false
                for (position, id) in chunk.enumerated() {
                    // Match by Content-ID, fall back to position when the ids are missing (contract §5).
                    let byID = parts.first { $0.contentID == "item-\(position)" }
                    let positionIsUsable = parts.count == chunk.count && !(parts[position].contentID?.hasPrefix("item-") ?? false)
                    let part = byID ?? (positionIsUsable ? parts[position] : nil)
                    let outcome: ResponseClassifier.Outcome
                    if let part {
                        outcome = ResponseClassifier.classify(status: part.status, headers: part.headers, body: part.body, endpoint: .getMessage)
                    } else {
                        outcome = .transient(.decoding(description: "the batch response had no part for a requested message"), retryAfter: nil)
                    }
                    switch outcome {
                    case .success:
                        do {
                            results[id] = .success(try JSONDecoder().decode(Message.self, from: part?.body ?? Data()))
                        } catch let error as DecodingError {
                            results[id] = .failure(.decoding(description: Self.describe(error, type: Message.self)))
                        }
                    case .permanent(let error):
                        results[id] = .failure(error)
                    case .refreshToken:
                        if refreshed {
                            results[id] = .failure(.unauthorized)
                        } else {
                            unauthorized = true
                            retry.append(id)
                        }
                    case .transient(let error, let hint):
                        if case .rateLimited = error { rateLimited = true }
                        attempts[id, default: 1] += 1
                        if attempts[id, default: 1] > maxAttempts {
                            if case .rateLimited = error { results[id] = .failure(.rateLimited(retryAfter: hint)) } else { results[id] = .failure(error) }
                        } else {
                            retry.append(id)
                            onlyAuthRetries = false
                            if let hint { retryAfter = max(retryAfter ?? .zero, hint) }
                        }
                    }
                }
                if unauthorized {
                    refreshed = true
                    await tokens.invalidate(token)
                }
                if rateLimited {
                    await pacer.recordRateLimited()
                    batchSize = max(min(5, configuration.batchSize), batchSize / 2)
                } else {
                    batchSize = min(configuration.batchSize, batchSize + 10)
                }
            }
            pending = retry
            if !pending.isEmpty && !onlyAuthRetries {
                retryRound += 1
                let delay = configuration.retryPolicy.delay(beforeRetry: retryRound, retryAfter: retryAfter, random: random)
                logger.debug("retrying failed batch parts", metadata: ["count": "\(pending.count)", "round": "\(retryRound)"])
                try await sleeper.sleep(for: delay)
            }
        }
        return results
    }

    /// Sends one batch of `messages.get` calls and parses the parts; the outer request gets the normal
    /// retry pipeline (a whole-batch error is handled like any request).
    func sendBatch(ids: [String], format: MessageFormat, fields: String?) async throws -> ([BatchResponsePart], String) {
        let query = FormEncoding.encode(messageQuery(format: format, fields: fields))
        let request = BatchRequest(
            boundary: BatchRequest.makeBoundary(random: random),
            parts: ids.enumerated().map { BatchRequest.Part(contentID: "item-\($0.offset)", pathAndQuery: messagePath($0.element) + "?" + query) })
        let call = Call(
            endpoint: .batch(of: .getMessage, count: ids.count), method: "POST", path: configuration.batchPath, body: request.encode(),
            contentType: request.contentType)
        let (response, token) = try await executeReturningToken(call)
        return (try BatchResponseParser.parse(body: response.body, contentType: response.headers["Content-Type"]), token)
    }
}
