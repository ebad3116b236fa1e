import ChatmailSync
import ChatmailTestSupport
import DovecotLauncher
import Foundation
import GRDB
import IMAPClient
import Testing

@testable import ChatmailStore

/// A server that answers garbage, says BYE or falls silent in the middle of a first sync: the sync ends
/// with one typed, one-line error, keeps what it stored, and the next sync finishes with exactly what a
/// clean sync stores. One case at a time: each runs three first syncs of 300 messages through a proxy.
@Suite("IMAP sync against a misbehaving server", .serialized)
struct IMAPFaultTests {
    enum Fault: String, CaseIterable, Sendable {
        case garbage, bye, silence

        var action: DroppingProxy.CutAction {
            switch self {
            case .garbage: .send(Array("\r\n* 7 FETCH (UID x ))) {zz}\r\n)(\r\n".utf8))
            case .bye: .send(Array("\r\n* BYE Server shutting down for maintenance\r\n".utf8))
            case .silence: .fallSilent
            }
        }
    }

    @Test(
        "a mid-sync fault ends the sync with one line; the next sync completes it, no duplicates",
        arguments: Fault.allCases)
    func faultMidSync(_ fault: Fault) async throws {
        let server = try await IMAPTestServer.start()
        defer { server.stop() }
        let messages = (1...300).map { index in
            Array(testMessage("p\(index)", body: String(repeating: "Line \(index) of a longer body. ", count: 60)).utf8)
        }
        try await offThePool {
            try server.dovecot.fillMaildir(messages, folder: "INBOX", user: IMAPTestServer.user, seen: false)
        }
        let proxy = try DroppingProxy(targetHost: server.dovecot.host, targetPort: server.dovecot.port)
        defer { proxy.stop() }
        // Five seconds without a byte is the silent server's whole symptom; a working command on a busy
        // machine answers well within it.
        let viaProxy = IMAPConnector(
            endpoint: IMAPEndpoint(host: "127.0.0.1", port: proxy.port, security: .none),
            timeouts: IMAPTimeouts(connect: .seconds(30), command: .seconds(5)),
            authentication: { .password(user: IMAPTestServer.user, password: IMAPTestServer.password) })

        // A clean sync through the proxy measures how many bytes a whole first sync takes.
        let (reference, referenceAccount) = try await server.makeStore("reference")
        _ = try await SyncEngine(store: reference, imap: viaProxy, pusher: QueueHoldingPusher()).run(
            account: referenceAccount)
        let whole = proxy.forwardedFromServer
        #expect(whole > 300 * 1_000)

        proxy.cutAfter = whole / 2
        proxy.cutAction = fault.action
        let (store, account) = try await server.makeStore()
        let failure = await #expect(throws: IMAPClientError.self) {
            _ = try await SyncEngine(store: store, imap: viaProxy, pusher: QueueHoldingPusher()).run(account: account)
        }
        #expect(proxy.cutCount == 1)
        let message = failure?.localizedDescription ?? ""
        #expect(!message.isEmpty && !message.contains("\n"), "\(message)")
        if fault == .silence, let failure {
            #expect(failure == .timedOut(command: "UID FETCH", seconds: 5), "\(failure)")
        }
        let duplicates = try store.read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT COUNT(*) - COUNT(DISTINCT rfc822_message_id) FROM message WHERE account_id = ?",
                arguments: [account.id])
        }
        #expect(duplicates == 0)

        proxy.cutAfter = nil
        let next = try await SyncEngine(store: store, imap: viaProxy, pusher: QueueHoldingPusher()).run(
            account: account)
        #expect(next.messagesDeleted == 0)
        #expect(
            try canonicalContents(of: store, account: account.id)
                == canonicalContents(of: reference, account: referenceAccount.id))
    }
}
