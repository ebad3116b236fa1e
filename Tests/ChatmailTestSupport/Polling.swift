/// Checks `condition` until it holds or `limit` has passed, and says whether it held.
///
/// The limit only bounds a broken run: it is never what a passing run waits for. The condition is
/// checked once more after the limit has passed, so a test whose task was kept off the CPU for the
/// whole limit still sees the state it was waiting for rather than failing on a stale look.
public func poll(
    for limit: Duration, every interval: Duration = .milliseconds(50), until condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while true {
        if try await condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try await Task.sleep(for: interval)
    }
}
