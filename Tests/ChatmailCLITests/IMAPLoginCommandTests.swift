import ChatmailTestSupport
import Foundation
import Testing

/// `chatmail login --imap` through the real binary against a real Dovecot: what it stores, what it
/// refuses, and every way to give it a secret.
@Suite struct IMAPLoginCommandTests {
    @Test(
        "a password on stdin: one line naming the host, stored 0600 in a 0700 home; status names the server and the provider"
    )
    func passwordOnStdin() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        let home = server.home("stdin")

        let login = try await server.login(home)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(outputLines(login.stdout).count == 1, "\(login.stdout)")
        #expect(login.stdout.hasPrefix("Logged in to 127.0.0.1 as alice@example.org ("), "\(login.stdout)")
        #expect(!(login.stdout + login.stderr).contains(DovecotHomes.password))

        let credentials = home.appendingPathComponent("imap-credentials.json")
        #expect(try FileManager.default.attributesOfItem(atPath: credentials.path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: home.path)[.posixPermissions] as? Int == 0o700)
        let stored = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: credentials)) as? [String: Any])
        #expect((stored["passwords"] as? [String: String])?["alice@example.org"] == DovecotHomes.password)

        let status = try await server.run(home, ["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("IMAP server"), "\(status.stdout)")
        #expect(status.stdout.contains("127.0.0.1:\(server.port)"), "\(status.stdout)")
        let json = try #require(try await server.run(home, ["status", "--json"]).json() as? [String: Any])
        #expect(json["provider"] as? String == "imap")
        #expect(json["account"] as? String == "alice@example.org")
        #expect((json["server"] as? String)?.contains("127.0.0.1:\(server.port)") == true, "\(json)")

        // The stored password is what later connections use.
        try await server.deliver(imapMessage("stdin1"))
        #expect(try await server.syncJSON(home)["messagesAdded"] as? Int == 1)
    }

    @Test("a Gmail home's status --json says provider gmail and names no IMAP server")
    func gmailStatusProvider() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let json = try #require(try await fixture.run(["status", "--json"]).json() as? [String: Any])
        #expect(json["provider"] as? String == "gmail")
        #expect(json.keys.contains("server") && json["server"] is NSNull, "\(json)")
        let text = try await fixture.run(["status"])
        #expect(!text.stdout.contains("IMAP server") && text.stdout.contains("History id"), "\(text.stdout)")
    }

    @Test("a wrong password exits 3 with Dovecot's words on one line, and nothing is stored")
    func wrongPassword() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        let home = server.home("wrong")

        let login = try await server.login(home, password: "not-the-password")
        #expect(login.status == 3, "\(login.stderr)")
        #expect(outputLines(login.stderr).count == 1, "\(login.stderr)")
        #expect(login.stderr.contains("Authentication failed"), "\(login.stderr)")
        #expect(!login.stderr.contains("not-the-password"))
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("imap-credentials.json").path))
        #expect(try accountEmails(home: home).isEmpty)
    }

    @Test("an unreachable port, or TLS against a plain port, exits 1 naming host and port, and stores nothing")
    func unreachableAndTLSFailure() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }

        let closedPort = try closedLoopbackPort()
        let refusedHome = server.home("refused")
        let refused = try await server.login(refusedHome, port: closedPort)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(outputLines(refused.stderr).count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("127.0.0.1:\(closedPort)"), "\(refused.stderr)")
        #expect(try accountEmails(home: refusedHome).isEmpty)

        let tlsHome = server.home("tls")
        let tls = try await server.login(tlsHome, extra: ["--security", "tls"])
        #expect(tls.status == 1, "\(tls.stderr)")
        #expect(outputLines(tls.stderr).count == 1, "\(tls.stderr)")
        #expect(tls.stderr.contains("127.0.0.1:\(server.port)"), "\(tls.stderr)")
        #expect(tls.stderr.contains("TLS"), "\(tls.stderr)")
        #expect(try accountEmails(home: tlsHome).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: tlsHome.appendingPathComponent("imap-credentials.json").path))
    }

    @Test("--password-command stores no password and runs again at each sync")
    func passwordCommand() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        let home = server.home("command")
        let runs = server.directory.appendingPathComponent("password-command-runs")
        // Each run leaves a line behind, so the test can count them.
        let command = "echo ran >> '\(runs.path)'; printf secret"

        let login = try await server.run(
            home,
            [
                "login", "--imap", DovecotHomes.user, "--host", server.host, "--port", String(server.port),
                "--security", "none", "--password-command", command,
            ])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("imap-credentials.json").path))
        #expect(try String(contentsOf: runs, encoding: .utf8) == "ran\n")

        try await server.deliver(imapMessage("cmd1"))
        try await server.deliver(imapMessage("cmd2"))
        let sync = try await server.syncJSON(home)
        #expect(sync["messagesAdded"] as? Int == 2)
        #expect(try String(contentsOf: runs, encoding: .utf8) == "ran\nran\n")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("imap-credentials.json").path))
    }

    @Test("--token-command logs in and syncs with XOAUTH2; a token the server refuses exits 3")
    func tokenCommand() async throws {
        let endpoint = try IntrospectionEndpoint(acceptedToken: "good-token-1", user: DovecotHomes.user)
        defer { endpoint.stop() }
        let server = try await DovecotHomes.start(oauth2IntrospectionURL: endpoint.url)
        defer { server.stop() }
        func loginWithToken(_ home: URL, token: String) async throws -> RunResult {
            try await server.run(
                home,
                [
                    "login", "--imap", DovecotHomes.user, "--host", server.host, "--port", String(server.port),
                    "--security", "none", "--token-command", "printf \(token)",
                ])
        }

        let home = server.home("token")
        let login = try await loginWithToken(home, token: "good-token-1")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("imap-credentials.json").path))
        try await server.deliver(imapMessage("tok1"))
        #expect(try await server.syncJSON(home)["messagesAdded"] as? Int == 1)
        #expect(endpoint.receivedTokens.filter { $0 == "good-token-1" }.count >= 2, "login and sync each asked")

        let badHome = server.home("bad-token")
        let bad = try await loginWithToken(badHome, token: "revoked-token")
        #expect(bad.status == 3, "\(bad.stderr)")
        #expect(outputLines(bad.stderr).count == 1, "\(bad.stderr)")
        #expect(endpoint.receivedTokens.contains("revoked-token"))
        #expect(try accountEmails(home: badHome).isEmpty)
    }

    @Test("the config file's [[account]] gives host, port, security and password command: login ADDRESS alone works")
    func configFileAccount() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        let config = server.directory.appendingPathComponent("config.toml")
        try """
        [[account]]
        kind = "imap"
        address = "alice@example.org"
        host = "\(server.host)"
        port = \(server.port)
        security = "none"
        password_command = "printf secret"

        """.write(to: config, atomically: true, encoding: .utf8)
        let home = server.home("config")

        let login = try await server.run(home, ["login", "--imap", DovecotHomes.user, "--config", config.path])
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout.contains("127.0.0.1"), "\(login.stdout)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("imap-credentials.json").path))
        try await server.deliver(imapMessage("conf1"))
        #expect(try await server.syncJSON(home, ["--config", config.path])["messagesAdded"] as? Int == 1)

        // Without the file, the address alone names no server.
        let bare = try await server.run(server.home("bare"), ["login", "--imap", DovecotHomes.user])
        #expect(bare.status == 64, "\(bare.stderr)")
        #expect(bare.stderr.contains("--host"), "\(bare.stderr)")
    }
}
