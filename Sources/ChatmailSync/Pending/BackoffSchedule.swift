import GmailAPI

/// When a failed action may be sent again: exponential backoff with jitter, persisted as
/// `next_attempt_at_ms`, so no run ever sleeps waiting for it.
///
/// The n-th failure waits about `base · 2^(n-1)` (2 s, 4 s, 8 s, …), scaled by a random factor in
/// `1 - jitter ... 1 + jitter` so that actions failing together do not come back together, and never
/// more than `cap`. A server's Retry-After hint can lengthen the wait, up to the cap.
public struct BackoffSchedule: Sendable, Equatable {
    public var baseMs: Int64
    public var capMs: Int64
    /// Relative spread of the jitter, 0...1.
    public var jitter: Double
    /// Transient failures an action survives: at the last one it is abandoned.
    public var maxAttempts: Int

    public init(baseMs: Int64 = 2_000, capMs: Int64 = 600_000, jitter: Double = 0.25, maxAttempts: Int = 5) {
        precondition(baseMs > 0 && capMs >= baseMs, "backoff needs 0 < base <= cap")
        precondition((0...1).contains(jitter), "jitter is a fraction, got \(jitter)")
        precondition(maxAttempts >= 1, "maxAttempts must be at least 1")
        self.baseMs = baseMs
        self.capMs = capMs
        self.jitter = jitter
        self.maxAttempts = maxAttempts
    }

    /// The wait after failed attempt number `attempt` (1 for the first), in ms.
    /// - parameter unit: a uniform random value in 0...1 (0.5 gives the nominal delay).
    public func delayMs(afterAttempt attempt: Int, unit: Double, retryAfterMs: Int64? = nil) -> Int64 {
        let exponent = min(max(attempt - 1, 0), 30)
        let nominal = min(Double(capMs), Double(baseMs) * Double(Int64(1) << exponent))
        let factor = 1 - jitter + 2 * jitter * min(max(unit, 0), 1)
        let jittered = min(Int64(capMs), Int64((nominal * factor).rounded()))
        guard let retryAfterMs else { return jittered }
        return min(capMs, max(jittered, retryAfterMs))
    }

    /// The wait after Gmail could not be reached, in ms. Such failures are not counted as attempts, so
    /// the wait grows with how long the action has waited instead: about half of `waitedMs`, jittered,
    /// from `base` up to `cap`. Offline, an action is then tried less and less often; and an action whose
    /// request keeps failing that way (a connection dropped every time) is not due at every run, so it
    /// cannot hold up, run after run, the actions queued behind it.
    public func unreachableDelayMs(waitedMs: Int64, unit: Double) -> Int64 {
        let nominal = Double(min(capMs, max(baseMs, max(waitedMs, 0) / 2)))
        let factor = 1 - jitter + 2 * jitter * min(max(unit, 0), 1)
        return min(capMs, max(baseMs, Int64((nominal * factor).rounded())))
    }

    /// The time of the next attempt after a failure at `nowMs`.
    public func nextAttemptMs(
        afterAttempt attempt: Int, nowMs: Int64, random: any RandomSource, retryAfterMs: Int64? = nil
    ) -> Int64 {
        nowMs + delayMs(afterAttempt: attempt, unit: random.unitInterval(), retryAfterMs: retryAfterMs)
    }
}
