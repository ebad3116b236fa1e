import GmailAPI
import GmailEmulator
import Synchronization

/// A virtual clock that moves only when the test says so, shared by a client's pacer and backoff and by
/// the emulator's quota bucket.
///
/// Sleeping parks the caller until the clock reaches its deadline. ``run(_:)`` steps the clock to the
/// next deadline only once every participant is parked or finished, so no request is ever in flight
/// while time moves: the emulator charges each call at exactly the virtual instant the pacer released
/// it. A loaded machine can make the run slower in real time, never different.
final class SteppedClock: Sleeper {
    private struct Parked {
        var deadline: Duration
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Duration = .zero
        var parked: [Parked] = []
        var sleeps: [Duration] = []
    }

    private let state = Mutex(State())

    /// Every sleep requested so far, zero-length ones included, in the order asked.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// The emulator's view of the same timeline.
    var quotaClock: QuotaClock { QuotaClock { [self] in now() } }

    func now() -> Duration { state.withLock { $0.now } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        let parks = state.withLock {
            $0.sleeps.append(duration)
            return duration > .zero
        }
        guard parks else { return }
        // The deadline is fixed under the lock together with parking, so a step cannot slip between them.
        await withCheckedContinuation { continuation in
            state.withLock { $0.parked.append(Parked(deadline: $0.now + duration, continuation: continuation)) }
        }
    }

    private var parkedCount: Int { state.withLock { $0.parked.count } }

    /// Moves to the earliest deadline and wakes everyone due then. Returns `false` when nobody is parked.
    private func step() -> Bool {
        let due: [CheckedContinuation<Void, Never>]? = state.withLock { state in
            guard let next = state.parked.map(\.deadline).min() else { return nil }
            state.now = max(state.now, next)
            let now = state.now
            let woken = state.parked.filter { $0.deadline <= now }.map(\.continuation)
            state.parked.removeAll { $0.deadline <= now }
            return woken
        }
        guard let due else { return false }
        for continuation in due { continuation.resume() }
        return true
    }

    /// Runs `bodies` concurrently, stepping the clock whenever all of them are parked or finished.
    ///
    /// Waiting is on a condition (everyone parked), never on an amount of real time; the short real
    /// pause between checks only keeps the loop from spinning.
    func run(_ bodies: [@Sendable () async throws -> Void]) async throws {
        let finished = FinishedCount()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for body in bodies {
                group.addTask {
                    defer { finished.increment() }
                    try await body()
                }
            }
            while finished.value < bodies.count {
                // Finished first, parked second: a body can only move from running to parked or finished
                // in between, so the sum never counts a running body as idle.
                let done = finished.value
                if done + parkedCount == bodies.count, step() { continue }
                try await Task.sleep(for: .milliseconds(1))
            }
            try await group.waitForAll()
        }
    }
}

/// How many of ``SteppedClock/run(_:)``'s bodies have finished, shared with their tasks.
private final class FinishedCount: Sendable {
    private let count = Atomic<Int>(0)
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
    func increment() { count.add(1, ordering: .sequentiallyConsistent) }
}
