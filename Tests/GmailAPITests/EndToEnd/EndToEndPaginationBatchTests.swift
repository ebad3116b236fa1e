import Foundation
import GmailAPI
import GmailEmulator
import Testing

@Suite("End to end: pagination and batch")
struct EndToEndPaginationBatchTests {
    @Test("messages.list pages of 10 over 25 messages: no duplicates, no gaps, even with mail delivered between pages")
    func pagesWhileDelivering() async throws {
        try await withEmulator({ $0.mailbox = .synthetic(count: 25) }) { e in
            let client = e.client()
            let original = Set(try await client.listAllMessages().map(\.id))
            #expect(original.count == 25)

            var seen: [String] = []
            var token: String?
            var pages = 0
            var delivered: [String] = []
            repeat {
                let page = try await client.listMessages(maxResults: 10, pageToken: token)
                pages += 1
                #expect(page.messages.count <= 10)
                seen += page.messages.map(\.id)
                token = page.nextPageToken
                // New mail (newest first) and an old-dated message arrive between pages.
                delivered.append(try await e.deliver(EndToEndFixtures.plain(100 + pages)))
                delivered.append(try await e.deliver(EndToEndFixtures.plain(200 + pages), internalDateMs: 1_000))
            } while token != nil && pages < 20
            #expect(pages == 3)
            #expect(seen.count == Set(seen).count, "no duplicates")
            #expect(original.isSubset(of: Set(seen)), "every message present before the walk is listed (no gaps)")
            #expect(Set(seen).isSubset(of: original.union(delivered)))
        }
    }

    @Test("listAllMessages walks several 500-message pages")
    func listAllAcrossPages() async throws {
        try await withEmulator({ $0.mailbox = .synthetic(count: 1_050) }) { e in
            await e.emulator.requestLog.clear()
            let refs = try await e.client().listAllMessages()
            #expect(refs.count == 1_050)
            #expect(Set(refs.map(\.id)).count == 1_050)
            let lists = await e.requestLog().filter { $0.gmailMethod == "messages.list" }
            #expect(lists.count == 3)
        }
    }

    @Test("batch get: unknown ids are notFound per id; transient parts are re-sent alone and succeed")
    func batchMixedParts() async throws {
        try await withEmulator({ $0.mailbox = .synthetic(count: 12) }) { e in
            let client = e.client()
            let ids = try await client.listAllMessages().map(\.id).prefix(8).map { $0 }
            let unknown = ["ffffffffffff0001", "ffffffffffff0002"]
            try await e.faults(
                #"""
                [{"method": "messages.get", "kind": "503", "count": 1, "messageId": "\#(ids[2])"},
                 {"method": "messages.get", "kind": "429", "count": 1, "messageId": "\#(ids[5])"}]
                """#)
            await e.emulator.requestLog.clear()

            let results = try await client.getMessages(ids: ids + unknown, format: .minimal)
            #expect(results.count == 10)
            for id in ids {
                let message = try results[id]?.get()
                #expect(message?.id == id)
            }
            for id in unknown { #expect(results[id] == .failure(.giveUp(.notFound(resource: "message")))) }

            let log = await e.requestLog()
            let outer = log.filter { $0.path == "/batch/gmail/v1" }
            #expect(outer.count == 2, "one batch, then one smaller retry batch")
            let parts = log.filter { $0.path.hasPrefix("batch:") }
            #expect(parts.count == 12)
            let resent = parts.dropFirst(10).map { String($0.path.split(separator: "/").last ?? "") }
            #expect(Set(resent) == [ids[2], ids[5]], "only the failed parts are re-sent")
            #expect(parts.prefix(10).filter { $0.status == 404 }.count == 2)
            // The 503 and 429 parts carry Retry-After: 1; with zero jitter the one backoff is exactly that.
            #expect(e.sleeper.sleeps == [.seconds(1)])
        }
    }

    @Test("batch get: a part that keeps failing is reported as a failure after maxAttempts, never as success")
    func batchPersistentFailure() async throws {
        try await withEmulator({ $0.mailbox = .synthetic(count: 5) }) { e in
            let client = e.client(maxAttempts: 3)
            let ids = try await client.listAllMessages().map(\.id)
            try await e.faults(#"[{"method": "messages.get", "kind": "500", "messageId": "\#(ids[0])"}]"#)
            await e.emulator.requestLog.clear()
            let results = try await client.getMessages(ids: ids)
            #expect(results[ids[0]] == .failure(.retryLater(.server(status: 500))))
            for id in ids.dropFirst() { #expect((try? results[id]?.get())?.id == id) }
            let sends = await e.requestLog().filter { $0.path.hasPrefix("batch:") && $0.path.hasSuffix(ids[0] + "") }
            #expect(sends.count == 3, "sent maxAttempts times")
            let others = await e.requestLog().filter { $0.path.hasPrefix("batch:") && !$0.path.contains(ids[0]) }
            #expect(others.count == ids.count - 1, "successes are never re-sent")
        }
    }
}
