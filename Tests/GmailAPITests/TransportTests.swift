import Foundation
import GmailAPI
import Logging
import Synchronization
import Testing

@Suite struct TransportTests {
    @Test("timeouts round up to whole seconds, at least 1")
    func wholeSeconds() {
        #expect(URLSessionTransport.wholeSeconds(0) == 1)
        #expect(URLSessionTransport.wholeSeconds(0.5) == 1)
        #expect(URLSessionTransport.wholeSeconds(1.2) == 2)
        #expect(URLSessionTransport.wholeSeconds(30) == 30)
        #expect(URLSessionTransport.wholeSeconds(.infinity) == 1)
    }

    @Test("headers look up case-insensitively and keep repeats")
    func headers() {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        headers.add("Received", "a")
        headers.add("received", "b")
        #expect(headers["content-type"] == "application/json")
        #expect(headers.fields.filter { $0.name.lowercased() == "received" }.count == 2)
        headers.set("CONTENT-TYPE", "text/html")
        #expect(headers["Content-Type"] == "text/html")
    }

    @Test("request descriptions redact the bearer token")
    func redactedDescription() {
        let request = HTTPRequest(
            method: "GET", url: URL(string: "http://x/y")!, headers: ["Authorization": "Bearer ya29.SECRET"])
        #expect(!request.description.contains("SECRET"))
        #expect(request.description.contains("<redacted>"))
    }

    @Test("URLSessionTransport returns non-2xx as a response, with body and case-insensitive headers")
    func urlSessionAgainstLoopback() async throws {
        let receiver = try LoopbackReceiver()
        // The receiver answers on its own thread from here on; the time-outs below only bound a broken run.
        let waiter = receiver.startServing(expectedState: "s")
        let transport = URLSessionTransport()
        let notFound = try await transport.send(
            HTTPRequest(method: "GET", url: URL(string: "\(receiver.redirectURI)/favicon.ico")!, timeoutSeconds: 300))
        #expect(notFound.status == 404)
        let ok = try await transport.send(
            HTTPRequest(
                method: "GET", url: URL(string: "\(receiver.redirectURI)/?code=c&state=s")!, timeoutSeconds: 300)
        )
        #expect(ok.status == 200)
        #expect(ok.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(String(decoding: ok.body, as: UTF8.self).contains("signed in"))
        #expect(try await waiter.code() == "c")
    }

    @Test("a refused connection throws (it is not a response)")
    func refused() async throws {
        let port: UInt16
        do {
            let receiver = try LoopbackReceiver()
            port = receiver.port
        }  // closed again: nothing listens there now
        await #expect(throws: (any Error).self) {
            try await URLSessionTransport().send(
                HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/")!, timeoutSeconds: 2))
        }
    }
}

/// Where captured log lines go; shared by every copy of the handler.
final class LineSink: Sendable {
    let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// Captures log lines so tests can assert that no token is ever logged.
struct CapturingLogHandler: LogHandler {
    let sink: LineSink
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        sink.append("\(event.level) \(event.message) \(event.metadata ?? [:])")
    }
}

@Suite struct LoggingHygieneTests {
    @Test("retries and refreshes are logged without the token")
    func noTokenInLogs() async throws {
        let sink = LineSink()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(sink: sink) }
        let transport = ScriptedTransport(queue: [
            googleError(401, reason: "authError"), googleError(503, reason: "backendError"),
            jsonResponse(200, GmailClientTests.profileJSON),
        ])
        let client = GmailClient(
            configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!), transport: transport,
            tokens: StaticTokenSource(token: "ya29.SECRET-ACCESS"), pacer: .unlimited(), sleeper: VirtualSleeper(),
            random: FixedRandom(value: 0), logger: logger)
        _ = try await client.getProfile()
        #expect(sink.all.count >= 2)
        #expect(sink.all.allSatisfy { !$0.contains("SECRET") })
    }
}
