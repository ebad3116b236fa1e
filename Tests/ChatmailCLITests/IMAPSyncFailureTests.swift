import ChatmailTestSupport
import DovecotLauncher
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An IMAP sync that dies (kill -9), loses its connection mid-response or finds its server gone: it ends
/// with one line, and the next sync completes to exactly what a fresh home's sync stores.
@Suite struct IMAPSyncFailureTests {
    /// 600 messages: three body batches of at most 250, with two kinds of labels.
    static func fillMailbox(_ server: DovecotHomes) async throws {
        try await server.fill(560)
        try await server.fill(40, first: 560, folder: "Archive", seen: true)
    }

    @Test(
        "killed by SIGKILL in the middle of an initial sync, the next sync completes with no duplicates",
        arguments: ["chunkCommitted:1", "chunkPersisted:2"])
    func killedMidSync(crashPoint: String) async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        try await Self.fillMailbox(server)
        let home = server.home("killed")
        let login = try await server.login(home)
        try #require(login.status == 0, "\(login.stderr)")

        let killed = try await server.run(home, ["sync"], environment: ["CHATMAIL_TEST_CRASH_AT": crashPoint])
        #expect(killed.status == 128 + SIGKILL, "\(crashPoint): exit \(killed.status), \(killed.stderr)")
        let point = String(crashPoint.prefix { $0 != ":" })
        #expect(killed.stderr.contains("chatmail: crash point \(point) reached"), "\(killed.stderr)")
        let partial = try imapSnapshot(home: home)
        #expect(!partial.isEmpty && partial.count < 600, "the first batch committed, and not everything")
        #expect(try duplicateMessageIDs(home: home).isEmpty)

        _ = try await server.syncJSON(home)
        let recovered = try imapSnapshot(home: home)
        #expect(recovered.count == 600)
        #expect(try duplicateMessageIDs(home: home).isEmpty)

        let fresh = server.home("killed-fresh")
        #expect(try await server.loginAndSync(fresh)["messagesAdded"] as? Int == 600)
        let expected = try imapSnapshot(home: fresh)
        #expect(
            recovered == expected,
            "first difference: \(String(describing: zip(recovered, expected).first { $0 != $1 }))")
        let quiet = try await server.syncJSON(home)
        #expect(quiet["messagesAdded"] as? Int == 0 && quiet["messagesDeleted"] as? Int == 0, "\(quiet)")
    }

    @Test("a connection cut in the middle of a body fetch ends the sync with one line; the next sync completes")
    func connectionDroppedMidLiteral() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        try await server.fill(600, bodyBytes: 2_000)
        let proxy = try DroppingProxy(targetHost: server.host, targetPort: server.port)
        defer { proxy.stop() }

        // A reference home, synced through the proxy uncut, measures how many bytes a whole sync reads.
        let reference = server.home("reference")
        let referenceLogin = try await server.login(reference, port: proxy.port)
        try #require(referenceLogin.status == 0, "\(referenceLogin.stderr)")
        let before = proxy.forwardedFromServer
        #expect(try await server.syncJSON(reference)["messagesAdded"] as? Int == 600)
        let wholeSync = proxy.forwardedFromServer - before
        // Bodies are almost all of those bytes (600 × 2 KB against a listing of a few dozen KB), so half of
        // them ends inside a message's literal.
        try #require(wholeSync > 1_000_000, "\(wholeSync) bytes for a whole sync")

        let home = server.home("dropped")
        #expect(try await server.login(home, port: proxy.port).status == 0)
        proxy.cutAfter = wholeSync / 2
        let cut = try await server.run(home, ["sync"])
        #expect(cut.status == 1, "\(cut.stderr)")
        #expect(outputLines(cut.stderr).count == 1, "\(cut.stderr)")
        #expect(cut.stderr.hasPrefix("chatmail: The IMAP connection was lost"), "\(cut.stderr)")
        #expect(proxy.cutCount >= 1, "the proxy cut the sync's connection")
        let partial = try imapSnapshot(home: home)
        #expect(partial.count < 600)
        #expect(try duplicateMessageIDs(home: home).isEmpty)

        proxy.cutAfter = nil
        let finish = try await server.syncJSON(home)
        #expect((finish["messagesAdded"] as? Int ?? -1) + partial.count == 600, "\(finish)")
        #expect(try duplicateMessageIDs(home: home).isEmpty)
        #expect(try imapSnapshot(home: home) == imapSnapshot(home: reference))
    }

    @Test("a server that is gone ends the sync with one line naming it; the sync after it comes back completes")
    func serverStopped() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        for id in ["g1", "g2"] { try await server.deliver(imapMessage(id)) }
        let home = server.home("gone")
        #expect(try await server.loginAndSync(home)["messagesAdded"] as? Int == 2)
        try await server.deliver(imapMessage("g3"))

        let dovecot = server.dovecot
        try await offThePool { try dovecot.stop() }
        let gone = try await server.run(home, ["sync"])
        #expect(gone.status == 1, "\(gone.stderr)")
        #expect(outputLines(gone.stderr).count == 1, "\(gone.stderr)")
        #expect(gone.stderr.contains("127.0.0.1:\(server.port)"), "\(gone.stderr)")

        try await offThePool { try dovecot.restart() }
        let back = try await server.syncJSON(home)
        #expect(back["mode"] as? String == "incremental" && back["messagesAdded"] as? Int == 1, "\(back)")
        #expect(try imapSnapshot(home: home).count == 3)
    }
}
