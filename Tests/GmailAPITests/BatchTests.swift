import Foundation
import GmailAPI
import Synchronization
import Testing

/// Reads the (Content-ID, message id) pairs out of a batch request body.
func batchItems(_ request: HTTPRequest) -> [(contentID: String, messageID: String)] {
    var items: [(String, String)] = []
    var contentID: String?
    for line in request.bodyText.components(separatedBy: "\r\n") {
        if line.hasPrefix("Content-ID: <") { contentID = String(line.dropFirst("Content-ID: <".count).dropLast()) }
        if line.hasPrefix("GET "), let contentID {
            let path = line.split(separator: " ")[1]
            let id = path.split(separator: "?")[0].split(separator: "/").last.map(String.init) ?? ""
            items.append((contentID, id))
        }
    }
    return items
}

/// A multipart/mixed batch response in Google's shape, as the contract's batch example has it.
func batchResponse(_ parts: [(contentID: String, status: Int, body: String)], boundary: String = "batch_ZXhhbXBsZQ")
    -> HTTPResponse
{
    var text = "\r\n"
    for part in parts {
        text += "--\(boundary)\r\nContent-Type: application/http\r\nContent-ID: <response-\(part.contentID)>\r\n\r\n"
        text += "HTTP/1.1 \(part.status) X\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n\(part.body)\r\n"
    }
    text += "--\(boundary)--\r\n"
    return HTTPResponse(
        status: 200, headers: ["Content-Type": "multipart/mixed; boundary=\(boundary)"], body: Data(text.utf8))
}

func messageJSON(_ id: String) -> String {
    #"{"id":"\#(id)","threadId":"t","labelIds":["INBOX"],"historyId":"884240","internalDate":"1731488400000"}"#
}

@Suite struct BatchTests {
    @Test("the request body is multipart/mixed with one application/http GET per id, path-only request lines")
    func requestFormat() {
        let request = BatchRequest(
            boundary: "cm_7f3a",
            parts: [
                .init(contentID: "item-0", pathAndQuery: "/gmail/v1/users/me/messages/a?format=minimal"),
                .init(contentID: "item-1", pathAndQuery: "/gmail/v1/users/me/messages/b?format=minimal"),
            ])
        let expected =
            "--cm_7f3a\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <item-0>\r\n\r\n"
            + "GET /gmail/v1/users/me/messages/a?format=minimal HTTP/1.1\r\n\r\n"
            + "--cm_7f3a\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <item-1>\r\n\r\n"
            + "GET /gmail/v1/users/me/messages/b?format=minimal HTTP/1.1\r\n\r\n"
            + "--cm_7f3a--\r\n"
        #expect(String(decoding: request.encode(), as: UTF8.self) == expected)
        #expect(request.contentType == "multipart/mixed; boundary=cm_7f3a")
    }

