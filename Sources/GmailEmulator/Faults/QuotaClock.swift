/// The time source the quota bucket refills by.
///
/// Real time by default. A test that paces a client with a virtual clock hands the emulator the same
/// clock, so the bucket and the client's pacer see one timeline and a verdict of "over the rate" cannot
/// come from how busy the machine happened to be.
public struct QuotaClock: Sendable {
    /// Monotonic time elapsed since an origin fixed for this clock.
    public let now: @Sendable () -> Duration

    public init(now: @escaping @Sendable () -> Duration) {
        self.now = now
    }

    /// Real, monotonic time.
    public static var continuous: QuotaClock {
        let clock = ContinuousClock()
        let origin = clock.now
        return QuotaClock { origin.duration(to: clock.now) }
    }
}
