import ChatmailTestSupport
import DovecotLauncher
import Foundation
import Testing

@Suite(
    "A real Dovecot on loopback",
    .enabled(if: DovecotServer.executableIsInstalled, "Dovecot is not installed (apt-get install dovecot-imapd)"),
    .timeLimit(.minutes(3)))
struct DovecotLauncherTests {
    static let alice = "alice@example.org"

    @Test("LOGIN with the configured password succeeds, a wrong one gets NO")
    func login() async throws {
        let (greeting, good, bad) = try await withDovecot { server in
            let wrong = try IMAPProbe(port: server.port)
            let bad = try wrong.login(Self.alice, "not-the-password")
            let right = try IMAPProbe(port: server.port)
            return (right.greeting, try right.login(Self.alice, "secret"), bad)
        }
        #expect(greeting.hasPrefix("* OK"))
        #expect(IMAPProbe.status(good) == "OK")
        #expect(IMAPProbe.status(bad) == "NO")
    }

    @Test("The full capability list has the sync extensions; the Outlook-like one lacks CONDSTORE and QRESYNC")
    func capabilities() async throws {
        func capabilities(_ kind: DovecotConfiguration.Capabilities) async throws -> Set<String> {
            let lines = try await withDovecot(DovecotConfiguration(capabilities: kind)) { server in
                let probe = try IMAPProbe(port: server.port)
                _ = try probe.login(Self.alice, "secret")
                return try probe.run("CAPABILITY")
            }
            let line = try #require(lines.first { $0.hasPrefix("* CAPABILITY ") })
            return Set(line.split(separator: " ").dropFirst(2).map(String.init))
        }
        let full = try await capabilities(.full)
        #expect(full.isSuperset(of: ["CONDSTORE", "QRESYNC", "UIDPLUS", "MOVE", "SPECIAL-USE", "IDLE"]))
        let outlook = try await capabilities(.outlookLike)
        #expect(!outlook.contains("CONDSTORE"))
        #expect(!outlook.contains("QRESYNC"))
        #expect(outlook.isSuperset(of: ["UIDPLUS", "MOVE", "SPECIAL-USE", "IDLE"]))
    }

