/// How long to wait before retrying a transient failure (1 s base, ×2, cap 64 s, at most 8
/// attempts, after Google's recommended exponential backoff).
///
/// Exponential backoff with *full* jitter: the n-th retry waits a uniform random time in
/// `0...min(cap, base · 2^(n-1))`, which spreads competing clients better than "exponential plus up to
/// one second". A server hint (Retry-After) raises the wait, but never beyond `retryAfterCap`, because
/// Gmail's "Retry after" times have been seen minutes off.
public struct RetryPolicy: Sendable, Equatable {
    /// Total tries per request, the first included.
    public var maxAttempts: Int
    public var base: Duration
    public var cap: Duration
    public var retryAfterCap: Duration

    public init(
        maxAttempts: Int = 8, base: Duration = .seconds(1), cap: Duration = .seconds(64),
        retryAfterCap: Duration = .seconds(64)
    ) {
        precondition(maxAttempts >= 1, "maxAttempts must be at least 1, got \(maxAttempts)")
        self.maxAttempts = maxAttempts
        self.base = base
        self.cap = cap
        self.retryAfterCap = retryAfterCap
    }

    /// The wait before retry number `retry` (1 for the first retry).
    public func delay(beforeRetry retry: Int, retryAfter: Duration?, random: any RandomSource) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let ceiling = min(cap, base * (1 << exponent))
        let jittered = ceiling * random.unitInterval()
        guard let retryAfter else { return jittered }
        return max(jittered, min(retryAfter, retryAfterCap))
    }
}
