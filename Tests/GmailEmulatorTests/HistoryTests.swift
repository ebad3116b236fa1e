import Foundation
import GmailEmulator
import Testing

@Suite struct HistoryTests {
    static func history(_ h: Harness, _ start: String, _ extra: String = "") async throws -> Harness.Reply {
        try await h.get(Harness.me + "/history?startHistoryId=\(start)" + extra)
    }

    @Test("deliver, label add/remove, trash, delete → typed records in order, ids increasing with gaps")
    func recordsInOrder() async throws {
        try await withEmulator { h in
            let start = try await h.get(Harness.me + "/profile").json["historyId"]?.stringValue ?? ""
            #expect(try await HistoryTests.history(h, start).json["history"] == nil)
            let id = try await h.deliver(Fixtures.plain(30))
            _ = try await h.post(
                Harness.me + "/messages/\(id)/modify", json: #"{"addLabelIds":["STARRED"],"removeLabelIds":["UNREAD"]}"#
            )
            _ = try await h.post(Harness.me + "/messages/\(id)/modify", json: #"{"addLabelIds":["STARRED"]}"#)  // no-op
            _ = try await h.post(Harness.me + "/messages/\(id)/trash", json: "")
            #expect(try await h.request("DELETE", Harness.me + "/messages/\(id)").status == 204)
            let reply = try await HistoryTests.history(h, start).json
            let records = reply["history"]?.arrayValue ?? []
            #expect(records.count == 4)
            let ids = records.compactMap { $0["id"]?.stringValue.flatMap { UInt64($0) } }
            #expect(ids == ids.sorted() && Set(ids).count == 4)
            #expect(zip(ids, ids.dropFirst()).contains { $1 - $0 > 1 } || ids.count < 2)
            #expect(records[0]["messagesAdded"]?.arrayValue?.first?["message"]?["id"] == .string(id))
            #expect(records[1]["labelsAdded"]?.arrayValue?.first?["labelIds"] == .array([.string("STARRED")]))
            #expect(records[1]["labelsRemoved"]?.arrayValue?.first?["labelIds"] == .array([.string("UNREAD")]))
            #expect(records[2]["labelsAdded"]?.arrayValue?.first?["labelIds"] == .array([.string("TRASH")]))
            #expect(records[2]["labelsRemoved"]?.arrayValue?.first?["labelIds"] == .array([.string("INBOX")]))
            #expect(records[3]["messagesDeleted"]?.arrayValue?.first?["message"]?["id"] == .string(id))
            #expect(records.allSatisfy { $0["messages"]?.arrayValue?.first?["id"] == .string(id) })
            let profile = try await h.get(Harness.me + "/profile").json["historyId"]
            #expect(reply["historyId"] == profile)
            let onlyAdded = try await HistoryTests.history(h, start, "&historyTypes=messageAdded").json
            #expect(onlyAdded["history"]?.arrayValue?.count == 1)
            let paged = try await HistoryTests.history(h, start, "&maxResults=3").json
            #expect(paged["history"]?.arrayValue?.count == 3)
            let token = try #require(paged["nextPageToken"]?.stringValue)
            let second = try await HistoryTests.history(h, start, "&maxResults=3&pageToken=\(token)").json
            #expect(second["history"]?.arrayValue?.count == 1)
            #expect(second["nextPageToken"] == nil)
        }
    }

    @Test("retention: a start before the oldest retained record gets 404 with the exact body")
    func retention() async throws {
        try await withEmulator({ $0.historyRetention = 2 }) { h in
            let start = try await h.get(Harness.me + "/profile").json["historyId"]?.stringValue ?? ""
            for n in 0..<3 { _ = try await h.deliver(Fixtures.plain(50 + n)) }
            let reply = try await HistoryTests.history(h, start)
            #expect(reply.status == 404)
            #expect(
                reply.text
                    == #"{"error":{"code":404,"message":"Requested entity was not found.","errors":[{"message":"Requested entity was not found.","domain":"global","reason":"notFound"}],"status":"NOT_FOUND"}}"#
            )
            let now = try await h.get(Harness.me + "/profile").json["historyId"]?.stringValue ?? ""
            #expect(try await HistoryTests.history(h, now).status == 200)
            _ = try await h.deliver(Fixtures.plain(59))
            _ = try await h.control("expire-history", "{}")
            #expect(try await HistoryTests.history(h, now).status == 404)
        }
    }

    @Test("emptyHistoryPage fault: a page without history but with a token that continues")
    func emptyPage() async throws {
        try await withEmulator { h in
            let start = try await h.get(Harness.me + "/profile").json["historyId"]?.stringValue ?? ""
            _ = try await h.deliver(Fixtures.plain(60))
            _ = try await h.control(
                "faults", #"{"rules":[{"method":"history.list","probability":1,"kind":"emptyHistoryPage","count":1}]}"#,
                method: "PUT")
            let empty = try await HistoryTests.history(h, start).json
            #expect(empty["history"] == nil)
            let token = try #require(empty["nextPageToken"]?.stringValue)
            let next = try await HistoryTests.history(h, start, "&pageToken=\(token)").json
            #expect(next["history"]?.arrayValue?.count == 1)
        }
    }
}

@Suite struct PaginationTests {
    @Test("messages.list pages stay stable while mail is delivered between pages")
    func stablePages() async throws {
        try await withEmulator { h in
            var seen: [String] = []
            var token: String?
            var round = 0
            repeat {
                let query = "/messages?maxResults=2" + (token.map { "&pageToken=\($0)" } ?? "")
                let page = try await h.get(Harness.me + query).json
                seen += (page["messages"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
                token = page["nextPageToken"]?.stringValue
                // newer mail arrives mid-listing
                _ = try await h.deliver(Fixtures.plain(70 + round).replacingOccurrences(of: "2024", with: "2025"))
                round += 1
            } while token != nil
            #expect(seen.count == 7)
            #expect(Set(seen).count == 7)
            let total = try await h.get(Harness.me + "/messages?maxResults=600").json
            #expect(total["messages"]?.arrayValue?.count == 7 + round)
        }
    }
}
