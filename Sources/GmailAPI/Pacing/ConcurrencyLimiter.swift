/// An async semaphore: at most `limit` bodies run at once (at most 4–8 concurrent single requests per
/// account: more trip Gmail's per-user concurrency limit). Waiters are served first in, first out, and
/// never block a thread.
public actor ConcurrencyLimiter {
    public let limit: Int
    private var running = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    public init(limit: Int) {
        precondition(limit >= 1, "a concurrency limit must be at least 1, got \(limit)")
        self.limit = limit
    }

    /// Runs `body` once a slot is free.
    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if running < limit {
            running += 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            running -= 1
        } else {
            // The slot passes straight to the next waiter; `running` stays the same.
            waiters.removeFirst().resume()
        }
    }
}
