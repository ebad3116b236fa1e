import Foundation
import GmailAPI
import Synchronization

/// An in-memory transport: records every request and answers from a handler, so tests script exact
/// server behaviour (statuses, headers, bodies, dropped connections).
final class ScriptedTransport: HTTPTransport {
    private let state = Mutex<[HTTPRequest]>([])
    private let handler: @Sendable (HTTPRequest, Int) throws -> HTTPResponse

    /// `handler` gets the request and its 0-based index among all requests.
    init(handler: @escaping @Sendable (HTTPRequest, Int) throws -> HTTPResponse) {
        self.handler = handler
    }

    /// Answers with `responses` in order; a request past the end is a test bug and fails loudly.
    convenience init(queue responses: [HTTPResponse]) {
        self.init { _, index in
            guard index < responses.count else { throw ScriptError.exhausted(index) }
            return responses[index]
        }
    }

    enum ScriptError: Error {
        case exhausted(Int)
        case dropped
    }

    var requests: [HTTPRequest] { state.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let index = state.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        return try handler(request, index)
    }
}

/// Virtual time: `sleep` returns at once, advancing `now` and recording the delay.
final class VirtualSleeper: Sleeper {
    private let state = Mutex<(now: Duration, sleeps: [Duration])>((.zero, []))

    var sleeps: [Duration] { state.withLock { $0.sleeps } }
    var elapsed: Duration { state.withLock { $0.now } }

    func now() -> Duration { state.withLock { $0.now } }

    func advance(_ duration: Duration) { state.withLock { $0.now += duration } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.sleeps.append(duration)
            $0.now += max(duration, .zero)
        }
    }
}

/// Always the same value: `.max` pins jitter to its upper bound, `0` to zero.
struct FixedRandom: RandomSource {
    let value: UInt64
    func next() -> UInt64 { value }
}

/// A deterministic generator (SplitMix64) for tests that need varied values.
final class SeededRandom: RandomSource {
    private let state: Mutex<UInt64>
    init(seed: UInt64) { state = Mutex(seed) }
    func next() -> UInt64 {
        state.withLock { s in
            s &+= 0x9E37_79B9_7F4A_7C15
            var z = s
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

/// A token source that counts refreshes: each invalidate makes the next token a new one.
actor CountingTokenSource: AccessTokenSource {
    private(set) var generation = 0
    private(set) var invalidations = 0
    func accessToken() async throws -> String { "token-\(generation)" }
    func invalidate(_ token: String) async {
        invalidations += 1
        generation += 1
    }
}

func jsonResponse(_ status: Int, _ body: String, headers: HTTPHeaders = ["Content-Type": "application/json"])
    -> HTTPResponse
{
    HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
}

/// Google's error body shape, as the contract's error section gives it.
func googleError(
    _ status: Int, reason: String?, message: String = "error", statusName: String = "X", headers: HTTPHeaders = [:]
) -> HTTPResponse {
    let errors = reason.map { #","errors":[{"message":"\#(message)","domain":"global","reason":"\#($0)"}]"# } ?? ""
    return jsonResponse(
        status, #"{"error":{"code":\#(status),"message":"\#(message)"\#(errors),"status":"\#(statusName)"}}"#,
        headers: headers)
}

/// A client on scripted transport, unlimited pacing and virtual time.
func makeClient(
    transport: ScriptedTransport, tokens: any AccessTokenSource = StaticTokenSource(token: "ya29.SECRET-ACCESS"),
    sleeper: VirtualSleeper = VirtualSleeper(), random: any RandomSource = FixedRandom(value: .max),
    maxAttempts: Int = 5, batchSize: Int = 50,
    pacer: QuotaPacer = .unlimited()
) -> GmailClient {
    GmailClient(
        configuration: .init(
            baseURL: URL(string: "http://127.0.0.1:9")!, batchSize: batchSize, maxAttempts: maxAttempts),
        transport: transport, tokens: tokens, pacer: pacer, sleeper: sleeper, random: random)
}

extension HTTPRequest {
    /// Query items in order, decoded.
    var queryItems: [(String, String)] {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map { ($0.name, $0.value ?? "") } ?? []
    }
    func queryValues(_ name: String) -> [String] { queryItems.filter { $0.0 == name }.map(\.1) }
    var bodyText: String { String(decoding: body ?? Data(), as: UTF8.self) }
}
