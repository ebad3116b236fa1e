/// The per-account quota budget, shared by every request to one mailbox.
///
/// A token bucket in quota units: it refills at `rate` units/s up to `burst`, and `acquire(cost:)`
/// waits until the call's units are available, so the client stays under Gmail's 250 units/s instead
/// of discovering the limit through 429s. Waiting callers reserve their units up front (the balance may
/// go negative), so they are served in arrival order without polling.
///
/// AIMD: a rate-limit answer halves the rate (at most once per `decreaseCooldown`, so one batch full of
/// 429 parts counts once), down to `floor`; the rate then grows back by `recoveryPerSecond` each second
/// up to `ceiling`.
public actor QuotaPacer {
    /// Tuning for the bucket.
    public struct Configuration: Sendable, Equatable {
        /// The normal refill rate, units per second.
        public var ceiling: Double
        /// The lowest rate after repeated rate limits.
        public var floor: Double
        /// Bucket capacity in units: four fifths of a second's worth unless set. The server counts units
        /// when requests arrive, and requests sent at exactly its rate arrive bunched or out of order; the
        /// fifth held back absorbs that, so a client at the ceiling is never over it.
        public var burst: Double
        /// Multiplier applied on a rate-limit answer.
        public var decreaseFactor: Double
        /// Additive recovery, units per second per second.
        public var recoveryPerSecond: Double
        /// Minimum time between two decreases.
        public var decreaseCooldown: Duration

        public init(
            ceiling: Double = 250, floor: Double = 25, burst: Double? = nil, decreaseFactor: Double = 0.5,
            recoveryPerSecond: Double = 5, decreaseCooldown: Duration = .seconds(1)
        ) {
            precondition(ceiling > 0 && floor > 0 && floor <= ceiling, "pacer needs 0 < floor <= ceiling")
            self.ceiling = ceiling
            self.floor = floor
            self.burst = burst ?? ceiling * 0.8
            self.decreaseFactor = decreaseFactor
            self.recoveryPerSecond = recoveryPerSecond
            self.decreaseCooldown = decreaseCooldown
        }
    }

    public let configuration: Configuration
    /// Benchmarks turn pacing off to measure raw throughput.
    public let isUnlimited: Bool
    private let sleeper: any Sleeper
    /// Units available now; negative when callers are waiting for reserved units.
    private var balance: Double
    public private(set) var rate: Double
    private var lastUpdate: Duration
    private var lastDecrease: Duration?
    /// Units handed out so far, for statistics.
    public private(set) var unitsAcquired: Int = 0

    /// - Parameter initialBalance: units available at start; a full bucket by default.
    public init(configuration: Configuration = Configuration(), sleeper: any Sleeper, initialBalance: Double? = nil) {
        self.configuration = configuration
        self.isUnlimited = false
        self.sleeper = sleeper
        self.balance = initialBalance ?? configuration.burst
        self.rate = configuration.ceiling
        self.lastUpdate = sleeper.now()
    }

    private init(unlimitedWith sleeper: any Sleeper) {
        self.configuration = Configuration()
        self.isUnlimited = true
        self.sleeper = sleeper
        self.balance = 0
        self.rate = .infinity
        self.lastUpdate = .zero
    }

    /// A pacer that never waits (benchmarks of raw throughput).
    public static func unlimited() -> QuotaPacer {
        QuotaPacer(unlimitedWith: ContinuousSleeper())
    }

    /// Waits until `cost` units are available and takes them.
    /// - Throws: `CancellationError` if the task is cancelled while waiting.
    public func acquire(cost: Int) async throws {
        unitsAcquired += cost
        guard !isUnlimited else { return }
        refill()
        balance -= Double(cost)
        guard balance < 0 else { return }
        let wait = Duration.seconds(-balance / rate)
        try await sleeper.sleep(for: wait)
    }

    /// Records a rate-limit answer: multiplicative decrease.
    public func recordRateLimited() {
        guard !isUnlimited else { return }
        refill()
        let now = sleeper.now()
        if let lastDecrease, now - lastDecrease < configuration.decreaseCooldown { return }
        lastDecrease = now
        rate = max(configuration.floor, rate * configuration.decreaseFactor)
    }

    private func refill() {
        let now = sleeper.now()
        let elapsed = max(0, seconds(now - lastUpdate))
        lastUpdate = now
        // Additive increase first, then credit the elapsed time at the (average) rate.
        let previousRate = rate
        rate = min(configuration.ceiling, rate + configuration.recoveryPerSecond * elapsed)
        balance = min(configuration.burst, balance + elapsed * (previousRate + rate) / 2)
    }

    private func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
