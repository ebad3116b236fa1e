/// Time as the client sees it: a monotonic "now" and a way to wait.
///
/// Injected everywhere the client waits (backoff, quota pacing, token expiry), so tests run on virtual
/// time and never really sleep.
public protocol Sleeper: Sendable {
    /// Monotonic time elapsed since an arbitrary origin fixed for this sleeper.
    func now() -> Duration
    /// Waits for `duration`.
    /// - Throws: `CancellationError` when the task is cancelled while waiting.
    func sleep(for duration: Duration) async throws
}

/// The real sleeper, backed by `ContinuousClock`.
public struct ContinuousSleeper: Sleeper {
    private let clock = ContinuousClock()
    private let origin: ContinuousClock.Instant

    public init() {
        self.origin = clock.now
    }

    public func now() -> Duration {
        origin.duration(to: clock.now)
    }

    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return }
        try await clock.sleep(for: duration)
    }
}
