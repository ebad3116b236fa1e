import GmailAPI
import Testing

@Suite struct QuotaPacerTests {
    @Test("the contract's per-method costs")
    func costs() {
        #expect(GmailEndpoint.getProfile.cost == 1)
        #expect(GmailEndpoint.listLabels.cost == 1)
        #expect(GmailEndpoint.listHistory.cost == 2)
        #expect(GmailEndpoint.listMessages.cost == 5)
        #expect(GmailEndpoint.getMessage.cost == 5)
        #expect(GmailEndpoint.getAttachment.cost == 5)
        #expect(GmailEndpoint.modify.cost == 5)
        #expect(GmailEndpoint.trash.cost == 5)
        #expect(GmailEndpoint.untrash.cost == 5)
        #expect(GmailEndpoint.batchModify.cost == 50)
        #expect(GmailEndpoint.batch(of: .getMessage, count: 50).cost == 250)
    }

    @Test("100 messages.get from an empty bucket at 250 u/s take 2 s of virtual time")
    func paces() async throws {
        let sleeper = VirtualSleeper()
        let pacer = QuotaPacer(configuration: .init(recoveryPerSecond: 0), sleeper: sleeper, initialBalance: 0)
        for _ in 0..<100 { try await pacer.acquire(cost: GmailEndpoint.getMessage.cost) }
        let elapsed = Double(sleeper.elapsed.components.seconds) + Double(sleeper.elapsed.components.attoseconds) / 1e18
        #expect(abs(elapsed - 2.0) < 0.05)
    }

    @Test("a full bucket (four fifths of a second at 250 u/s) lets a burst through without waiting")
    func burst() async throws {
        let sleeper = VirtualSleeper()
        let pacer = QuotaPacer(sleeper: sleeper)
        for _ in 0..<40 { try await pacer.acquire(cost: 5) }
        #expect(sleeper.sleeps.isEmpty)
        try await pacer.acquire(cost: 5)
        #expect(sleeper.sleeps.count == 1)
    }

    @Test("AIMD: rate limits halve the rate (once per cooldown, not below the floor); it recovers additively")
    func aimd() async throws {
        let sleeper = VirtualSleeper()
        let pacer = QuotaPacer(configuration: .init(ceiling: 250, floor: 25, recoveryPerSecond: 5), sleeper: sleeper)
        await pacer.recordRateLimited()
        #expect(await pacer.rate == 125)
        await pacer.recordRateLimited()  // same instant: one burst of 429s counts once
        #expect(await pacer.rate == 125)
        for _ in 0..<5 {
            sleeper.advance(.seconds(1))
            await pacer.recordRateLimited()
        }
        #expect(await pacer.rate == 25)
        sleeper.advance(.seconds(10))
        try await pacer.acquire(cost: 1)
        #expect(await pacer.rate == 75)
        sleeper.advance(.seconds(100))
        try await pacer.acquire(cost: 1)
        #expect(await pacer.rate == 250)
    }

    @Test("unlimited mode never waits")
    func unlimited() async throws {
        let pacer = QuotaPacer.unlimited()
        for _ in 0..<1000 { try await pacer.acquire(cost: 50) }
        #expect(await pacer.unitsAcquired == 50_000)
    }

    @Test("the concurrency limiter never runs more than its limit at once")
    func limiter() async throws {
        let limiter = ConcurrencyLimiter(limit: 3)
        let gauge = Gauge()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    await limiter.run {
                        await gauge.enter()
                        await Task.yield()
                        await gauge.leave()
                    }
                }
            }
        }
        #expect(await gauge.peak <= 3)
        #expect(await gauge.peak >= 1)
    }
}

actor Gauge {
    private var current = 0
    private(set) var peak = 0
    func enter() {
        current += 1
        peak = max(peak, current)
    }
    func leave() { current -= 1 }
}
