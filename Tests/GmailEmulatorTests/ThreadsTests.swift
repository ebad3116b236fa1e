import Foundation
import GmailEmulator
import Testing

/// `threads.list`, `threads.modify`, `threads.trash` and `threads.untrash` over HTTP, against the
/// fixture mailbox: six threads, one of them (note 1 and its reply from the account) with two messages.
@Suite struct ThreadsTests {
    static let notFoundBody =
        #"{"error":{"code":404,"message":"Requested entity was not found.","errors":[{"message":"Requested entity was not found.","domain":"global","reason":"notFound"}],"status":"NOT_FOUND"}}"#

    static func ids(_ reply: JSONValue, _ key: String = "threads") -> [String] {
        (reply[key]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }

    /// The thread of note 1 and the account's reply to it, and the ids of those two messages.
    static func noteOneThread(_ h: Harness) async throws -> (thread: String, messages: [String]) {
        let list = try await h.get(Harness.me + "/messages?q=subject:%22note%201%22").json
        let entries = list["messages"]?.arrayValue ?? []
        let thread = try #require(entries.first?["threadId"]?.stringValue)
        #expect(entries.count == 2 && entries.allSatisfy { $0["threadId"] == .string(thread) })
        return (thread, entries.compactMap { $0["id"]?.stringValue })
    }

    static func labels(_ h: Harness, _ id: String) async throws -> Set<String> {
        let message = try await h.get(Harness.me + "/messages/\(id)?format=minimal").json
        return Set((message["labelIds"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    @Test("threads.list pages newest first without repeats, with {id, snippet, historyId} and the estimate")
    func paging() async throws {
        try await withEmulator { h in
            let messages = try await h.get(Harness.me + "/messages").json["messages"]?.arrayValue ?? []
            var expected: [String] = []
            for case .string(let thread)? in messages.map({ $0["threadId"] }) where !expected.contains(thread) {
                expected.append(thread)
            }
            #expect(expected.count == 6)
            let first = try await h.get(Harness.me + "/threads?maxResults=4").json
            #expect(ThreadsTests.ids(first).count == 4)
            #expect(first["resultSizeEstimate"] == .int(6))
            let token = try #require(first["nextPageToken"]?.stringValue)
            let second = try await h.get(Harness.me + "/threads?maxResults=4&pageToken=\(token)").json
            #expect(second["nextPageToken"] == nil)
            #expect(ThreadsTests.ids(first) + ThreadsTests.ids(second) == expected)
            for entry in (first["threads"]?.arrayValue ?? []) + (second["threads"]?.arrayValue ?? []) {
                guard case .object(let pairs) = entry else {
                    Issue.record("not an object: \(entry)")
                    continue
                }
                #expect(Set(pairs.map(\.0)) == ["id", "snippet", "historyId"])
                #expect(entry["historyId"]?.stringValue.flatMap { UInt64($0) } != nil)
            }
            // The two-message thread carries its newest message's snippet and its largest history id.
            let noteOne = try await ThreadsTests.noteOneThread(h)
            let full = try await h.get(Harness.me + "/threads/\(noteOne.thread)?format=minimal").json
            let entry = try #require(first["threads"]?.arrayValue?.first { $0["id"] == .string(noteOne.thread) })
            #expect(entry["historyId"] == full["historyId"])
            #expect(entry["snippet"] == full["messages"]?.arrayValue?.last?["snippet"])
            #expect(entry["snippet"]?.stringValue?.contains("note 6") == true)
            let all = try await h.get(Harness.me + "/threads").json
            #expect(ThreadsTests.ids(all) == expected && all["nextPageToken"] == nil)
            #expect(try await h.get(Harness.me + "/threads?pageToken=garbage").status == 400)
            let messagesToken = try #require(
                try await h.get(Harness.me + "/messages?maxResults=1").json["nextPageToken"]?.stringValue)
            #expect(try await h.get(Harness.me + "/threads?pageToken=\(messagesToken)").status == 400)
        }
    }

    @Test("threads.list filters by q and labelIds through the threads' messages")
    func filters() async throws {
        try await withEmulator { h in
            let noteOne = try await ThreadsTests.noteOneThread(h)
            let bySubject = try await h.get(Harness.me + "/threads?q=subject:%22note%201%22").json
            #expect(ThreadsTests.ids(bySubject) == [noteOne.thread])
            #expect(bySubject["resultSizeEstimate"] == .int(1))
            let sent = try await h.get(Harness.me + "/threads?labelIds=SENT").json
            #expect(ThreadsTests.ids(sent) == [noteOne.thread])
            let lunch = try await h.get(Harness.me + "/messages?q=subject:lunch").json["messages"]?.arrayValue?.first
            let important = try await h.get(Harness.me + "/threads?labelIds=INBOX&labelIds=IMPORTANT").json
            #expect(ThreadsTests.ids(important) == [lunch?["threadId"]?.stringValue].compactMap(\.self))
            let none = try await h.get(Harness.me + "/threads?q=from:nobody@example.invalid").json
            #expect(none["threads"] == nil && none["resultSizeEstimate"] == .int(0))
            #expect(try await h.get(Harness.me + "/threads?includeSpamTrash=maybe").status == 400)
        }
    }

    @Test("includeSpamTrash: a thread is hidden only when all its messages are in SPAM or TRASH")
    func spamTrash() async throws {
        try await withEmulator { h in
            let noteOne = try await ThreadsTests.noteOneThread(h)
            let spam = try #require(
                try await h.get(Harness.me + "/messages?q=subject:%22note%205%22").json["messages"]?.arrayValue?
                    .first)
            let spamThread = try #require(spam["threadId"]?.stringValue)
            let spamId = try #require(spam["id"]?.stringValue)
            #expect(
                try await h.post(
                    Harness.me + "/messages/\(spamId)/modify",
                    json: #"{"addLabelIds":["SPAM"],"removeLabelIds":["INBOX"]}"#
                ).status == 200)
            // One of note 1's two messages in the trash keeps its thread listed.
            #expect(try await h.post(Harness.me + "/messages/\(noteOne.messages[0])/trash", json: "").status == 200)
            let listed = ThreadsTests.ids(try await h.get(Harness.me + "/threads").json)
            #expect(listed.count == 5 && listed.contains(noteOne.thread) && !listed.contains(spamThread))
            let everything = try await h.get(Harness.me + "/threads?includeSpamTrash=true").json
            #expect(ThreadsTests.ids(everything).count == 6 && everything["resultSizeEstimate"] == .int(6))
            #expect(ThreadsTests.ids(try await h.get(Harness.me + "/threads?labelIds=SPAM").json) == [spamThread])
            #expect(ThreadsTests.ids(try await h.get(Harness.me + "/threads?q=in:spam").json) == [spamThread])
            #expect(try await h.post(Harness.me + "/threads/\(noteOne.thread)/trash", json: "").status == 200)
            #expect(!ThreadsTests.ids(try await h.get(Harness.me + "/threads").json).contains(noteOne.thread))
            let trashed = ThreadsTests.ids(try await h.get(Harness.me + "/threads?labelIds=TRASH").json)
            #expect(trashed == [noteOne.thread])
        }
    }

    @Test("threads.list costs 10 units a page; threads.modify, trash and untrash 10 each")
    func quota() async throws {
        try await withEmulator { h in
            let noteOne = try await ThreadsTests.noteOneThread(h)
            _ = try await h.control("reset-quota", "{}")
            let first = try await h.get(Harness.me + "/threads?maxResults=4").json
            let token = try #require(first["nextPageToken"]?.stringValue)
            _ = try await h.get(Harness.me + "/threads?maxResults=4&pageToken=\(token)")
            _ = try await h.post(
                Harness.me + "/threads/\(noteOne.thread)/modify", json: #"{"addLabelIds":["STARRED"]}"#)
            _ = try await h.post(Harness.me + "/threads/\(noteOne.thread)/trash", json: "")
            _ = try await h.post(Harness.me + "/threads/\(noteOne.thread)/untrash", json: "")
            let stats = try await h.get("/_emulator/quota", token: nil).json
            #expect(stats["unitsByMethod"]?["threads.list"] == .int(20))
            for method in ["threads.modify", "threads.trash", "threads.untrash"] {
                #expect(stats["unitsByMethod"]?[method] == .int(10))
            }
            #expect(stats["unitsUsed"] == .int(50))
        }
    }

    @Test("threads.modify changes every message, one history record per changed message, and answers the thread")
    func modify() async throws {
        try await withEmulator { h in
            let noteOne = try await ThreadsTests.noteOneThread(h)
            let start = try await h.get(Harness.me + "/profile").json["historyId"]?.stringValue ?? ""
            let reply = try await h.post(
                Harness.me + "/threads/\(noteOne.thread)/modify",
                json: #"{"addLabelIds":["STARRED"],"removeLabelIds":["UNREAD"]}"#)
            #expect(reply.status == 200)
            #expect(reply.json["id"] == .string(noteOne.thread))
            let answered = reply.json["messages"]?.arrayValue ?? []
            #expect(Set(ThreadsTests.ids(reply.json, "messages")) == Set(noteOne.messages))
            #expect(answered.allSatisfy { $0["labelIds"]?.arrayValue?.contains(.string("STARRED")) == true })
            for id in noteOne.messages {
                let labels = try await ThreadsTests.labels(h, id)
                #expect(labels.contains("STARRED") && !labels.contains("UNREAD"))
            }
            let records = try await HistoryTests.history(h, start).json["history"]?.arrayValue ?? []
            #expect(records.count == 2)
            let touched = records.compactMap { $0["messages"]?.arrayValue?.first?["id"]?.stringValue }
            #expect(Set(touched) == Set(noteOne.messages))
            #expect(
                records.allSatisfy { $0["labelsAdded"]?.arrayValue?.first?["labelIds"] == .array([.string("STARRED")]) }
            )
            // Only the received message was unread; the account's own reply was not.
            #expect(records.filter { $0["labelsRemoved"] != nil }.count == 1)
            let newest = records.compactMap { $0["id"]?.stringValue.flatMap { UInt64($0) } }.max()
            #expect(reply.json["historyId"]?.stringValue.flatMap { UInt64($0) } == newest)
            let again = try await h.post(
                Harness.me + "/threads/\(noteOne.thread)/modify", json: #"{"addLabelIds":["STARRED"]}"#)
            #expect(again.status == 200)
            #expect(try await HistoryTests.history(h, start).json["history"]?.arrayValue?.count == 2)
            let bad = try await h.post(
                Harness.me + "/threads/\(noteOne.thread)/modify", json: #"{"addLabelIds":["SENT"]}"#)
            #expect(bad.status == 400)
        }
    }

    @Test("threads.trash and untrash act on every message; untrash restores INBOX only where trash removed it")
    func trashAndUntrash() async throws {
        try await withEmulator { h in
            let noteOne = try await ThreadsTests.noteOneThread(h)
            var inboxBefore: [String: Bool] = [:]
            for id in noteOne.messages { inboxBefore[id] = try await ThreadsTests.labels(h, id).contains("INBOX") }
            #expect(inboxBefore.values.filter(\.self).count == 1)
            let start = try await h.get(Harness.me + "/profile").json["historyId"]?.stringValue ?? ""
            let trashed = try await h.post(Harness.me + "/threads/\(noteOne.thread)/trash", json: "")
            #expect(trashed.status == 200 && trashed.json["id"] == .string(noteOne.thread))
            for id in noteOne.messages {
                let labels = try await ThreadsTests.labels(h, id)
                #expect(labels.contains("TRASH") && !labels.contains("INBOX"))
            }
            let records = try await HistoryTests.history(h, start).json["history"]?.arrayValue ?? []
            #expect(records.count == 2)
            #expect(
                records.allSatisfy { $0["labelsAdded"]?.arrayValue?.first?["labelIds"] == .array([.string("TRASH")]) })
            #expect(records.allSatisfy { $0["messagesDeleted"] == nil })
            let untrashed = try await h.post(Harness.me + "/threads/\(noteOne.thread)/untrash", json: "")
            #expect(untrashed.status == 200)
            for id in noteOne.messages {
                let labels = try await ThreadsTests.labels(h, id)
                #expect(!labels.contains("TRASH") && labels.contains("INBOX") == inboxBefore[id])
            }
            #expect(try await HistoryTests.history(h, start).json["history"]?.arrayValue?.count == 4)
        }
    }

    @Test("an unknown thread id is 404 with Gmail's body for every thread method; a malformed one is 400")
    func unknownThread() async throws {
        try await withEmulator { h in
            let unknown = "00000000deadbeef"
            for reply in [
                try await h.get(Harness.me + "/threads/\(unknown)"),
                try await h.post(Harness.me + "/threads/\(unknown)/modify", json: #"{"addLabelIds":["STARRED"]}"#),
                try await h.post(Harness.me + "/threads/\(unknown)/trash", json: ""),
                try await h.post(Harness.me + "/threads/\(unknown)/untrash", json: ""),
            ] {
                #expect(reply.status == 404)
                #expect(reply.text == ThreadsTests.notFoundBody)
            }
            #expect(try await h.post(Harness.me + "/threads/not-an-id/trash", json: "").status == 400)
        }
    }

    @Test("thread methods work inside a batch, each part on its own")
    func batch() async throws {
        try await withEmulator { h in
            let body = BatchTests.body([
                ("t-1", "GET /gmail/v1/users/me/threads?maxResults=2"),
                ("t-2", "GET /gmail/v1/users/me/threads/00000000deadbeef"),
            ])
            let reply = try await h.request(
                "POST", "/batch/gmail/v1", body: body, contentType: "multipart/mixed; boundary=cm_7f3a")
            #expect(reply.status == 200)
            let text = reply.text
            let first = try #require(text.range(of: "Content-ID: <response-t-1>"))
            let second = try #require(text.range(of: "Content-ID: <response-t-2>"))
            #expect(text[first.upperBound..<second.lowerBound].contains("HTTP/1.1 200 OK"))
            #expect(text[first.upperBound..<second.lowerBound].contains("\"resultSizeEstimate\":6"))
            #expect(text[second.upperBound...].contains("HTTP/1.1 404 Not Found"))
        }
    }
}
