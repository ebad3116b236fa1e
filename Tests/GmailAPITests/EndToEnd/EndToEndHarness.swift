import ChatmailTestSupport
import Foundation
import GmailAPI
import GmailEmulator
import GmailModel
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// End-to-end harness: a real emulator on 127.0.0.1 (port 0) and real `GmailClient`s talking to it over
/// `URLSessionTransport`. Backoff sleeps are recorded, not slept, so tests assert on the requested delays;
/// tests where the emulator's quota bucket must refill step a shared virtual clock (``SteppedClock``).

/// Records every requested sleep and returns at once, advancing its own time by the amount asked.
final class EndToEndSleeper: Sleeper {
    private let state = Mutex<(now: Duration, sleeps: [Duration])>((.zero, []))

    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func now() -> Duration { state.withLock { $0.now } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.sleeps.append(duration)
            $0.now += max(duration, .zero)
        }
    }
}

/// A plain HTTP reply from the emulator's control or OAuth endpoints.
struct EndToEndReply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data
    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// One started emulator plus helpers; `URLSession` is thread-safe.
struct EndToEnd: @unchecked Sendable {
    let emulator: RunningEmulator
    let session: URLSession
    let sleeper: EndToEndSleeper
    static let staticToken = "emu-static-token"

    var baseURL: URL { URL(string: emulator.baseURL)! }

    /// A client on real sockets: URLSessionTransport, recorded backoff, unlimited pacing by default.
    /// `random` 0 pins jitter to zero, so a recorded delay is exactly the server's Retry-After (or 0).
    func client(
        tokens: any AccessTokenSource = StaticTokenSource(token: EndToEnd.staticToken), maxAttempts: Int = 4,
        batchSize: Int = 50,
        pacer: QuotaPacer = .unlimited(), random: any RandomSource = FixedRandom(value: 0),
        sleeper: (any Sleeper)? = nil,
        userID: String = "me", timeoutSeconds: Int = 10, transport: any HTTPTransport = URLSessionTransport()
    ) -> GmailClient {
        GmailClient(
            configuration: .init(
                baseURL: baseURL, userID: userID, batchSize: batchSize, maxAttempts: maxAttempts,
                timeouts: .uniform(timeoutSeconds)),
            transport: transport, tokens: tokens, pacer: pacer, sleeper: sleeper ?? self.sleeper,
            random: random)
    }

    var oauthConfiguration: OAuthConfiguration {
        OAuthConfiguration(
            clientID: OAuthServer.Settings().clientId,
            authorizationURL: baseURL.appendingPathComponent("o/oauth2/v2/auth"),
            tokenURL: baseURL.appendingPathComponent("token"))
    }

    var tokenClient: OAuthTokenClient {
        OAuthTokenClient(configuration: oauthConfiguration, transport: URLSessionTransport(), timeoutSeconds: 10)
    }

    /// One HTTP request with redirects disabled.
    func http(_ method: String, _ url: URL, body: Data? = nil, contentType: String? = nil) async throws -> EndToEndReply
    {
        var request = URLRequest(url: url)
        request.httpMethod = method
        // A bound for a broken run: the loopback receiver a test visits starts accepting only once its
        // waiting task gets a thread of the pool, which a busy suite may hold for a long while.
        request.timeoutInterval = 120
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let body {
            request.httpBody = body
        } else if method == "POST" || method == "PUT" {
            request.httpBody = Data()
        }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (key, value) in http?.allHeaderFields ?? [:] {
            headers[String(describing: key).lowercased()] = String(describing: value)
        }
        return EndToEndReply(status: http?.statusCode ?? 0, headers: headers, body: data)
    }

    /// `/_emulator/<action>` with a JSON body.
    @discardableResult
    func control(_ action: String, _ json: String = "{}", method: String = "POST") async throws -> EndToEndReply {
        let body = method == "GET" ? nil : Data(json.utf8)
        let reply = try await http(
            method, URL(string: emulator.baseURL + "/_emulator/" + action)!, body: body,
            contentType: body == nil ? nil : "application/json")
        #expect(reply.status == 200, "control \(action): \(reply.text)")
        return reply
    }

    /// Sets fault rules through the control API (JSON array of rules).
    func faults(_ rulesJSON: String) async throws {
        try await control("faults", #"{"rules": \#(rulesJSON)}"#, method: "PUT")
    }

    /// Delivers raw RFC 5322 bytes through the control API; returns the new message id.
    func deliver(_ raw: String, labels: [String] = ["INBOX", "UNREAD"], internalDateMs: Int64? = nil) async throws
        -> String
    {
        var object: [String: Any] = ["raw": Base64URL.encode(Array(raw.utf8), padded: false), "labelIds": labels]
        if let internalDateMs { object["internalDate"] = internalDateMs }
        let reply = try await control(
            "deliver", String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        let id = reply.json["id"] as? String ?? ""
        #expect(!id.isEmpty)
        return id
    }

    /// Request-log entries for Gmail calls (outer requests and `batch:` parts).
    func requestLog() async -> [RequestLog.Entry] { await emulator.requestLog.all }
}

/// Starts an emulator on port 0, runs `body`, and always shuts it down (even when `body` throws).
func withEmulator(
    _ configure: (inout EmulatorConfiguration) -> Void = { _ in },
    _ body: (EndToEnd) async throws -> Void
) async throws {
    var configuration = EmulatorConfiguration()
    configuration.mailbox = .messages(EndToEndFixtures.mailbox)
    configure(&configuration)
    try await withRunningEmulator(configuration) { running, session in
        try await body(EndToEnd(emulator: running, session: session, sleeper: EndToEndSleeper()))
    }
}

enum EndToEndFixtures {
    static let attachmentBase64 = "JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSPj4Kc3RyZWFtCg=="

    static let multipart = """
        From: Bob Example <bob@example.org>\r
        To: me@example.com\r
        Subject: lunch\r
        Date: Wed, 13 Nov 2024 09:00:00 +0000\r
        Message-ID: <e2e-lunch-1@example.org>\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed; boundary="mix"\r
        \r
        --mix\r
        Content-Type: text/plain; charset="UTF-8"\r
        \r
        Hi Ann, lunch at 12?\r
        --mix\r
        Content-Type: application/pdf; name="menu.pdf"\r
        Content-Disposition: attachment; filename="menu.pdf"\r
        Content-Transfer-Encoding: base64\r
        \r
        \(attachmentBase64)\r
        --mix--\r

        """

    static func plain(_ n: Int) -> String {
        "From: Carol <carol@example.net>\r\nTo: me@example.com\r\nSubject: note \(n)\r\nDate: Thu, \(10 + n % 18) Oct 2024 08:00:\(String(format: "%02d", n % 60)) +0000\r\nMessage-ID: <e2e-note-\(n)@example.net>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nBody of note \(n).\r\n"
    }

    static var raws: [String] { [multipart] + (1...6).map(plain) }

    static var mailbox: [(raw: [UInt8], labels: [String]?)] {
        raws.map { (Array($0.utf8), ["INBOX", "UNREAD"]) }
    }
}

/// Whether `expected` appears in `actual` in order (other elements may come between).
func isSubsequence<T: Equatable>(_ expected: [T], of actual: [T]) -> Bool {
    var index = actual.startIndex
    for item in expected {
        guard let found = actual[index...].firstIndex(of: item) else { return false }
        index = found + 1
    }
    return true
}
