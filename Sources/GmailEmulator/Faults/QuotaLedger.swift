import Foundation

/// Per-user quota accounting with Gmail's published per-method costs and an optional token bucket.
///
/// Accounting always runs, so tests can assert units spent; enforcement only when a rate is set.
public actor QuotaLedger {
    /// Units per method.
    public static let costs: [String: Int] = [
        "getProfile": 1, "labels.list": 1, "labels.get": 1, "settings.sendAs.list": 1,
        "history.list": 2, "messages.list": 5, "messages.get": 5, "messages.attachments.get": 5,
        "messages.modify": 5, "messages.trash": 5, "messages.untrash": 5, "messages.batchModify": 50,
        "messages.batchDelete": 50, "messages.delete": 10, "threads.get": 10, "threads.list": 10,
        "threads.modify": 10, "threads.trash": 10, "threads.untrash": 10,
        "messages.send": 100, "drafts.create": 10, "drafts.update": 15, "drafts.delete": 10, "drafts.get": 5,
        "drafts.list": 5, "drafts.send": 100,
    ]

    public struct Stats: Sendable, Equatable {
        public var unitsUsed: Int = 0
        public var requests: Int = 0
        public var rateLimited: Int = 0
        public var unitsByMethod: [String: Int] = [:]
    }

    /// Refill rate in units per second; `nil` = unlimited.
    private var unitsPerSecond: Double?
    /// The bucket's capacity: one second's worth of units unless set apart.
    private var burst: Double?
    private var available: Double
    private let clock: QuotaClock
    private var lastRefill: Duration
    private(set) var stats = Stats()

    public init(unitsPerSecond: Double?, clock: QuotaClock = .continuous) {
        self.unitsPerSecond = unitsPerSecond
        self.available = unitsPerSecond ?? 0
        self.clock = clock
        self.lastRefill = clock.now()
    }

    /// Enforces `unitsPerSecond` with a full bucket of `burst` units (one second's worth by default); `nil`
    /// stops enforcing.
    public func setRate(_ unitsPerSecond: Double?, burst: Double? = nil) {
        self.unitsPerSecond = unitsPerSecond
        self.burst = burst
        available = capacity
        lastRefill = clock.now()
    }

    public func reset() {
        stats = Stats()
        available = capacity
        lastRefill = clock.now()
    }

    private var capacity: Double { burst ?? unitsPerSecond ?? 0 }

    public var current: Stats { stats }

    /// Charges one call; returns the seconds to wait when the bucket is empty (the call is then refused).
    public func charge(method: String) -> Int? {
        let cost = QuotaLedger.costs[method] ?? 1
        stats.requests += 1
        if let rate = unitsPerSecond {
            let now = clock.now()
            let elapsed = max(.zero, now - lastRefill)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            available = min(capacity, available + seconds * rate)
            lastRefill = now
            if available < Double(cost) {
                stats.rateLimited += 1
                return max(1, Int(((Double(cost) - available) / rate).rounded(.up)))
            }
            available -= Double(cost)
        }
        stats.unitsUsed += cost
        stats.unitsByMethod[method, default: 0] += cost
        return nil
    }
}

/// The request log the control API serves: one entry per HTTP request or batch part.
public actor RequestLog {
    public struct Entry: Sendable {
        public var method: String
        public var path: String
        public var query: String
        public var status: Int
        public var gmailMethod: String?
        public var timeMs: Int64
    }

    private(set) var entries: [Entry] = []
    private let capacity: Int

    public init(capacity: Int = 10_000) { self.capacity = capacity }

    public func record(_ entry: Entry) {
        entries.append(entry)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    public var all: [Entry] { entries }

    public func clear() { entries.removeAll() }
}
