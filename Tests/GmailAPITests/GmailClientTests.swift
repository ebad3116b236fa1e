import Foundation
import GmailAPI
import GmailModel
import Testing

@Suite struct GmailClientTests {
    static let profileJSON =
        #"{"emailAddress":"ann@example.com","messagesTotal":3,"threadsTotal":2,"historyId":"884211"}"#

    @Test("requests carry the bearer token, prettyPrint=false and the user path")
    func requestShape() async throws {
        let transport = ScriptedTransport(queue: [jsonResponse(200, Self.profileJSON)])
        let profile = try await makeClient(transport: transport).getProfile()
        #expect(profile.historyID == 884_211)
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.path == "/gmail/v1/users/me/profile")
        #expect(request.queryValues("prettyPrint") == ["false"])
        #expect(request.headers["authorization"] == "Bearer ya29.SECRET-ACCESS")
        #expect(request.timeoutSeconds >= 1)
    }

    @Test("list parameters: repeated labelIds, q escaped, maxResults 500, fields")
    func listParameters() async throws {
        let transport = ScriptedTransport(queue: [jsonResponse(200, #"{"resultSizeEstimate":0}"#)])
        let page = try await makeClient(transport: transport).listMessages(
            query: "from:a+b@x.org in:inbox", labelIDs: ["INBOX", "UNREAD"], includeSpamTrash: true,
            fields: "nextPageToken,messages/id")
        #expect(page.messages.isEmpty)
        let request = try #require(transport.requests.first)
        #expect(request.queryValues("labelIds") == ["INBOX", "UNREAD"])
        #expect(request.queryValues("q") == ["from:a+b@x.org in:inbox"])
        #expect(request.url.absoluteString.contains("q=from%3Aa%2Bb%40x.org%20in%3Ainbox"))
        #expect(request.queryValues("maxResults") == ["500"])
        #expect(request.queryValues("includeSpamTrash") == ["true"])
        #expect(request.queryValues("fields") == ["nextPageToken,messages/id"])
    }

    @Test("listAllMessages walks every page until there is no nextPageToken")
    func listsAllPages() async throws {
        let transport = ScriptedTransport(queue: [
            jsonResponse(
                200,
                #"{"messages":[{"id":"1","threadId":"t"},{"id":"2","threadId":"t"}],"nextPageToken":"p2","resultSizeEstimate":2}"#
            ),
            jsonResponse(200, #"{"messages":[{"id":"3","threadId":"u"}],"nextPageToken":"p3","resultSizeEstimate":1}"#),
            jsonResponse(200, #"{"resultSizeEstimate":0}"#),
        ])
        let refs = try await makeClient(transport: transport).listAllMessages(query: "-in:chats")
        #expect(refs.map(\.id) == ["1", "2", "3"])
        #expect(transport.requests.map { $0.queryValues("pageToken") } == [[], ["p2"], ["p3"]])
    }

    @Test("history: all four types, every page, an empty page with a token is followed; first and final ids reported")
    func historyPagination() async throws {
        let transport = ScriptedTransport(queue: [
            jsonResponse(
                200,
                #"{"history":[{"id":"101","messagesAdded":[{"message":{"id":"m1","threadId":"t"}}]}],"nextPageToken":"h2","historyId":"150"}"#
            ),
            jsonResponse(200, #"{"nextPageToken":"h3","historyId":"151"}"#),  // an empty page with a token: follow it
            jsonResponse(
                200, #"{"history":[{"id":"140","messagesDeleted":[{"message":{"id":"m1"}}]}],"historyId":"152"}"#),
        ])
        let listing = try await makeClient(transport: transport).listHistory(startHistoryID: 100)
        #expect(listing.records.map(\.id) == [101, 140])
        #expect(listing.pageCount == 3)
        #expect(listing.firstPageHistoryID == 150)
        #expect(listing.finalHistoryID == 152)
        let first = try #require(transport.requests.first)
        #expect(first.queryValues("historyTypes") == ["messageAdded", "messageDeleted", "labelAdded", "labelRemoved"])
        #expect(first.queryValues("startHistoryId") == ["100"])
        #expect(first.queryValues("maxResults") == ["500"])
        #expect(transport.requests.map { $0.queryValues("pageToken") } == [[], ["h2"], ["h3"]])
    }

    @Test("404 on history is historyExpired; 404 on a message is notFound; neither is retried")
    func notFoundMeanings() async throws {
        let transport = ScriptedTransport { request, _ in
            googleError(404, reason: "notFound", message: "Requested entity was not found.")
        }
        let client = makeClient(transport: transport)
        await #expect(throws: GmailAPIError.giveUp(.historyExpired)) { try await client.listHistory(startHistoryID: 1) }
        await #expect(throws: GmailAPIError.giveUp(.notFound(resource: "message"))) {
            try await client.getMessage(id: "gone")
        }
        #expect(transport.requests.count == 2)
    }

    @Test("transient failures retry with growing full-jitter backoff, then succeed")
    func retriesThenSucceeds() async throws {
        let sleeper = VirtualSleeper()
        let transport = ScriptedTransport(queue: [
            googleError(500, reason: "backendError"), googleError(503, reason: "backendError"),
            googleError(429, reason: "rateLimitExceeded"), jsonResponse(200, Self.profileJSON),
        ])
        _ = try await makeClient(transport: transport, sleeper: sleeper).getProfile()
        #expect(transport.requests.count == 4)
        #expect(sleeper.sleeps == [.seconds(1), .seconds(2), .seconds(4)])  // jitter pinned to its upper bound
    }

    @Test("attempts are bounded; the last transient error surfaces")
    func boundedAttempts() async throws {
        let sleeper = VirtualSleeper()
        let transport = ScriptedTransport { _, _ in googleError(503, reason: "backendError") }
        await #expect(throws: GmailAPIError.retryLater(.server(status: 503))) {
            try await makeClient(transport: transport, sleeper: sleeper, maxAttempts: 4).getProfile()
        }
        #expect(transport.requests.count == 4)
        #expect(sleeper.sleeps.count == 3)
        #expect(sleeper.sleeps.allSatisfy { $0 <= .seconds(32) })
    }

    @Test("a retrying(maxAttempts: 1) copy sends once and never sleeps; the original keeps its retries")
    func singleAttemptCopy() async throws {
        let sleeper = VirtualSleeper()
        let transport = ScriptedTransport { _, _ in googleError(503, reason: "backendError") }
        let client = makeClient(transport: transport, sleeper: sleeper, maxAttempts: 4)
        await #expect(throws: GmailAPIError.retryLater(.server(status: 503))) {
            try await client.retrying(maxAttempts: 1).getProfile()
        }
        #expect(transport.requests.count == 1)
        #expect(sleeper.sleeps.isEmpty)
        await #expect(throws: GmailAPIError.retryLater(.server(status: 503))) { try await client.getProfile() }
        #expect(transport.requests.count == 5)
    }

    @Test("network errors are transient and surface as .retryLater(.transport)")
    func networkErrors() async throws {
        let transport = ScriptedTransport { _, _ in throw URLError(.networkConnectionLost) }
        await #expect(throws: GmailAPIError.self) {
            try await makeClient(transport: transport, maxAttempts: 3).getProfile()
        }
        #expect(transport.requests.count == 3)
    }

    @Test("403 rate limit is retried; 403 insufficientPermissions and 400 are not")
    func permanentVersusRateLimit() async throws {
        let rate = ScriptedTransport(queue: [
            googleError(403, reason: "userRateLimitExceeded"), jsonResponse(200, Self.profileJSON),
        ])
        _ = try await makeClient(transport: rate).getProfile()
        #expect(rate.requests.count == 2)
        let denied = ScriptedTransport { _, _ in googleError(403, reason: "insufficientPermissions") }
        await #expect(throws: GmailAPIError.giveUp(.permissionDenied(reason: "insufficientPermissions"))) {
            try await makeClient(transport: denied).getProfile()
        }
        #expect(denied.requests.count == 1)
        let bad = ScriptedTransport { _, _ in googleError(400, reason: "invalidArgument", message: "Invalid label: X") }
        await #expect(throws: GmailAPIError.badRequest(reason: "Invalid label: X")) {
            _ = try await makeClient(transport: bad).modify(id: "m", add: ["X"])
        }
        #expect(bad.requests.count == 1)
    }

    @Test("Retry-After is honoured (raised above jitter) and capped at 64 s")
    func retryAfterHonoured() async throws {
        let sleeper = VirtualSleeper()
        let transport = ScriptedTransport(queue: [
            googleError(429, reason: "rateLimitExceeded", headers: ["Retry-After": "20"]),
            googleError(429, reason: "rateLimitExceeded", headers: ["Retry-After": "3600"]),
            jsonResponse(200, Self.profileJSON),
        ])
        _ = try await makeClient(transport: transport, sleeper: sleeper, random: FixedRandom(value: 0)).getProfile()
        #expect(sleeper.sleeps == [.seconds(20), .seconds(64)])
    }

    @Test("exhausted rate limits report the server's hint")
    func rateLimitedAfterRetries() async throws {
        let transport = ScriptedTransport { _, _ in
            googleError(429, reason: "rateLimitExceeded", headers: ["Retry-After": "9"])
        }
        await #expect(throws: GmailAPIError.retryLater(.rateLimited(retryAfter: .seconds(9)))) {
            try await makeClient(transport: transport, maxAttempts: 2).getProfile()
        }
    }

    @Test("401 → one token refresh → retry with the new token")
    func refreshOnce() async throws {
        let tokens = CountingTokenSource()
        let transport = ScriptedTransport(queue: [
            googleError(401, reason: "authError"), jsonResponse(200, Self.profileJSON),
        ])
        _ = try await makeClient(transport: transport, tokens: tokens).getProfile()
        #expect(await tokens.invalidations == 1)
        #expect(transport.requests.map { $0.headers["Authorization"] } == ["Bearer token-0", "Bearer token-1"])
    }

    @Test("a second 401 after the refresh is .logInAgain(.unauthorized), not a loop")
    func unauthorizedAfterRefresh() async throws {
        let tokens = CountingTokenSource()
        let transport = ScriptedTransport { _, _ in googleError(401, reason: "authError") }
        await #expect(throws: GmailAPIError.logInAgain(.unauthorized)) {
            try await makeClient(transport: transport, tokens: tokens).getProfile()
        }
        #expect(transport.requests.count == 2)
    }

    @Test("batchModify splits 2,500 ids into 1000 + 1000 + 500")
    func batchModifyChunks() async throws {
        let transport = ScriptedTransport { _, _ in HTTPResponse(status: 204) }
        let ids = (0..<2500).map { "m\($0)" }
        try await makeClient(transport: transport).batchModify(ids: ids, remove: ["INBOX"])
        #expect(transport.requests.count == 3)
        struct Body: Decodable {
            var ids: [String]
            var removeLabelIds: [String]?
        }
        let bodies = try transport.requests.map { try JSONDecoder().decode(Body.self, from: $0.body ?? Data()) }
        #expect(bodies.map(\.ids.count) == [1000, 1000, 500])
        #expect(bodies.flatMap(\.ids) == ids)
        #expect(bodies.allSatisfy { $0.removeLabelIds == ["INBOX"] })
        #expect(transport.requests.allSatisfy { $0.method == "POST" && $0.url.path.hasSuffix("/messages/batchModify") })
    }

    @Test("a 4xx on any batchModify chunk is a failure naming the unapplied ids")
    func batchModifyFailure() async throws {
        let transport = ScriptedTransport { _, index in
            index == 1
                ? googleError(400, reason: "invalidArgument", message: "Invalid label: X") : HTTPResponse(status: 204)
        }
        let ids = (0..<2500).map { "m\($0)" }
        do {
            try await makeClient(transport: transport).batchModify(ids: ids, add: ["X"])
            Issue.record("a failed chunk must throw")
        } catch GmailAPIError.giveUp(.batchPartsFailed(let failed, let first)) {
            #expect(failed == Array(ids[1000...]))
            #expect(first == .badRequest(reason: "Invalid label: X"))
        }
        #expect(transport.requests.count == 2)
    }

    @Test("getMessage sends format and repeated metadataHeaders; trash/untrash/modify post to the right paths")
    func messageEndpoints() async throws {
        let minimal = jsonResponse(200, #"{"id":"m1","threadId":"t","labelIds":["TRASH"]}"#)
        let transport = ScriptedTransport { _, _ in minimal }
        let client = makeClient(transport: transport)
        _ = try await client.getMessage(
            id: "m1", format: .metadata(headers: ["From", "Subject"]), fields: "id,payload")
        _ = try await client.trash(id: "m1")
        _ = try await client.untrash(id: "m1")
        _ = try await client.modify(id: "m1", add: ["STARRED"], remove: ["UNREAD"])
        let requests = transport.requests
        #expect(requests[0].queryValues("format") == ["metadata"])
        #expect(requests[0].queryValues("metadataHeaders") == ["From", "Subject"])
        #expect(requests[0].queryValues("fields") == ["id,payload"])
        #expect(requests[1].url.path == "/gmail/v1/users/me/messages/m1/trash" && requests[1].method == "POST")
        #expect(requests[2].url.path == "/gmail/v1/users/me/messages/m1/untrash")
        #expect(requests[3].bodyText == #"{"addLabelIds":["STARRED"],"removeLabelIds":["UNREAD"]}"#)
        #expect(requests[3].headers["content-type"] == "application/json")
    }

    @Test("attachments, labels and send-as decode")
    func smallReads() async throws {
        let transport = ScriptedTransport(queue: [
            jsonResponse(200, #"{"size":3,"data":"YWJj"}"#),
            jsonResponse(
                200,
                #"{"labels":[{"id":"INBOX","name":"INBOX","type":"system"},{"id":"Label_1","name":"Work","type":"user"}]}"#
            ),
            jsonResponse(200, #"{"sendAs":[{"sendAsEmail":"ann@example.com","isPrimary":true}]}"#),
        ])
        let client = makeClient(transport: transport)
        #expect(try await client.getAttachment(messageID: "m1", attachmentID: "att-1").data == "YWJj")
        #expect(try await client.listLabels().map(\.id) == ["INBOX", "Label_1"])
        #expect(try await client.listSendAs().first?.isPrimary == true)
        #expect(transport.requests[0].url.path == "/gmail/v1/users/me/messages/m1/attachments/att-1")
        #expect(transport.requests[2].url.path == "/gmail/v1/users/me/settings/sendAs")
    }

    @Test("a 200 with a body that breaks the schema is .giveUp(.decoding), not a crash")
    func decodingError() async throws {
        let transport = ScriptedTransport(queue: [jsonResponse(200, #"{"emailAddress":"a@b","historyId":"x"}"#)])
        await #expect(throws: GmailAPIError.self) { try await makeClient(transport: transport).getProfile() }
    }
}
