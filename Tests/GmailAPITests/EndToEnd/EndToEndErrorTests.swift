import Foundation
import GmailAPI
import GmailEmulator
import Testing

@Suite("End to end: error classes, retries and quota")
struct EndToEndErrorTests {
    /// Runs `body` and returns the GmailAPIError it throws (or records a failure).
    func gmailError(_ body: () async throws -> Void) async -> GmailAPIError? {
        do {
            try await body()
            Issue.record("expected a GmailAPIError")
            return nil
        } catch let error as GmailAPIError {
            return error
        } catch {
            Issue.record("expected a GmailAPIError, got \(error)")
            return nil
        }
    }

    @Test("404 message → notFound; expired history → historyExpired; 400 → badRequest")
    func permanentErrors() async throws {
        try await withEmulator { e in
            let client = e.client()
            #expect(
                await gmailError { _ = try await client.getMessage(id: "ffffffffffff0001") }
                    == .giveUp(.notFound(resource: "message")))

            let start = try await client.getProfile().historyID
            let id = try await client.listAllMessages()[0].id
            _ = try await client.modify(id: id, add: ["STARRED"])
            _ = try await client.modify(id: id, remove: ["STARRED"])
            #expect(try await client.listHistory(startHistoryID: start).records.count == 2)
            try await e.control("expire-history", #"{"retention": 1}"#)
            #expect(
                await gmailError { _ = try await client.listHistory(startHistoryID: start) } == .giveUp(.historyExpired)
            )

            let invalidID = await gmailError { _ = try await client.getMessage(id: "not-an-id") }
            guard case .badRequest? = invalidID else {
                Issue.record("malformed id: \(String(describing: invalidID))")
                return
            }
            let invalidLabel = await gmailError { _ = try await client.modify(id: id, add: ["NO_SUCH_LABEL"]) }
            #expect(invalidLabel == .badRequest(reason: "Invalid label: NO_SUCH_LABEL"))
            // 403 that is not a rate limit: another user's mailbox (delegation denied) is permanent.
            let other = e.client(userID: "someone-else@example.com")
            #expect(
                await gmailError { _ = try await other.getProfile() } == .giveUp(.permissionDenied(reason: "forbidden"))
            )
            // A 400 or 403 is never retried.
            #expect(e.sleeper.sleeps.isEmpty)
        }
    }

    @Test("403 rate limit is retried with exponential backoff, then succeeds")
    func rateLimit403() async throws {
        try await withEmulator { e in
            // Jitter pinned to its ceiling: the recorded waits are the backoff schedule itself.
            let client = e.client(maxAttempts: 5, random: FixedRandom(value: .max))
            try await e.faults(#"[{"method": "getProfile", "kind": "403rate", "count": 3}]"#)
            await e.emulator.requestLog.clear()
            _ = try await client.getProfile()
            #expect(e.sleeper.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
            let statuses = await e.requestLog().filter { $0.gmailMethod == "getProfile" }.map(\.status)
            #expect(statuses == [403, 403, 403, 200])
        }
    }

    @Test("429 with Retry-After is honoured, then succeeds")
    func rateLimit429() async throws {
        try await withEmulator { e in
            let client = e.client(maxAttempts: 5)  // zero jitter: a wait > 0 can only come from Retry-After
            try await e.faults(#"[{"method": "labels.list", "kind": "429", "count": 2}]"#)
            _ = try await client.listLabels()
            #expect(e.sleeper.sleeps == [.seconds(1), .seconds(1)])
            let statuses = await e.requestLog().filter { $0.gmailMethod == "labels.list" }.map(\.status)
            #expect(statuses == [429, 429, 200])
        }
    }

    @Test("persistent 500 and 503 → server error after maxAttempts")
    func persistentServerErrors() async throws {
        try await withEmulator { e in
            let client = e.client(maxAttempts: 3)
            try await e.faults(#"[{"method": "getProfile", "kind": "500"}, {"method": "labels.list", "kind": "503"}]"#)
            #expect(await gmailError { _ = try await client.getProfile() } == .retryLater(.server(status: 500)))
            #expect(await gmailError { _ = try await client.listLabels() } == .retryLater(.server(status: 503)))
            let log = await e.requestLog()
            #expect(log.filter { $0.gmailMethod == "getProfile" }.count == 3)
            #expect(log.filter { $0.gmailMethod == "labels.list" }.count == 3)
            #expect(e.sleeper.sleeps.count == 4)
            // 503 carries Retry-After: 1, honoured even with zero jitter.
            #expect(e.sleeper.sleeps.suffix(2) == [.seconds(1), .seconds(1)])
        }
    }

    @Test("a dropped connection is a transport error, retried, then succeeds; persistent drops surface as transport")
    func droppedConnection() async throws {
        try await withEmulator { e in
            let client = e.client(maxAttempts: 3)
            try await e.faults(#"[{"method": "getProfile", "kind": "drop", "count": 1}]"#)
            let profile = try await client.getProfile()
            #expect(profile.emailAddress == "me@example.com")
            #expect(e.sleeper.sleeps.count == 1)

            try await e.faults(#"[{"method": "labels.list", "kind": "drop"}]"#)
            let error = await gmailError { _ = try await client.listLabels() }
            guard case .retryLater(.transport)? = error else {
                Issue.record("expected .retryLater(.transport), got \(String(describing: error))")
                return
            }
            #expect(await e.requestLog().filter { $0.gmailMethod == "labels.list" }.count == 3)
        }
    }

    @Test("quota: a 250 u/s pacer against a 250 u/s emulator fetches 60 messages without a 429")
    func pacedFetchStaysUnderQuota() async throws {
        // Pacer, backoff and the emulator's bucket share one stepped clock, so the verdict is the pacer's
        // arithmetic against the bucket's, whatever else the machine is doing.
        let clock = SteppedClock()
        try await withEmulator({
            $0.mailbox = .synthetic(count: 60)
            $0.quotaUnitsPerSecond = 250
            $0.quotaClock = clock.quotaClock
        }) { e in
            // Listing is not part of the measured fetch: read the ids in-process.
            let ids = await e.emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 100).page.map(\.id)
            #expect(ids.count == 60)
            try await e.control("reset-quota")
            let pacer = QuotaPacer(configuration: .init(ceiling: 250), sleeper: clock)
            // A timeout far beyond any stall: one attempt per message is the point of the test.
            let client = e.client(pacer: pacer, sleeper: clock, timeoutSeconds: 120)
            try await clock.run(ids.map { id in { _ = try await client.getMessage(id: id, format: .minimal) } })
            let stats = try await e.control("quota", method: "GET").json
            #expect(stats["rateLimited"] as? Int == 0, "stats: \(stats)")
            #expect(stats["unitsUsed"] as? Int == 300)
            // 40 calls fit the pacer's burst of 200 units; the other 20 each waited for their 5 units.
            #expect(clock.sleeps.filter { $0 > .zero }.count == 20, "sleeps: \(clock.sleeps)")
            let last = clock.now()
            let drift = last > .milliseconds(400) ? last - .milliseconds(400) : .milliseconds(400) - last
            #expect(drift < .microseconds(1), "the last call went out at \(last), not at (300 - 200) / 250 s")
        }
    }

    @Test("quota: unpaced against a tiny quota → 429s, retried after Retry-After, all succeed")
    func unpacedFetchIsRateLimitedAndRetried() async throws {
        let clock = SteppedClock()
        try await withEmulator({
            // A bucket of 5.01 units holds one 5-unit call; the next one needs a second of refill.
            $0.mailbox = .synthetic(count: 5)
            $0.quotaUnitsPerSecond = 5.01
            $0.quotaClock = clock.quotaClock
        }) { e in
            let ids = await e.emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 100).page.map(\.id)
            try await e.control("reset-quota")
            let client = e.client(maxAttempts: 8, sleeper: clock, timeoutSeconds: 120)
            // The first two together, then the rest one at a time. Time stands still between the calls of a
            // step, so every call after the first in a step is refused once and waits for the refill.
            try await clock.run(
                ids.prefix(2).map { id in { _ = try await client.getMessage(id: id, format: .minimal) } })
            try await clock.run([
                { for id in ids.dropFirst(2) { _ = try await client.getMessage(id: id, format: .minimal) } }
            ])
            let stats = try await e.control("quota", method: "GET").json
            #expect(stats["rateLimited"] as? Int == 4, "stats: \(stats)")
            #expect(stats["unitsUsed"] as? Int == ids.count * 5)
            #expect(clock.sleeps == Array(repeating: .seconds(1), count: 4), "one wait per 429, as Retry-After asks")
        }
    }
}
