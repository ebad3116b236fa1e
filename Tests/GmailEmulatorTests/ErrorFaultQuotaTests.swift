import Foundation
import GmailEmulator
import Testing

@Suite struct ErrorFaultQuotaTests {
    @Test("exact bodies: 401 without token, 400 bad label, 429 and 403 rate-limit faults")
    func exactBodies() async throws {
        try await withEmulator { h in
            let unauthorized = try await h.get(Harness.me + "/profile", token: nil)
            #expect(unauthorized.status == 401)
            #expect(
                unauthorized.json["error"]?["errors"]?.arrayValue?.first
                    == .object([
                        ("message", .string("Invalid Credentials")), ("domain", .string("global")),
                        ("reason", .string("authError")),
                        ("location", .string("Authorization")), ("locationType", .string("header")),
                    ]))
            #expect(unauthorized.json["error"]?["status"] == .string("UNAUTHENTICATED"))
            let id = try await FormatTests.lunchId(h)
            let bad = try await h.post(Harness.me + "/messages/\(id)/modify", json: #"{"addLabelIds":["NOPE"]}"#)
            #expect(
                bad.text
                    == #"{"error":{"code":400,"message":"Invalid label: NOPE","errors":[{"message":"Invalid label: NOPE","domain":"global","reason":"invalidArgument"}],"status":"INVALID_ARGUMENT"}}"#
            )
            _ = try await h.control(
                "faults",
                #"{"rules":[{"method":"getProfile","probability":1,"kind":"429","count":1},{"method":"getProfile","probability":1,"kind":"403rate","count":1}]}"#,
                method: "PUT")
            let tooMany = try await h.get(Harness.me + "/profile")
            #expect(tooMany.status == 429)
            #expect(tooMany.headers["retry-after"] == "1")
            #expect(
                tooMany.text
                    == #"{"error":{"code":429,"message":"Too many concurrent requests for user","errors":[{"message":"Too many concurrent requests for user","domain":"global","reason":"rateLimitExceeded"}],"status":"RESOURCE_EXHAUSTED"}}"#
            )
            let rate = try await h.get(Harness.me + "/profile")
            #expect(
                rate.text
                    == #"{"error":{"code":403,"message":"User Rate Limit Exceeded","errors":[{"message":"User Rate Limit Exceeded","domain":"usageLimits","reason":"userRateLimitExceeded"}],"status":"PERMISSION_DENIED"}}"#
            )
            #expect(try await h.get(Harness.me + "/profile").status == 200)
            let missing = try await h.get(Harness.me + "/messages/00000000deadbeef")
            #expect(missing.status == 404)
        }
    }

    @Test("permanent faults for the pending-action queue: 403 insufficientPermissions and 400 invalidArgument")
    func permanentFaults() async throws {
        try await withEmulator { h in
            let id = try await FormatTests.lunchId(h)
            _ = try await h.control(
                "faults",
                #"{"rules":[{"method":"messages.modify","kind":"403scope","count":1},{"method":"messages.modify","kind":"400","count":1}]}"#,
                method: "PUT")
            let forbidden = try await h.post(
                Harness.me + "/messages/\(id)/modify", json: #"{"addLabelIds":["STARRED"]}"#)
            #expect(
                forbidden.text
                    == #"{"error":{"code":403,"message":"Request had insufficient authentication scopes.","errors":[{"message":"Request had insufficient authentication scopes.","domain":"global","reason":"insufficientPermissions"}],"status":"PERMISSION_DENIED"}}"#
            )
            let invalid = try await h.post(Harness.me + "/messages/\(id)/modify", json: #"{"addLabelIds":["STARRED"]}"#)
            #expect(invalid.status == 400)
            #expect(invalid.json["error"]?["errors"]?.arrayValue?.first?["reason"] == .string("invalidArgument"))
            #expect(
                try await h.post(Harness.me + "/messages/\(id)/modify", json: #"{"addLabelIds":["STARRED"]}"#).status
                    == 200)
            #expect(try await h.get(Harness.me + "/profile").status == 200)
        }
    }

    @Test("faults by method and probability are reproducible with a seed; drop, 500, 503 and slow work")
    func faultsByProbability() async throws {
        try await withEmulator { h in
            func run() async throws -> [Int] {
                _ = try await h.control(
                    "faults", #"{"seed":7,"rules":[{"method":"messages.list","probability":0.5,"kind":"500"}]}"#,
                    method: "PUT")
                var statuses: [Int] = []
                for _ in 0..<20 { statuses.append(try await h.get(Harness.me + "/messages").status) }
                #expect(try await h.get(Harness.me + "/profile").status == 200)  // other methods untouched
                return statuses
            }
            let first = try await run()
            #expect(first.contains(500) && first.contains(200))
            #expect(try await run() == first)
            _ = try await h.control(
                "faults",
                #"{"rules":[{"method":"*","probability":1,"kind":"503","count":1},{"method":"*","probability":1,"kind":"drop","count":1},{"method":"*","probability":1,"kind":"slow:50","count":1}]}"#,
                method: "PUT")
            #expect(try await h.get(Harness.me + "/profile").status == 503)
            await #expect(throws: (any Error).self) { _ = try await h.get(Harness.me + "/profile") }
            let clock = ContinuousClock()
            let start = clock.now
            #expect(try await h.get(Harness.me + "/profile").status == 200)
            #expect(clock.now - start >= .milliseconds(50))
            _ = try await h.control("faults", "{}", method: "DELETE")
        }
    }

    @Test("quota: 5 messages.get cost 25 units; over the rate → 429 with Retry-After")
    func quota() async throws {
        try await withEmulator { h in
            let id = try await FormatTests.lunchId(h)
            _ = try await h.control("reset-quota", "{}")
            for _ in 0..<5 { _ = try await h.get(Harness.me + "/messages/\(id)?format=minimal") }
            let stats = try await h.get("/_emulator/quota", token: nil).json
            #expect(stats["unitsUsed"] == .int(25))
            #expect(stats["unitsByMethod"]?["messages.get"] == .int(25))
            // A bucket of 5 units refilling at 0.01 units/s holds exactly one 5-unit call; the next one would
            // need 500 s of refill, so it is refused however slowly a loaded machine sends it.
            _ = try await h.control("quota", #"{"unitsPerSecond": 0.01, "burst": 5}"#, method: "PUT")
            #expect(try await h.get(Harness.me + "/messages/\(id)").status == 200)
            let limited = try await h.get(Harness.me + "/messages/\(id)")
            #expect(limited.status == 429)
            #expect(limited.headers["retry-after"] != nil)
            #expect(limited.json["error"]?["errors"]?.arrayValue?.first?["reason"] == .string("rateLimitExceeded"))
            #expect(try await h.get("/_emulator/quota", token: nil).json["rateLimited"] == .int(1))
        }
    }
}
