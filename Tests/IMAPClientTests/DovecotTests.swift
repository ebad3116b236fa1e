import ChatmailTestSupport
import DovecotLauncher
import Foundation
import IMAPClient
import IMAPProtocol
import Testing

/// The connection against a real Dovecot on loopback. Dovecot is installed by scripts/install-deps: a
/// machine without it fails these tests rather than skipping them.
@Suite("IMAPConnection against Dovecot", .timeLimit(.minutes(5)))
struct DovecotTests {
    static let alice = "alice@example.org"
    let timeouts = IMAPTimeouts(connect: .seconds(30), command: .seconds(60))

    /// Starts a Dovecot in a scratch directory, runs `body`, and stops it; a failure carries its log.
    @discardableResult
    func withDovecot<T: Sendable>(
        _ configuration: DovecotConfiguration = DovecotConfiguration(),
        _ body: (DovecotServer) async throws -> T
    ) async throws -> T {
        let directory = try scratchDirectory("imapclient")
        let server = try await offThePool { try DovecotServer.start(in: directory, configuration: configuration) }
        do {
            let result = try await body(server)
            try await offThePool { try server.stop() }
            try FileManager.default.removeItem(at: directory)
            return result
        } catch {
            let log = server.logTail
            try await offThePool { try server.stop() }
            Issue.record("Dovecot's log:\n\(log)")
            throw error
        }
    }

    func connect(
        _ server: DovecotServer, authentication: IMAPAuthentication = .password(user: alice, password: "secret")
    ) async throws(IMAPClientError) -> IMAPConnection {
        try await IMAPConnection.connect(
            to: IMAPEndpoint(host: server.host, port: server.port, security: .none), authentication: authentication,
            timeouts: timeouts)
    }

    /// A small message, with CRLF line endings as on the wire.
    static func message(_ number: Int) -> [UInt8] {
        Array(
            """
            From: Bob <bob@example.org>\r
            To: Alice <alice@example.org>\r
            Subject: message \(number)\r
            Message-ID: <m\(number)@example.org>\r
            Date: Mon, 3 Jun 2024 10:00:00 +0000\r
            \r
            Body of message \(number), with ünïcode.\r

            """.utf8)
    }

    /// Line endings as LF only: Dovecot may store what `doveadm save` was given with either.
    static func normalized(_ bytes: [UInt8]?) -> [UInt8]? {
        bytes.map { $0.filter { $0 != UInt8(ascii: "\r") } }
    }

    func deliver(_ numbers: ClosedRange<Int>, to server: DovecotServer, flags: [String] = []) async throws {
        try await offThePool {
            for number in numbers {
                try server.deliver(Self.message(number), to: "INBOX", user: Self.alice, flags: flags)
            }
        }
    }

    @Test("PLAIN login, capabilities after login, and ENABLE QRESYNC")
    func loginCapabilitiesEnable() async throws {
        try await withDovecot { server in
            let connection = try await connect(server)
            #expect(connection.has("IMAP4rev1"))
            #expect(connection.has("CONDSTORE"))
            #expect(connection.has("qresync"))
            #expect(!connection.isGmail)
            let enabled = try await connection.enable(["QRESYNC"])
            #expect(enabled.contains("QRESYNC"))
            try await connection.noop()
            await connection.logout()
        }
    }

