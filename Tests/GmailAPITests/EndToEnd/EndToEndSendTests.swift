import Foundation
import GmailAPI
import GmailEmulator
import GmailModel
import Testing

/// `GmailClient.send` against the emulator: the two paths, reading the sent message back, and above all
/// that a send whose outcome is unknown is reported as such and never sent a second time.
@Suite("End to end: sending")
struct EndToEndSendTests {
    static func message(
        subject: String, to: String = "Ann <ann@example.org>", extra: String = "", body: String = "Hello.\r\n"
    ) -> [UInt8] {
        Array(
            "From: Me <me@example.com>\r\nTo: \(to)\r\nSubject: \(subject)\r\n\(extra)Content-Type: text/plain; charset=utf-8\r\n\r\n\(body)"
                .utf8)
    }

    /// How many messages on the server carry exactly this subject.
    static func onServer(_ e: EndToEnd, subject: String) async -> Int {
        let line = "Subject: \(subject)\r\n"
        return await e.emulator.mailbox.list(
            matching: { String(decoding: $0.raw, as: UTF8.self).contains(line) }, after: nil, limit: 1000
        ).total
    }

    /// The `messages.send` requests that reached the server, in order.
    static func sends(_ e: EndToEnd) async -> [RequestLog.Entry] {
        await e.requestLog().filter { $0.gmailMethod == "messages.send" }
    }

    static func gmailError(_ body: () async throws -> Void) async -> GmailAPIError? {
        do {
            try await body()
            Issue.record("expected a GmailAPIError")
        } catch let error as GmailAPIError {
            return error
        } catch {
            Issue.record("expected a GmailAPIError, got \(error)")
        }
        return nil
    }

