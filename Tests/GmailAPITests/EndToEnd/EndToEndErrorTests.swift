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
        try await withEmulator({
            $0.mailbox = .synthetic(count: 60)
            $0.quotaUnitsPerSecond = 250
        }) { e in
            // Listing is not part of the measured fetch: read the ids in-process.
            let ids = await e.emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 100).page.map(\.id)
            #expect(ids.count == 60)
            try await e.control("reset-quota")
            let pacer = QuotaPacer(configuration: .init(ceiling: 250), sleeper: ContinuousSleeper())
            let client = e.client(pacer: pacer)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in ids { group.addTask { _ = try await client.getMessage(id: id, format: .minimal) } }
                try await group.waitForAll()
            }
            let stats = try await e.control("quota", method: "GET").json
            #expect(stats["rateLimited"] as? Int == 0, "stats: \(stats)")
            #expect(stats["unitsUsed"] as? Int == 300)
            #expect(e.sleeper.sleeps.isEmpty, "no backoff was needed")
        }
    }

    @Test("quota: unpaced against a tiny quota → 429s, retried after Retry-After, all succeed")
    func unpacedFetchIsRateLimitedAndRetried() async throws {
        // The emulator's bucket refills in real time, so backoff sleeps a quarter of the requested time for real.
        try await withEmulator(
            {
                // A bucket of 5.01 units holds one 5-unit call: every later call needs ~1 s of refill, so the
                // calls sent together beside the first are refused (20 u/s would let them all through).
                $0.mailbox = .synthetic(count: 5)
                $0.quotaUnitsPerSecond = 5.01
            }, sleeper: EndToEndSleeper(realFraction: 0.3)
        ) { e in
            let ids = await e.emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 100).page.map(\.id)
            try await e.control("reset-quota")
            let client = e.client(maxAttempts: 8)
            // The first two together: only one fits the bucket, so the other is refused however slowly a
            // loaded machine runs (one after another, a machine taking a second per request never hits the
            // limit). The rest follow one at a time, each retried on its own schedule.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in ids.prefix(2) { group.addTask { _ = try await client.getMessage(id: id, format: .minimal) } }
                try await group.waitForAll()
            }
            for id in ids.dropFirst(2) { _ = try await client.getMessage(id: id, format: .minimal) }
            let stats = try await e.control("quota", method: "GET").json
            let limited = stats["rateLimited"] as? Int ?? 0
            #expect(limited > 0, "stats: \(stats)")
            #expect(stats["unitsUsed"] as? Int == ids.count * 5)
            #expect(e.sleeper.sleeps.count == limited, "one backoff per 429")
            #expect(
                e.sleeper.sleeps.allSatisfy { $0 >= .seconds(1) }, "each wait honours Retry-After: \(e.sleeper.sleeps)")
        }
    }
}
