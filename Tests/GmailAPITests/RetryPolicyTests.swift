import GmailAPI
import Testing

@Suite struct RetryPolicyTests {
    @Test("full jitter: the upper bound doubles from 1 s and stops at the contract's 64 s cap")
    func upperBoundGrowsToCap() {
        let policy = RetryPolicy()
        let top = FixedRandom(value: .max)
        let bounds = (1...9).map { policy.delay(beforeRetry: $0, retryAfter: nil, random: top) }
        #expect(bounds == [1, 2, 4, 8, 16, 32, 64, 64, 64].map { Duration.seconds($0) })
        #expect(policy.maxAttempts == 8)  // the contract's retry rule: at most 8 attempts per request
    }

    @Test("full jitter reaches down to zero and never exceeds the bound")
    func jitterRange() {
        let policy = RetryPolicy()
        #expect(policy.delay(beforeRetry: 3, retryAfter: nil, random: FixedRandom(value: 0)) == .zero)
        let random = SeededRandom(seed: 42)
        for retry in 1...10 {
            for _ in 0..<50 {
                let delay = policy.delay(beforeRetry: retry, retryAfter: nil, random: random)
                #expect(delay >= .zero && delay <= min(.seconds(64), .seconds(1 << (retry - 1))))
            }
        }
    }

    @Test("a server hint raises the wait, capped at retryAfterCap")
    func hintIsHonouredAndCapped() {
        let policy = RetryPolicy()
        #expect(policy.delay(beforeRetry: 1, retryAfter: .seconds(10), random: FixedRandom(value: 0)) == .seconds(10))
        #expect(policy.delay(beforeRetry: 1, retryAfter: .seconds(900), random: FixedRandom(value: 0)) == .seconds(64))
        #expect(policy.delay(beforeRetry: 6, retryAfter: .seconds(3), random: FixedRandom(value: .max)) == .seconds(32))
    }
}