    @Test("the contract's example response parses: ids, statuses, bodies; quoted boundary and bare LF accepted")
    func parsesResponse() throws {
        let response = batchResponse([("cm-1", 200, messageJSON("a")), ("cm-2", 404, #"{"error":{"code":404}}"#)])
        let parts = try BatchResponseParser.parse(body: response.body, contentType: response.headers["content-type"])
        #expect(parts.map(\.contentID) == ["cm-1", "cm-2"])
        #expect(parts.map(\.status) == [200, 404])
        #expect(String(decoding: parts[0].body, as: UTF8.self) == messageJSON("a"))
        let lf = String(decoding: response.body, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        let again = try BatchResponseParser.parse(
            body: Data(lf.utf8), contentType: #"multipart/mixed; boundary="batch_ZXhhbXBsZQ""#)
        #expect(again.map(\.status) == [200, 404])
        #expect(throws: GmailAPIError.self) {
            try BatchResponseParser.parse(body: response.body, contentType: "application/json")
        }
    }

    @Test("a 204 part with no body parses")
    func emptyPart() throws {
        let text =
            "--b\r\nContent-Type: application/http\r\nContent-ID: <response-item-0>\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n--b--\r\n"
        let parts = try BatchResponseParser.parse(body: Data(text.utf8), contentType: "multipart/mixed; boundary=b")
        #expect(parts == [BatchResponsePart(contentID: "item-0", status: 204, headers: [:], body: Data())])
    }

    @Test("mixed 200/404/500/429 parts: only the transient failures are re-sent, in a new smaller batch")
    func retriesOnlyFailedParts() async throws {
        let sleeper = VirtualSleeper()
        let transport = ScriptedTransport { request, index in
            let items = batchItems(request)
            return batchResponse(
                items.map { item in
                    switch (item.messageID, index) {
                    case ("b", _):
                        (
                            item.contentID, 404,
                            #"{"error":{"code":404,"errors":[{"reason":"notFound"}],"status":"NOT_FOUND"}}"#
                        )
                    case ("c", 0):
                        (item.contentID, 500, #"{"error":{"code":500,"errors":[{"reason":"backendError"}]}}"#)
                    case ("d", 0):
                        (item.contentID, 429, #"{"error":{"code":429,"errors":[{"reason":"rateLimitExceeded"}]}}"#)
                    default: (item.contentID, 200, messageJSON(item.messageID))
                    }
                })
        }
        let client = makeClient(transport: transport, sleeper: sleeper)
        let results = try await client.getMessages(ids: ["a", "b", "c", "d", "a"], format: .minimal)
        #expect(transport.requests.count == 2)
        #expect(batchItems(transport.requests[0]).map(\.messageID) == ["a", "b", "c", "d"])
        #expect(batchItems(transport.requests[1]).map(\.messageID) == ["c", "d"])
        #expect(transport.requests.allSatisfy { $0.url.path == "/batch/gmail/v1" && $0.method == "POST" })
        #expect(transport.requests[0].headers["Content-Type"]?.hasPrefix("multipart/mixed; boundary=") == true)
        #expect(results.count == 4)
        #expect(try results["a"]?.get().id == "a")
        #expect(try results["c"]?.get().id == "c")
        #expect(try results["d"]?.get().id == "d")
        guard case .failure(let error)? = results["b"] else {
            Issue.record("a 404 part must not be a success")
            return
        }
        #expect(error == .giveUp(.notFound(resource: "message")))
        #expect(sleeper.sleeps == [.seconds(1)])
    }

    @Test("a part that stays transient fails after maxAttempts, never as success")
    func persistentPartFailure() async throws {
        let transport = ScriptedTransport { request, _ in
            batchResponse(
                batchItems(request).map { item in
                    item.messageID == "x"
                        ? (item.contentID, 503, "{}") : (item.contentID, 200, messageJSON(item.messageID))
                })
        }
        let results = try await makeClient(transport: transport, maxAttempts: 3).getMessages(ids: ["ok", "x"])
        #expect(transport.requests.count == 3)
        #expect(
            results["x"].map { if case .failure(.retryLater(.server(status: 503))) = $0 { true } else { false } }
                == true)
        #expect(try results["ok"]?.get().id == "ok")
    }

    @Test("ids are split into batches of batchSize")
    func splitsIntoBatches() async throws {
        let transport = ScriptedTransport { request, _ in
            batchResponse(batchItems(request).map { ($0.contentID, 200, messageJSON($0.messageID)) })
        }
        let ids = (0..<120).map { "m\($0)" }
        let results = try await makeClient(transport: transport, batchSize: 50).getMessages(ids: ids)
        // Batches fly concurrently, so they may reach the transport in any order.
        #expect(transport.requests.map { batchItems($0).count }.sorted(by: >) == [50, 50, 20])
        #expect(results.count == 120)
    }

    @Test("a whole-batch error is handled like any request: retried, then thrown")
    func wholeBatchError() async throws {
        let transport = ScriptedTransport { _, _ in
            googleError(400, reason: nil, message: "Inner request count exceeds the limit. Received: 101, Limit: 100")
        }
        await #expect(throws: GmailAPIError.self) { try await makeClient(transport: transport).getMessages(ids: ["a"]) }
        #expect(transport.requests.count == 1)
    }

    @Test("inner 401 parts refresh the token once and are re-sent")
    func innerUnauthorized() async throws {
        let tokens = CountingTokenSource()
        let transport = ScriptedTransport { request, index in
            batchResponse(
                batchItems(request).map { item in
                    index == 0 && item.messageID == "b"
                        ? (item.contentID, 401, "{}") : (item.contentID, 200, messageJSON(item.messageID))
                })
        }
        let results = try await makeClient(transport: transport, tokens: tokens).getMessages(ids: ["a", "b"])
        #expect(await tokens.invalidations == 1)
        #expect(batchItems(transport.requests[1]).map(\.messageID) == ["b"])
        #expect(transport.requests[1].headers["Authorization"] == "Bearer token-1")
        #expect(try results["b"]?.get().id == "b")
    }

    @Test("parts without Content-IDs are matched by position")
    func positionFallback() async throws {
        let transport = ScriptedTransport { request, _ in
            var response = batchResponse(batchItems(request).map { ($0.contentID, 200, messageJSON($0.messageID)) })
            let text = String(decoding: response.body, as: UTF8.self).replacingOccurrences(
                of: #"Content-ID: <response-item-\d+>\r\n"#, with: "", options: .regularExpression)
            response.body = Data(text.utf8)
            return response
        }
        let results = try await makeClient(transport: transport).getMessages(ids: ["x", "y"])
        #expect(try results["x"]?.get().id == "x")
        #expect(try results["y"]?.get().id == "y")
    }
}
