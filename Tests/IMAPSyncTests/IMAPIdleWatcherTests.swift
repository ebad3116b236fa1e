import ChatmailSync
import ChatmailTestSupport
import DovecotLauncher
import Foundation
import IMAPClient
import Testing

/// The watcher the app listens to for new mail, on a real Dovecot.
@Suite("IMAP IDLE watcher", .serialized)
struct IMAPIdleWatcherTests {
    @Test("reports once when listening, then once per message another client appends")
    func reportsAppends() async throws {
        let server = try await IMAPTestServer.start()
        defer { server.stop() }
        let watcher = IMAPIdleWatcher(connector: server.connector, retryAfter: .milliseconds(200))
        var changes = watcher.changes().makeAsyncIterator()
        // 30 s bound only a broken run reaches: the first report comes once IDLE is in place.
        #expect(try await next(&changes) == true, "the watcher should report that it listens")
        for index in 0..<3 {
            try await IMAPTestMail.append(
                testMessage("idle\(index)"), host: server.dovecot.host, port: server.dovecot.port,
                user: IMAPTestServer.user, password: IMAPTestServer.password)
            #expect(try await next(&changes) == true, "append \(index) should be reported")
        }
    }

    @Test("a server without IDLE ends the stream: the periodic sync is all there is")
    func withoutIdle() async throws {
        let server = try await IMAPTestServer.start(withheldCapabilities: ["IDLE"])
        defer { server.stop() }
        var changes = IMAPIdleWatcher(connector: server.connector).changes().makeAsyncIterator()
        #expect(try await next(&changes) == false)
    }

    @Test("a refused login ends the stream rather than trying again behind the person's back")
    func refusedLogin() async throws {
        let server = try await IMAPTestServer.start()
        defer { server.stop() }
        let wrong = IMAPConnector(
            endpoint: server.connector.endpoint,
            authentication: { .password(user: IMAPTestServer.user, password: "wrong") })
        var changes = IMAPIdleWatcher(connector: wrong, retryAfter: .milliseconds(50)).changes().makeAsyncIterator()
        #expect(try await next(&changes) == false)
    }

    /// The next element within 30 s: true for a report, false when the stream ended.
    func next(_ iterator: inout AsyncStream<Void>.Iterator) async throws -> Bool {
        let box = IteratorBox(iterator)
        let result = try await withThrowingTaskGroup(of: Bool?.self) { group in
            group.addTask { await box.next() }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        iterator = box.iterator
        return try #require(result, "no report within 30 s")
    }

    /// Moves the iterator into a child task and back.
    final class IteratorBox: @unchecked Sendable {
        var iterator: AsyncStream<Void>.Iterator
        init(_ iterator: AsyncStream<Void>.Iterator) { self.iterator = iterator }
        func next() async -> Bool { await iterator.next() != nil }
    }
}