    @Test("LIST shows the special-use folders and the extra folders")
    func specialUseFolders() async throws {
        let configuration = DovecotConfiguration(extraFolders: ["Projects", "Projects.2024"])
        let lines = try await withDovecot(configuration) { server in
            let probe = try IMAPProbe(port: server.port)
            _ = try probe.login(Self.alice, "secret")
            return try probe.run(#"LIST "" "*""#)
        }
        for use in ["Sent", "Drafts", "Trash", "Junk", "Archive"] {
            #expect(lines.contains { $0.hasPrefix("* LIST (") && $0.contains("\\\(use)") && $0.hasSuffix(" \(use)") })
        }
        #expect(lines.contains { $0.hasSuffix(#" "." Projects.2024"#) })
        #expect(lines.contains { $0.hasSuffix(" INBOX") })
    }

    @Test("A delivered message is in INBOX, with the flags it was delivered with")
    func deliver() async throws {
        let (select, fetch) = try await withDovecot { server in
            try server.deliver(
                message(subject: "first"), to: "INBOX", user: Self.alice, flags: ["\\Seen", "\\Flagged"])
            let probe = try IMAPProbe(port: server.port)
            _ = try probe.login(Self.alice, "secret")
            return (try probe.run("SELECT INBOX"), try probe.run("FETCH 1 (FLAGS)"))
        }
        #expect(existsCount(select) == 1)
        let flags = try #require(fetch.first { $0.hasPrefix("* 1 FETCH") })
        #expect(flags.contains("\\Seen") && flags.contains("\\Flagged"))
    }

    @Test("Messages written into a folder's Maildir are all there, in the order written")
    func fillMaildir() async throws {
        // A name outside ASCII, so a wrong modified UTF-7 directory name would leave the folder empty.
        let folder = "Projekte.Ärger"
        let (select, first, last) = try await withDovecot(DovecotConfiguration(extraFolders: [folder])) { server in
            let messages = (1...50).map { message(subject: "number \($0)") }
            try server.fillMaildir(messages, folder: folder, user: Self.alice, seen: true)
            let probe = try IMAPProbe(port: server.port)
            _ = try probe.login(Self.alice, "secret")
            return (
                try probe.run("SELECT \"Projekte.&AMQ-rger\""),
                try probe.run("UID FETCH 1 (FLAGS BODY.PEEK[HEADER.FIELDS (SUBJECT)])"),
                try probe.run("UID FETCH 50 (BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
            )
        }
        #expect(existsCount(select) == 50)
        #expect(first.contains("Subject: number 1"))
        #expect(first.contains { $0.contains("\\Seen") })
        #expect(last.contains("Subject: number 50"))
    }

    @Test("Resetting a folder's UIDVALIDITY changes it in SELECT and keeps the messages")
    func resetUIDValidity() async throws {
        let (before, after) = try await withDovecot { server in
            try server.deliver(message(subject: "kept"), to: "INBOX", user: Self.alice)
            let select = { () throws -> [String] in
                let probe = try IMAPProbe(port: server.port)
                _ = try probe.login(Self.alice, "secret")
                return try probe.run("SELECT INBOX")
            }
            let before = try select()
            try server.resetUIDValidity(of: "INBOX", user: Self.alice)
            return (before, try select())
        }
        let old = try #require(uidValidity(before))
        let new = try #require(uidValidity(after))
        #expect(old != new)
        #expect(existsCount(after) == 1)
    }

    @Test("Rawlog records the commands a session sent after login")
    func rawlog() async throws {
        let commands = try await withDovecot(DovecotConfiguration(rawlog: true)) { server in
            let probe = try IMAPProbe(port: server.port)
            _ = try probe.login(Self.alice, "secret")
            _ = try probe.run("EXAMINE INBOX")
            _ = try probe.run("UID FETCH 1:* (FLAGS)")
            return try server.clientCommands(of: Self.alice)
        }
        let examine = try #require(commands.firstIndex { $0.hasSuffix(" EXAMINE INBOX") })
        let fetch = try #require(commands.firstIndex { $0.hasSuffix(" UID FETCH 1:* (FLAGS)") })
        #expect(examine < fetch)
        #expect(!commands.contains { $0.contains("LOGIN") })
    }

    @Test("Restart keeps the port; after kill9 open sessions are gone and restart brings it back")
    func restartAndKill() async throws {
        let (portBefore, portAfter, loginAfterRestart, sessionClosed, refusedWhileDown, loginAfterCrash) =
            try await withDovecot { server in
                let portBefore = server.port
                try server.restart()
                let afterRestart = try IMAPProbe(port: server.port).login(Self.alice, "secret")
                let open = try IMAPProbe(port: server.port)
                _ = try open.login(Self.alice, "secret")
                server.kill9()
                let closed = try open.isClosedByServer()
                let refused = (try? IMAPProbe(port: server.port)) == nil
                try server.restart()
                let afterCrash = try IMAPProbe(port: server.port).login(Self.alice, "secret")
                return (portBefore, server.port, afterRestart, closed, refused, afterCrash)
            }
        #expect(portBefore == portAfter)
        #expect(IMAPProbe.status(loginAfterRestart) == "OK")
        #expect(sessionClosed)
        #expect(refusedWhileDown)
        #expect(IMAPProbe.status(loginAfterCrash) == "OK")
    }

    @Test("After stop the port refuses connections, and stopping twice is harmless")
    func stop() async throws {
        let refused = try await offThePool { () throws -> Bool in
            let directory = try scratchDirectory("dovecot")
            defer { try? FileManager.default.removeItem(at: directory) }  // best-effort cleanup
            let server = try DovecotServer.start(in: directory, configuration: DovecotConfiguration())
            try server.stop()
            try server.stop()
            return (try? IMAPProbe(port: server.port)) == nil
        }
        #expect(refused)
    }

    @Test("XOAUTH2 logs in with the token the introspection endpoint accepts, and not with another")
    func xoauth2() async throws {
        let endpoint = try IntrospectionEndpoint(acceptedToken: "good-token", user: Self.alice)
        defer { endpoint.stop() }
        let configuration = DovecotConfiguration(oauth2IntrospectionURL: endpoint.url)
        @Sendable func xoauth2(_ token: String) -> String {
            Data("user=\(Self.alice)\u{1}auth=Bearer \(token)\u{1}\u{1}".utf8).base64EncodedString()
        }
        let (greeting, good, bad) = try await withDovecot(configuration) { server in
            let accepted = try IMAPProbe(port: server.port)
            let good = try accepted.run("AUTHENTICATE XOAUTH2 \(xoauth2("good-token"))", answeringContinuations: true)
            let refused = try IMAPProbe(port: server.port)
            let bad = try refused.run("AUTHENTICATE XOAUTH2 \(xoauth2("bad-token"))", answeringContinuations: true)
            return (accepted.greeting, good, bad)
        }
        #expect(greeting.contains("AUTH=XOAUTH2"))
        #expect(IMAPProbe.status(good) == "OK")
        #expect(IMAPProbe.status(bad) == "NO")
        #expect(endpoint.receivedTokens == ["good-token", "bad-token"])
    }
}