    @Test("small messages go as JSON, large ones through the multipart upload, byte for byte; a reply joins its thread")
    func paths() async throws {
        try await withEmulator { e in
            let client = e.client()
            let small = try await client.send(raw: Self.message(subject: "small"))
            #expect(small.labelIds == ["SENT"] && small.threadId == small.id)

            let line = "0123456789 abcdefghijklmnopqrstuvwxyz 0123456789 abcdefghijklmnopqrstuvwxyz\r\n"
            let body = String(repeating: line, count: (GmailClient.sendUploadThreshold / line.utf8.count) + 100)
            let lunch = try #require(try await client.listAllMessages(query: "subject:lunch").first)
            let large = try await client.send(
                raw: Self.message(
                    subject: "Re: lunch", extra: "In-Reply-To: <e2e-lunch-1@example.org>\r\n", body: body),
                threadId: lunch.threadId)
            #expect(large.threadId == lunch.threadId && large.labelIds == ["SENT"])
            let stored = try await client.getMessage(id: large.id, format: .raw)
            let raw = String(decoding: Base64URL.decode(try #require(stored.raw)) ?? [], as: UTF8.self)
            #expect(raw.hasSuffix("\r\n\r\n" + body))

            let log = await Self.sends(e)
            #expect(log.map(\.path) == ["/gmail/v1/users/me/messages/send", "/upload/gmail/v1/users/me/messages/send"])
            #expect(log.last?.query.contains("uploadType=multipart") == true)
        }
    }

    @Test("the server's Message-ID is read back as metadata; history filtered to SENT additions finds the send")
    func readBack() async throws {
        try await withEmulator { e in
            let client = e.client()
            let start = try await client.getProfile().historyID
            _ = try await e.deliver(
                "From: Carol <carol@example.net>\r\nTo: me@example.com\r\nSubject: incoming\r\n\r\nHi.\r\n")
            let sent = try await client.send(
                raw: Self.message(
                    subject: "Re: note 1",
                    extra: "Message-ID: <mine@example.com>\r\nReferences: <e2e-note-1@example.net>\r\n"))
            let metadata = try await client.getMessage(
                id: sent.id, format: .metadata(headers: ["Message-ID", "References", "In-Reply-To", "Subject"]))
            let headers = metadata.payload?.headers ?? []
            let messageID = try #require(headers.first { $0.name.lowercased() == "message-id" }?.value)
            #expect(messageID != "<mine@example.com>" && messageID.hasPrefix("<"))
            // The server's Message-ID takes the place of the client's; In-Reply-To was never there.
            #expect(headers.map(\.name) == ["Subject", "Message-ID", "References"])

            let history = try await client.listHistory(
                startHistoryID: start, historyTypes: [.messageAdded], labelID: "SENT")
            #expect(history.records.flatMap(\.messagesAdded).map(\.message.id) == [sent.id])
        }
    }

    @Test("commitThenDrop and commitThenError500: on the server once, outcomeUnknown at the client, never retried")
    func unknownOutcome() async throws {
        for (kind, subject) in [("commitThenDrop", "dropped-answer"), ("commitThenError500", "failed-answer")] {
            try await withEmulator { e in
                let client = e.client(maxAttempts: 4)
                // One fault only: a retry would succeed and leave two copies on the server.
                try await e.faults(#"[{"method": "messages.send", "kind": "\#(kind)", "count": 1}]"#)
                let error = await Self.gmailError { _ = try await client.send(raw: Self.message(subject: subject)) }
                guard case .retryLater(.outcomeUnknown(let cause))? = error else {
                    Issue.record("\(kind): expected outcomeUnknown, got \(String(describing: error))")
                    return
                }
                if kind == "commitThenError500" { #expect(cause == "HTTP 500") }
                #expect(await Self.onServer(e, subject: subject) == 1, "\(kind)")
                #expect(await Self.sends(e).count == 1, "\(kind)")
                #expect(e.sleeper.sleeps.isEmpty, "\(kind)")
            }
        }
    }

    @Test("a connection dropped before the send ran is unknown to the client too: not retried, and nothing went out")
    func droppedBeforeCommit() async throws {
        try await withEmulator { e in
            let client = e.client(maxAttempts: 4)
            try await e.faults(#"[{"method": "messages.send", "kind": "drop", "count": 1}]"#)
            let error = await Self.gmailError { _ = try await client.send(raw: Self.message(subject: "lost")) }
            guard case .retryLater(.outcomeUnknown)? = error else {
                Issue.record("expected outcomeUnknown, got \(String(describing: error))")
                return
            }
            #expect(await Self.onServer(e, subject: "lost") == 0)
            #expect(await Self.sends(e).count == 1)
        }
    }

    @Test("a rate limit is refused before sending, so it is retried, and the message goes out once")
    func rateLimitRetried() async throws {
        try await withEmulator { e in
            let client = e.client(maxAttempts: 4)
            try await e.faults(#"[{"method": "messages.send", "kind": "429", "count": 1}]"#)
            let sent = try await client.send(raw: Self.message(subject: "paced"))
            #expect(sent.labelIds == ["SENT"])
            #expect(await Self.sends(e).map(\.status) == [429, 200])
            #expect(await Self.onServer(e, subject: "paced") == 1)
        }
    }

    @Test("a connection that was never made is retried: nothing can have been sent")
    func neverConnected() async throws {
        let sleeper = EndToEndSleeper()
        let client = GmailClient(
            configuration: .init(baseURL: URL(string: "http://127.0.0.1:1")!, maxAttempts: 3, timeouts: .uniform(5)),
            transport: URLSessionTransport(), tokens: StaticTokenSource(token: EndToEnd.staticToken),
            pacer: .unlimited(), sleeper: sleeper, random: FixedRandom(value: 0))
        let error = await Self.gmailError { _ = try await client.send(raw: Self.message(subject: "offline")) }
        guard case .retryLater(.transport)? = error else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
        #expect(sleeper.sleeps.count == 2)
    }

    @Test("refusals: no recipient and unknown thread with Gmail's reasons, unretried; over 35 MB without a request")
    func refusals() async throws {
        try await withEmulator { e in
            let client = e.client(maxAttempts: 4)
            let noRecipient = Array(
                "From: me@example.com\r\nSubject: nobody\r\n\r\nHello.\r\n".utf8)
            #expect(
                await Self.gmailError { _ = try await client.send(raw: noRecipient) }
                    == .badRequest(reason: "Recipient address required"))
            #expect(
                await Self.gmailError {
                    _ = try await client.send(raw: Self.message(subject: "orphan"), threadId: "00000000deadbeef")
                } == .giveUp(.notFound(resource: "thread")))
            #expect(await Self.sends(e).count == 2)

            let huge = [UInt8](repeating: 0x41, count: GmailClient.sendSizeLimit + 1)
            #expect(
                await Self.gmailError { _ = try await client.send(raw: huge) }
                    == .giveUp(.messageTooLarge(bytes: GmailClient.sendSizeLimit + 1)))
            #expect(await Self.sends(e).count == 2)
            #expect(e.sleeper.sleeps.isEmpty)
            #expect(await Self.onServer(e, subject: "orphan") == 0)
        }
    }
}
