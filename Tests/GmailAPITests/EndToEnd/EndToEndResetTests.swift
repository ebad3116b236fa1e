import Foundation
import GmailAPI
import GmailEmulator
import Synchronization
import Testing

/// Connection resets on a kept-alive connection: the error must surface at once, never after the timeout.
/// Each test tells the two apart by the error a failed request ends with, never by how long it took, so a
/// loaded machine cannot blur them.
@Suite struct EndToEndResetTests {
    static let batchBody = Data(
        "--b\r\nContent-Type: application/http\r\nContent-ID: <item-0>\r\n\r\nGET /gmail/v1/users/me/profile\r\n\r\n--b--\r\n"
            .utf8)

    @Test(
        "URLSessionTransport: a batch POST reset before or after its body is read fails at once, though connections were reused",
        arguments: ["dropBeforeBody", "drop"])
    func resetBodyRequestFailsAtOnce(kind: String) async throws {
        try await withEmulator { e in
            let transport = URLSessionTransport()
            let auth: HTTPHeaders = [
                "Authorization": "Bearer \(EndToEnd.staticToken)", "Content-Type": "multipart/mixed; boundary=b",
            ]
            let batch = HTTPRequest(
                method: "POST", url: e.baseURL.appendingPathComponent("batch/gmail/v1"), headers: auth,
                body: Self.batchBody, timeoutSeconds: 60)
            // Earlier requests of both kinds leave connections behind for the next ones.
            #expect(
                try await transport.send(
                    HTTPRequest(
                        method: "GET", url: e.baseURL.appendingPathComponent("gmail/v1/users/me/profile"), headers: auth
                    )
                ).status == 200)
            #expect(try await transport.send(batch).status == 200)
            try await e.faults(#"[{"method": "batch", "kind": "\#(kind)", "count": 1}]"#)
            let error = await #expect(throws: URLError.self) { _ = try await transport.send(batch) }
            #expect(error?.code != .timedOut, "the reset surfaced only when the time-out fired")
            #expect(try await transport.send(batch).status == 200, "the next request goes through")
        }
    }

    @Test("getMessages: batches reset before and after their bodies are read are retried; every message arrives")
    func getMessagesSurvivesResets() async throws {
        try await withEmulator({ $0.mailbox = .synthetic(count: 40) }) { e in
            let transport = FailureRecordingTransport()
            let client = e.client(batchSize: 10, timeoutSeconds: 120, transport: transport)
            let ids = try await client.listAllMessages().map(\.id)
            try await e.faults(
                #"[{"method": "batch", "kind": "dropBeforeBody", "count": 2}, {"method": "batch", "kind": "drop", "count": 2}]"#
            )
            let results = try await client.getMessages(ids: ids, format: .minimal)
            let failures = transport.failures
            #expect(failures.count == 4, "one failed request per reset: \(failures)")
            #expect(!failures.contains(.timedOut), "a reset surfaced only when the time-out fired: \(failures)")
            #expect(results.count == ids.count)
            for id in ids { #expect((try? results[id]?.get())?.id == id) }
            let dropped = await e.requestLog().filter { $0.gmailMethod == "batch" && $0.status == 0 }
            #expect(dropped.count == 4)
        }
    }
}

/// URLSessionTransport, keeping the code of every request that ended without a response.
final class FailureRecordingTransport: HTTPTransport {
    private let inner = URLSessionTransport()
    private let recorded = Mutex<[URLError.Code]>([])

    var failures: [URLError.Code] { recorded.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            return try await inner.send(request)
        } catch {
            recorded.withLock { $0.append((error as? URLError)?.code ?? .unknown) }
            throw error
        }
    }
}