    @Test("A wrong password is an authentication failure in Dovecot's words")
    func wrongPassword() async throws {
        try await withDovecot { server in
            await #expect(throws: IMAPClientError.authenticationFailed(serverText: "Authentication failed.")) {
                try await connect(server, authentication: .password(user: Self.alice, password: "wrong"))
            }
        }
    }

    @Test("LIST has INBOX and the special-use folders; a non-ASCII name with & round-trips through SELECT")
    func listAndSelectNonASCII() async throws {
        let name = "Ünïcode & Co"
        try await withDovecot { server in
            _ = try await offThePool { try server.doveadm(["mailbox", "create", "-u", Self.alice, name]) }
            let connection = try await connect(server)
            let folders = try await connection.listFolders()
            #expect(folders.contains { $0.name == "INBOX" })
            let uses = Dictionary(folders.compactMap { entry in entry.specialUse.map { ($0, entry.name) } }) { a, _ in a
            }
            #expect(uses == [.sent: "Sent", .trash: "Trash", .junk: "Junk", .drafts: "Drafts", .archive: "Archive"])
            let entry = try #require(folders.first { $0.name == name })
            #expect(entry.rawName == Array(ModifiedUTF7.encode(name).utf8))
            let selection = try await connection.select(name)
            #expect(selection.exists == 0)
            #expect(selection.uidValidity > 0)
            await connection.logout()
        }
    }

    @Test("SELECT reports the mailbox; UID FETCH returns the exact delivered bytes and metadata")
    func selectAndFetch() async throws {
        try await withDovecot { server in
            try await deliver(1...2, to: server)
            try await deliver(3...3, to: server, flags: ["\\Seen"])
            let connection = try await connect(server)
            let selection = try await connection.select("INBOX", parameters: .condstore)
            #expect(selection.exists == 3)
            #expect(selection.uidNext == 4)
            #expect(selection.uidValidity > 0)
            #expect(selection.highestModSeq != nil)
            let all = try IMAPUIDSet(parsing: "1:*")
            let result = try await connection.uidFetch(
                all, items: ["UID", "FLAGS", "RFC822.SIZE", "INTERNALDATE", "BODY.PEEK[]"])
            #expect(result.messages.map(\.uid) == [1, 2, 3])
            for (index, message) in result.messages.enumerated() {
                #expect(Self.normalized(message.body) == Self.normalized(Self.message(index + 1)))
                #expect(message.rfc822Size == message.body?.count)
                #expect(message.internalDateMs != nil)
            }
            #expect(result.messages.last?.flags?.contains("\\Seen") == true)
            #expect(result.messages.first?.flags?.contains("\\Seen") == false)
            #expect(try await connection.uidSearch("ALL") == [1, 2, 3])
            #expect(try await connection.uidSearch("SEEN") == [3])
            await connection.logout()
        }
    }

    @Test("uidFetchBatches over 300 messages with a window of 3 returns every batch, in order")
    func pipelinedBatches() async throws {
        try await withDovecot { server in
            try await offThePool {
                try server.fillMaildir((1...300).map(Self.message), folder: "INBOX", user: Self.alice, seen: false)
            }
            let connection = try await connect(server)
            let selection = try await connection.select("INBOX")
            #expect(selection.exists == 300)
            let batches = IMAPUIDSet.chunked(1...300, maxCount: 40)
            var uids: [UInt32] = []
            var subjectsMatch = true
            for try await batch in connection.uidFetchBatches(batches, items: ["UID", "BODY.PEEK[HEADER]"], window: 3) {
                for message in batch.messages {
                    guard let uid = message.uid, let header = message.header else { continue }
                    uids.append(uid)
                    subjectsMatch =
                        subjectsMatch && String(decoding: header, as: UTF8.self).contains("Subject: message \(uid)\r\n")
                }
            }
            #expect(uids == Array(1...300))
            #expect(subjectsMatch)
            await connection.logout()
        }
    }

    @Test("CHANGEDSINCE returns only the message whose flags doveadm changed")
    func changedSince() async throws {
        try await withDovecot { server in
            try await deliver(1...3, to: server)
            let connection = try await connect(server)
            let before = try await connection.select("INBOX", parameters: .condstore)
            let modSeq = try #require(before.highestModSeq)
            _ = try await offThePool {
                try server.doveadm(["flags", "add", "-u", Self.alice, "\\Flagged", "mailbox", "INBOX", "uid", "2"])
            }
            let changed = try await connection.uidFetch(
                try IMAPUIDSet(parsing: "1:*"), items: ["UID", "FLAGS"], changedSince: modSeq)
            #expect(changed.messages.map(\.uid) == [2])
            #expect(changed.messages.first?.flags?.contains("\\Flagged") == true)
            #expect(changed.messages.first?.modSeq.map { $0 > modSeq } == true)
            await connection.logout()
        }
    }

    @Test("After an expunge, a QRESYNC SELECT and a VANISHED fetch report the expunged UID")
    func qresyncVanished() async throws {
        try await withDovecot { server in
            try await deliver(1...3, to: server)
            let first = try await connect(server)
            let before = try await first.select("INBOX", parameters: .condstore)
            let modSeq = try #require(before.highestModSeq)
            await first.logout()
            _ = try await offThePool {
                try server.doveadm(["expunge", "-u", Self.alice, "mailbox", "INBOX", "uid", "2"])
            }

            let connection = try await connect(server)
            #expect(try await connection.enable(["QRESYNC"]).contains("QRESYNC"))
            let selection = try await connection.select(
                "INBOX",
                parameters: .qresync(uidValidity: before.uidValidity, modSeq: modSeq, knownUIDs: IMAPUIDSet([1, 2, 3])))
            #expect(selection.vanished == [2])
            #expect(selection.exists == 2)
            let fetched = try await connection.uidFetch(
                try IMAPUIDSet(parsing: "1:*"), items: ["UID", "FLAGS"], changedSince: modSeq, vanished: true)
            #expect(fetched.vanished == [2])
            await connection.logout()
        }
    }

    @Test("Against an Outlook-like server without CONDSTORE or ESEARCH the client still works")
    func outlookLike() async throws {
        let configuration = DovecotConfiguration(capabilities: .outlookLike, rawlog: true)
        try await withDovecot(configuration) { server in
            try await deliver(1...2, to: server)
            let connection = try await connect(server)
            #expect(!connection.has("CONDSTORE"))
            #expect(!connection.has("ESEARCH"))
            let selection = try await connection.select("INBOX")
            #expect(selection.exists == 2)
            #expect(try await connection.uidSearch("ALL") == [1, 2])
            let result = try await connection.uidFetch(try IMAPUIDSet(parsing: "1:*"), items: ["UID", "FLAGS"])
            #expect(result.messages.map(\.uid) == [1, 2])
            await connection.logout()
            let commands = try await offThePool { try server.clientCommands(of: Self.alice) }
            #expect(commands.contains { $0.hasSuffix(" UID SEARCH ALL") })
            #expect(!commands.contains { $0.contains("RETURN") })
        }
    }

    @Test("XOAUTH2 logs in with a token the introspection endpoint accepts, and fails with another")
    func xoauth2() async throws {
        let endpoint = try IntrospectionEndpoint(acceptedToken: "good-token", user: Self.alice)
        do {
            try await withDovecot(DovecotConfiguration(oauth2IntrospectionURL: endpoint.url)) { server in
                let connection = try await connect(
                    server, authentication: .xoauth2(user: Self.alice, token: "good-token"))
                _ = try await connection.select("INBOX")
                await connection.logout()
                await #expect {
                    try await connect(server, authentication: .xoauth2(user: Self.alice, token: "bad-token"))
                } throws: { error in
                    guard case .authenticationFailed = error as? IMAPClientError else { return false }
                    return true
                }
                #expect(endpoint.receivedTokens.contains("good-token"))
                #expect(endpoint.receivedTokens.contains("bad-token"))
            }
        } catch {
            try await offThePool { endpoint.stop() }
            throw error
        }
        // Stopping waits for the endpoint's thread.
        try await offThePool { endpoint.stop() }
    }
}
