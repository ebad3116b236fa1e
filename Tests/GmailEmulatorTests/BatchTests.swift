import Foundation
import GmailEmulator
import Testing

@Suite struct BatchTests {
    static func body(_ calls: [(String, String)], boundary: String = "cm_7f3a") -> [UInt8] {
        var text = ""
        for (contentID, line) in calls {
            text +=
                "--\(boundary)\r\nContent-Type: application/http\r\nContent-ID: <\(contentID)>\r\n\r\n\(line) HTTP/1.1\r\n\r\n"
        }
        return Array((text + "--\(boundary)--\r\n").utf8)
    }

    @Test("a batch with a good and an unknown id answers 200 and 404 parts in order")
    func mixedParts() async throws {
        try await withEmulator { h in
            let id = try await FormatTests.lunchId(h)
            let body = BatchTests.body([
                ("cm-1", "GET /gmail/v1/users/me/messages/\(id)?format=minimal"),
                ("cm-2", "GET /gmail/v1/users/me/messages/00000000deadbeef?format=minimal"),
            ])
            for path in ["/batch/gmail/v1", "/batch"] {
                let reply = try await h.request(
                    "POST", path, body: body, contentType: "multipart/mixed; boundary=cm_7f3a")
                #expect(reply.status == 200)
                let contentType = try #require(reply.headers["content-type"])
                #expect(contentType.hasPrefix("multipart/mixed; boundary=batch_"))
                let text = reply.text
                let first = try #require(text.range(of: "Content-ID: <response-cm-1>"))
                let second = try #require(text.range(of: "Content-ID: <response-cm-2>"))
                #expect(first.lowerBound < second.lowerBound)
                #expect(text[first.upperBound..<second.lowerBound].contains("HTTP/1.1 200 OK"))
                #expect(text[first.upperBound..<second.lowerBound].contains("\"id\":\"\(id)\""))
                #expect(text[second.upperBound...].contains("HTTP/1.1 404 Not Found"))
                #expect(
                    text[second.upperBound...].contains(
                        #"{"error":{"code":404,"message":"Requested entity was not found.""#))
            }
        }
    }

    @Test("more than 100 parts fail the whole batch with 400 INVALID_ARGUMENT")
    func tooMany() async throws {
        try await withEmulator { h in
            let calls = (0..<101).map { ("c\($0)", "GET /gmail/v1/users/me/profile") }
            let reply = try await h.request(
                "POST", "/batch/gmail/v1", body: BatchTests.body(calls),
                contentType: "multipart/mixed; boundary=cm_7f3a")
            #expect(reply.status == 400)
            #expect(
                reply.text
                    == #"{"error":{"code":400,"message":"Inner request count exceeds the limit. Received: 101, Limit: 100","status":"INVALID_ARGUMENT"}}"#
            )
        }
    }
}
