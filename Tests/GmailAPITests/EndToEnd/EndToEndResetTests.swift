import Foundation
import GmailAPI
import GmailEmulator
import Testing

/// Connection resets on a kept-alive connection: the error must surface at once, never after the timeout.
/// A single request tells the two apart by the error it ends with; the retried run by time, with a
/// 120 s timeout against a 90 s bound, so far apart that a loaded machine cannot blur them.
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
            // A long timeout, so a reset that waited for it would stand out from any slowness of a busy
            // machine: the run must end well before one timeout has passed.
            let client = e.client(batchSize: 10, timeoutSeconds: 120)
            let ids = try await client.listAllMessages().map(\.id)
            try await e.faults(
                #"[{"method": "batch", "kind": "dropBeforeBody", "count": 2}, {"method": "batch", "kind": "drop", "count": 2}]"#
            )
            let start = ContinuousClock.now
            let results = try await client.getMessages(ids: ids, format: .minimal)
            #expect(ContinuousClock.now - start < .seconds(90), "resets must not wait for the 120 s timeout")
            #expect(results.count == ids.count)
            for id in ids { #expect((try? results[id]?.get())?.id == id) }
            let dropped = await e.requestLog().filter { $0.gmailMethod == "batch" && $0.status == 0 }
            #expect(dropped.count == 4)
        }
    }
}
