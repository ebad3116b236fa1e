/// Randomness for jitter, PKCE verifiers, OAuth `state` and batch boundaries.
///
/// A protocol rather than `inout RandomNumberGenerator` so one source can be shared by concurrent
/// tasks, and so tests can pin jitter to exact values.
public protocol RandomSource: Sendable {
    /// A uniformly distributed 64-bit value.
    func next() -> UInt64
}

extension RandomSource {
    /// A uniform value in `0...1`.
    public func unitInterval() -> Double {
        Double(next() >> 11) / Double((UInt64(1) << 53) - 1)
    }

    /// A uniform value in `0..<upperBound`.
    public func below(_ upperBound: Int) -> Int {
        precondition(upperBound > 0, "below(_:) needs a positive bound, got \(upperBound)")
        return Int(next() % UInt64(upperBound))
    }
}

/// The system's cryptographically secure generator: the right source for PKCE and `state`.
public struct SystemRandomSource: RandomSource {
    public init() {}

    public func next() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }
}
