import Foundation
import GmailEmulator
import GmailModel
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `messages.send` over HTTP: Gmail's header edits, labels, history, threading rule, limits and the
/// commit-then-fail faults.
@Suite struct SendTests {
    static func message(
        from: String = "Me <me@example.com>", to: String? = "Ann <ann@example.org>", subject: String = "hello",
        extra: String = "", body: String = "Hello.\r\n"
    ) -> String {
        "From: \(from)\r\n" + (to.map { "To: \($0)\r\n" } ?? "") + "Subject: \(subject)\r\n"
            + "Message-ID: <client-\(subject.filter(\.isLetter))@example.com>\r\n\(extra)"
            + "Content-Type: text/plain; charset=utf-8\r\n\r\n\(body)"
    }

    static func send(_ h: Harness, _ raw: String, threadId: String? = nil) async throws -> Harness.Reply {
        let encoded = Base64URL.encode(Array(raw.utf8), padded: false)
        let thread = threadId.map { #","threadId":"\#($0)""# } ?? ""
        return try await h.post(Harness.me + "/messages/send", json: #"{"raw":"\#(encoded)"\#(thread)}"#)
    }

    static func header(_ h: Harness, _ id: String, _ name: String) async throws -> String? {
        let reply = try await h.get(Harness.me + "/messages/\(id)?format=metadata&metadataHeaders=\(name)").json
        return reply["payload"]?["headers"]?.arrayValue?.first?["value"]?.stringValue
    }

    static func stored(_ h: Harness, _ id: String) async throws -> String {
        let reply = try await h.get(Harness.me + "/messages/\(id)?format=raw").json
        return String(decoding: Base64URL.decode(reply["raw"]?.stringValue ?? "") ?? [], as: UTF8.self)
    }

    static func count(_ h: Harness, subject: String) async throws -> Int64? {
        try await h.get(Harness.me + "/messages?q=subject:\(subject)").json["resultSizeEstimate"]?.intValue
    }

    static func lunch(_ h: Harness) async throws -> (id: String, threadId: String) {
        let id = try await FormatTests.lunchId(h)
        let thread = try await h.get(Harness.me + "/messages/\(id)?format=minimal").json["threadId"]?.stringValue
        return (id, try #require(thread))
    }

    @Test("JSON send: SENT, 100 units, Message-ID replaced, Bcc removed, a messageAdded record with SENT")
    func jsonSend() async throws {
        try await withEmulator { h in
            let start = try #require(try await h.get(Harness.me + "/profile").json["historyId"]?.stringValue)
            let raw = Self.message(extra: "Bcc: Secret <secret@example.net>\r\n")
            let reply = try await Self.send(h, raw)
            #expect(reply.status == 200)
            let id = try #require(reply.json["id"]?.stringValue)
            #expect(
                reply.json
                    == .object([
                        ("id", .string(id)), ("threadId", .string(id)), ("labelIds", .array([.string("SENT")])),
                    ])
            )
            let units = try await h.control("quota", "", method: "GET").json["unitsByMethod"]?["messages.send"]
            #expect(units?.intValue == 100)

            let messageID = try #require(try await Self.header(h, id, "Message-ID"))
            #expect(!raw.contains(messageID) && messageID.hasSuffix("@mail.gmail.com>"))
            let stored = try await Self.stored(h, id)
            #expect(!stored.contains("Bcc") && !stored.contains("secret@example.net"))
            #expect(stored.contains("To: Ann <ann@example.org>\r\n") && stored.hasSuffix("\r\n\r\nHello.\r\n"))

            let history = try await h.get(
                Harness.me + "/history?startHistoryId=\(start)&labelId=SENT&historyTypes=messageAdded"
            ).json
            let records = history["history"]?.arrayValue ?? []
            #expect(records.count == 1)
            let added = records.first?["messagesAdded"]?.arrayValue?.first?["message"]
            #expect(added?["id"]?.stringValue == id && added?["labelIds"] == .array([.string("SENT")]))
            #expect(history["historyId"]?.stringValue == records.first?["id"]?.stringValue)
        }
    }

    @Test("From naming neither the account nor an alias becomes the primary address; an alias is kept")
    func fromRewrite() async throws {
        try await withEmulator({ $0.aliases = ["alias@example.com"] }) { h in
            let foreign = try await Self.send(h, Self.message(from: "Mallory <boss@example.org>", subject: "one"))
            let foreignId = try #require(foreign.json["id"]?.stringValue)
            #expect(try await Self.header(h, foreignId, "From") == #""Mallory" <me@example.com>"#)
            let alias = try await Self.send(h, Self.message(from: "Me <alias@example.com>", subject: "two"))
            let aliasId = try #require(alias.json["id"]?.stringValue)
            #expect(try await Self.header(h, aliasId, "From") == "Me <alias@example.com>")
        }
    }

    @Test("mail to the account's own address is also delivered: UNREAD, SENT and INBOX")
    func sendToSelf() async throws {
        try await withEmulator { h in
            let reply = try await Self.send(h, Self.message(to: "Me <ME@example.com>"))
            #expect(reply.json["labelIds"] == .array([.string("UNREAD"), .string("SENT"), .string("INBOX")]))
        }
    }

    @Test("a reply joins the thread only with its threadId, a reference into it and the same subject")
    func threading() async throws {
        try await withEmulator { h in
            let lunch = try await Self.lunch(h)
            let reference = "In-Reply-To: <lunch-1@example.org>\r\nReferences: <lunch-1@example.org>\r\n"
            func thread(_ raw: String, _ threadId: String?) async throws -> (String?, String?) {
                let json = try await Self.send(h, raw, threadId: threadId).json
                return (json["id"]?.stringValue, json["threadId"]?.stringValue)
            }
            let joined = try await thread(Self.message(subject: "RE: Fwd:  Lunch", extra: reference), lunch.threadId)
            #expect(joined.1 == lunch.threadId)
            let noThreadId = try await thread(Self.message(subject: "Re: lunch", extra: reference), nil)
            #expect(noThreadId.1 != nil && noThreadId.1 == noThreadId.0)
            let otherReference = try await thread(
                Self.message(subject: "Re: lunch", extra: "In-Reply-To: <elsewhere@example.org>\r\n"), lunch.threadId)
            #expect(otherReference.1 != nil && otherReference.1 == otherReference.0)
            let otherSubject = try await thread(Self.message(subject: "Re: dinner", extra: reference), lunch.threadId)
            #expect(otherSubject.1 != nil && otherSubject.1 == otherSubject.0)

            let before = try await h.get(Harness.me + "/profile").json["messagesTotal"]
            let unknown = try await Self.send(
                h, Self.message(subject: "Re: lunch", extra: reference), threadId: "00000000deadbeef")
            #expect(unknown.status == 404)
            #expect(try await h.get(Harness.me + "/profile").json["messagesTotal"] == before)
        }
    }

    @Test("a reply joins the thread whatever language its client writes the reply prefix in")
    func threadingAcrossLanguages() async throws {
        try await withEmulator { h in
            let lunch = try await Self.lunch(h)
            let reference = "In-Reply-To: <lunch-1@example.org>\r\n"
            let chinese = "=?UTF-8?B?" + Data("回复：Lunch".utf8).base64EncodedString() + "?="
            for subject in ["Odp: Lunch", "Ynt: Lunch", "RIF: Lunch", "SV: VS: Lunch", "Re[2]: AW: Lunch", chinese] {
                let json = try await Self.send(
                    h, Self.message(subject: subject, extra: reference), threadId: lunch.threadId
                )
                .json
                #expect(json["threadId"]?.stringValue == lunch.threadId, "\(subject)")
            }
            let other = try await Self.send(
                h, Self.message(subject: "Odp: Lunches", extra: reference), threadId: lunch.threadId)
            #expect(other.json["threadId"]?.stringValue != lunch.threadId)
        }
    }

    @Test("the upload path: multipart/related keeps the message bytes exactly; media has no metadata")
    func uploadPaths() async throws {
        try await withEmulator { h in
            let lunch = try await Self.lunch(h)
            let body = "--not-the-boundary\r\nline with a lone LF\nand bytes \u{00e9}\r\n"
            let raw = Self.message(
                subject: "Re: lunch", extra: "In-Reply-To: <lunch-1@example.org>\r\n", body: body)
            let boundary = "upload_b"
            let multipart =
                Array(
                    "--\(boundary)\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{\"threadId\":\"\(lunch.threadId)\"}\r\n--\(boundary)\r\nContent-Type: message/rfc822\r\n\r\n"
                        .utf8) + Array(raw.utf8) + Array("\r\n--\(boundary)--\r\n".utf8)
            let reply = try await h.request(
                "POST", "/upload" + Harness.me + "/messages/send?uploadType=multipart", body: multipart,
                contentType: "multipart/related; boundary=\(boundary)")
            #expect(reply.status == 200)
            #expect(reply.json["threadId"]?.stringValue == lunch.threadId)
            let id = try #require(reply.json["id"]?.stringValue)
            #expect(try await Self.stored(h, id).hasSuffix("\r\n\r\n" + body))

            let media = try await h.request(
                "POST", "/upload" + Harness.me + "/messages/send?uploadType=media",
                body: Array(Self.message(subject: "media").utf8), contentType: "message/rfc822")
            #expect(media.status == 200 && media.json["labelIds"] == .array([.string("SENT")]))
            let noType = try await h.request(
                "POST", "/upload" + Harness.me + "/messages/send", body: Array(raw.utf8), contentType: "message/rfc822")
            #expect(noType.status == 400)
        }
    }

    @Test("400 without recipients or with an unreadable raw; 413 over the JSON and upload limits; nothing stored")
    func refusals() async throws {
        try await withEmulator { h in
            let before = try await h.get(Harness.me + "/profile").json["messagesTotal"]
            let noRecipients = try await Self.send(h, Self.message(to: nil))
            #expect(
                noRecipients.text
                    == #"{"error":{"code":400,"message":"Recipient address required","errors":[{"message":"Recipient address required","domain":"global","reason":"invalidArgument"}],"status":"INVALID_ARGUMENT"}}"#
            )
            #expect(try await h.post(Harness.me + "/messages/send", json: #"{"raw":"!!not base64!!"}"#).status == 400)
            #expect(try await h.post(Harness.me + "/messages/send", json: #"{"threadId":"1"}"#).status == 400)

            let bigBody = String(repeating: "x", count: 5 * 1024 * 1024)
            let tooBigJSON = try await Self.send(h, Self.message(body: bigBody))
            #expect(tooBigJSON.status == 413)
            #expect(tooBigJSON.json["error"]?["errors"]?.arrayValue?.first?["reason"] == .string("uploadTooLarge"))
            let header = Array(Self.message(body: "").utf8)
            let tooBigUpload = try await h.request(
                "POST", "/upload" + Harness.me + "/messages/send?uploadType=media",
                body: header + [UInt8](repeating: 0x78, count: 36_700_161 - header.count), contentType: "message/rfc822"
            )
            #expect(tooBigUpload.status == 413)
            #expect(try await h.get(Harness.me + "/profile").json["messagesTotal"] == before)
        }
    }

    @Test("commitThenError500 and commitThenDrop store the message once, then fail the answer")
    func commitFaults() async throws {
        try await withEmulator { h in
            _ = try await h.control(
                "faults",
                #"{"rules":[{"method":"messages.send","kind":"commitThenError500","count":1},{"method":"messages.send","kind":"commitThenDrop","count":1}]}"#,
                method: "PUT")
            let error = try await Self.send(h, Self.message(subject: "committed-500"))
            #expect(error.status == 500 && error.json["error"]?["status"] == .string("INTERNAL"))
            #expect(try await Self.count(h, subject: "committed-500") == 1)

            // A connection of its own: a reset on a kept-alive one could make libcurl re-send the request.
            var request = URLRequest(url: try #require(URL(string: h.running.baseURL + Harness.me + "/messages/send")))
            request.httpMethod = "POST"
            request.setValue("Bearer \(Harness.token)", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("close", forHTTPHeaderField: "Connection")
            let raw = Base64URL.encode(Array(Self.message(subject: "committed-drop").utf8), padded: false)
            request.httpBody = Data(#"{"raw":"\#(raw)"}"#.utf8)
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            await #expect(throws: (any Error).self) { _ = try await session.data(for: request) }
            #expect(try await Self.count(h, subject: "committed-drop") == 1)
            let log = await h.running.requestLog.all.filter { $0.gmailMethod == "messages.send" }
            #expect(log.map(\.status) == [500, 0])
        }
    }

    @Test("drafts: create, list, get, update, send once, delete; DRAFT label and costs")
    func drafts() async throws {
        try await withEmulator { h in
            func draftJSON(_ raw: String) -> String {
                #"{"message":{"raw":"\#(Base64URL.encode(Array(raw.utf8), padded: false))"}}"#
            }
            let created = try await h.post(Harness.me + "/drafts", json: draftJSON(Self.message(subject: "draft-a")))
            #expect(created.status == 200)
            let draftId = try #require(created.json["id"]?.stringValue)
            let firstMessage = try #require(created.json["message"]?["id"]?.stringValue)
            #expect(draftId.hasPrefix("r") && created.json["message"]?["labelIds"] == .array([.string("DRAFT")]))
            let list = try await h.get(Harness.me + "/drafts").json
            #expect(list["drafts"]?.arrayValue?.map { $0["id"]?.stringValue } == [draftId])

            let updated = try await h.request(
                "PUT", Harness.me + "/drafts/\(draftId)", body: Array(draftJSON(Self.message(subject: "draft-b")).utf8),
                contentType: "application/json")
            #expect(updated.json["id"]?.stringValue == draftId)
            #expect(updated.json["message"]?["id"]?.stringValue != firstMessage)
            #expect(try await h.get(Harness.me + "/messages/\(firstMessage)").status == 404)
            let got = try await h.get(Harness.me + "/drafts/\(draftId)?format=metadata").json
            #expect(
                got["message"]?["payload"]?["headers"]?.arrayValue?.contains { $0["value"] == .string("draft-b") }
                    == true)

            let sent = try await h.post(Harness.me + "/drafts/send", json: #"{"id":"\#(draftId)"}"#)
            #expect(sent.status == 200 && sent.json["labelIds"] == .array([.string("SENT")]))
            #expect(try await h.post(Harness.me + "/drafts/send", json: #"{"id":"\#(draftId)"}"#).status == 404)
            #expect(try await h.get(Harness.me + "/drafts").json["drafts"] == nil)

            let other = try await h.post(Harness.me + "/drafts", json: draftJSON(Self.message(subject: "draft-c")))
            let otherId = try #require(other.json["id"]?.stringValue)
            #expect(try await h.request("DELETE", Harness.me + "/drafts/\(otherId)").status == 204)
            #expect(try await h.get(Harness.me + "/drafts/\(otherId)").status == 404)
            #expect(try await h.post(Harness.me + "/drafts/send", json: #"{"id":"\#(otherId)"}"#).status == 404)

            let units = try await h.control("quota", "", method: "GET").json["unitsByMethod"]
            #expect(units?["drafts.create"]?.intValue == 20 && units?["drafts.update"]?.intValue == 15)
            #expect(units?["drafts.send"]?.intValue == 300 && units?["drafts.delete"]?.intValue == 10)
        }
    }
}

/// Sends and drafts are journaled as the requests that made them, so a restart replays them to the
/// same message ids, Message-IDs, threads and history.
@Suite struct SendJournalTests {
    @Test("sent mail and drafts survive a restart; a refused send is not journaled")
    func restart() async throws {
        let journal = JournalTests.temporaryJournal()
        defer { try? FileManager.default.removeItem(atPath: journal) }  // a temporary file
        var before: (history: JSONValue, sent: JSONValue, drafts: JSONValue, start: String)?
        try await withEmulator(JournalTests.configure(journal)) { h in
            let start = try #require(try await h.get(Harness.me + "/profile").json["historyId"]?.stringValue)
            let first = try await SendTests.send(h, SendTests.message(subject: "first"))
            let firstId = try #require(first.json["id"]?.stringValue)
            let messageID = try #require(try await SendTests.header(h, firstId, "Message-ID"))
            let reply = SendTests.message(subject: "Re: first", extra: "In-Reply-To: \(messageID)\r\n")
            let second = try await SendTests.send(h, reply, threadId: first.json["threadId"]?.stringValue)
            #expect(second.json["threadId"] == first.json["threadId"])
            #expect(try await SendTests.send(h, SendTests.message(to: nil)).status == 400)
            let raw = Base64URL.encode(Array(SendTests.message(subject: "kept").utf8), padded: false)
            let draft = try await h.post(Harness.me + "/drafts", json: #"{"message":{"raw":"\#(raw)"}}"#)
            let draftId = try #require(draft.json["id"]?.stringValue)
            let other = try await h.post(Harness.me + "/drafts", json: #"{"message":{"raw":"\#(raw)"}}"#)
            let otherId = try #require(other.json["id"]?.stringValue)
            #expect(try await h.post(Harness.me + "/drafts/send", json: #"{"id":"\#(otherId)"}"#).status == 200)
            before = (
                try await h.get(Harness.me + "/history?startHistoryId=\(start)").json,
                try await h.get(Harness.me + "/messages/\(firstId)?format=raw").json,
                try await h.get(Harness.me + "/drafts/\(draftId)?format=minimal").json, start
            )
        }
        let saved = try #require(before)
        let lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 5, "two sends, two drafts and one draft sent; the refused send is not written")

        try await withEmulator(JournalTests.configure(journal)) { h in
            #expect(try await h.get(Harness.me + "/history?startHistoryId=\(saved.start)").json == saved.history)
            let id = try #require(saved.sent["id"]?.stringValue)
            #expect(try await h.get(Harness.me + "/messages/\(id)?format=raw").json == saved.sent)
            let draftId = try #require(saved.drafts["id"]?.stringValue)
            #expect(try await h.get(Harness.me + "/drafts/\(draftId)?format=minimal").json == saved.drafts)
        }
    }
}
