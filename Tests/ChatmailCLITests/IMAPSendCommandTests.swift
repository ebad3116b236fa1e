import ChatmailTestSupport
import Foundation
import Testing

/// `reply` and `send` on an IMAP account, as a person runs them: the real binary, a real Dovecot and a
/// real SMTP server on loopback, and what each server received checked from outside chatmail.
@Suite("IMAP accounts send over SMTP", .serialized)
struct IMAPSendCommandTests {
    /// A Dovecot with a message from Bob, an SMTP server, and a home logged in to both and synced.
    struct Setup {
        let server: DovecotHomes
        let smtp: SMTPTestServer
        let home: URL

        static func start(
            behaviour: SMTPTestServer.Behaviour = .accept, sentCopy: String = "auto"
        ) async throws -> Setup {
            let server = try await DovecotHomes.start()
            let smtp = try await SMTPTestServer.start(
                security: .plain, user: DovecotHomes.user, password: DovecotHomes.password,
                in: server.directory.appendingPathComponent("smtp"))
            try smtp.setBehaviour(behaviour)
            try await server.deliver(imapMessage("dinner", subject: "Dinner", body: "Friday at eight?"))
            let home = server.home("send")
            let login = try await server.login(
                home,
                extra: [
                    "--smtp-host", "127.0.0.1", "--smtp-port", String(smtp.port), "--smtp-security", "none",
                    "--sent-copy", sentCopy,
                ])
            try #require(login.status == 0, "\(login.stderr)")
            _ = try await server.syncJSON(home)
            return Setup(server: server, smtp: smtp, home: home)
        }

        func stop() {
            smtp.stop()
            server.stop()
        }

        func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> RunResult {
            try await server.run(home, arguments, environment: environment)
        }

        func sentFolder() async throws -> IMAPFolderSnapshot {
            try await IMAPFolderSnapshot.read(
                host: server.host, port: server.port, user: DovecotHomes.user, password: DovecotHomes.password,
                folder: "Sent")
        }

        /// Bob's conversation as `show --json` has it.
        func bobMessages() async throws -> [[String: Any]] {
            let show = try await run(["show", "bob@example.net", "--json"])
            try #require(show.status == 0, "\(show.stderr)")
            let document = try #require(try show.json() as? [String: Any], "\(show.stdout)")
            return try #require(document["messages"] as? [[String: Any]], "\(document)")
        }

        func bubbles(saying text: String) async throws -> [[String: Any]] {
            try await bobMessages().filter { ($0["text"] as? String)?.contains(text) == true }
        }
    }

    @Test("reply: threaded headers, every recipient, one SMTP copy, one Sent copy, one bubble after sync")
    func reply() async throws {
        let setup = try await Setup.start(sentCopy: "always")
        defer { setup.stop() }
        let reply = try await setup.run(["reply", "bob@example.net", "-m", "Eight works.", "--json"])
        #expect(reply.status == 0, "\(reply.stderr)")
        #expect((try reply.json() as? [String: Any])?["status"] as? String == "sent", "\(reply.stdout)")

        let received = try setup.smtp.received()
        try #require(received.count == 1, "\(received.count) copies")
        let message = try #require(received.first)
        #expect(message.from == DovecotHomes.user)
        #expect(message.recipients == ["bob@example.net"])
        let raw = String(decoding: message.raw, as: UTF8.self)
        #expect(raw.contains("In-Reply-To: <dinner@example.net>"), "\(raw)")
        #expect(raw.contains("References: <dinner@example.net>"), "\(raw)")
        #expect(raw.contains("Subject: Re: Dinner"), "\(raw)")
        let messageID = try #require(
            raw.split(separator: "\r\n").first { $0.hasPrefix("Message-ID: ") }?.dropFirst("Message-ID: ".count))

        let sent = try await setup.sentFolder()
        #expect(sent.copies(of: String(messageID)).count == 1, "\(sent)")
        #expect(sent.copies(of: String(messageID)).first?.flags.contains("\\Seen") == true)

        let sync = try await setup.server.syncJSON(setup.home)
        #expect(sync["messagesAdded"] as? Int == 0, "the Sent copy is the outbox copy: \(sync)")
        #expect(try await setup.bubbles(saying: "Eight works.").count == 1)
        #expect(try duplicateMessageIDs(home: setup.home).isEmpty)
        #expect(try setup.smtp.received().count == 1, "nothing sent twice")
    }

    @Test("send to three people: the envelope names all three; auto files the Sent copy on a plain host")
    func send() async throws {
        let setup = try await Setup.start()
        defer { setup.stop() }
        let send = try await setup.run([
            "send", "carol@example.com", "dave@example.com", "erin@example.com", "--subject", "Picnic", "-m",
            "Saturday?",
        ])
        #expect(send.status == 0, "\(send.stderr)")
        let received = try setup.smtp.received()
        try #require(received.count == 1)
        #expect(Set(received[0].recipients) == ["carol@example.com", "dave@example.com", "erin@example.com"])
        let sent = try await setup.sentFolder()
        #expect(sent.copies.count == 1, "\(sent)")
        let sync = try await setup.server.syncJSON(setup.home)
        #expect(sync["messagesAdded"] as? Int == 0, "\(sync)")
    }

    @Test("the connection drops after DATA: one copy, shown as unknown, sent again only by pending retry")
    func outcomeUnknown() async throws {
        let setup = try await Setup.start(behaviour: .dropAfterData, sentCopy: "never")
        defer { setup.stop() }
        let reply = try await setup.run(["reply", "bob@example.net", "-m", "Did this arrive?"])
        #expect(reply.status == 0, "stored, so exit 0: \(reply.stderr)")
        #expect(outputLines(reply.stdout).count == 1, "\(reply.stdout)")
        #expect(reply.stdout.contains("outcome unknown"), "\(reply.stdout)")
        #expect(try setup.smtp.received().count == 1)

        let bubble = try #require(try await setup.bubbles(saying: "Did this arrive?").first)
        #expect((bubble["outbox"] as? [String: Any])?["status"] as? String == "unknown", "\(bubble)")
        let listed = try #require(try await setup.run(["pending", "list", "--json"]).json() as? [[String: Any]])
        let action = try #require(listed.first { $0["kind"] as? String == "send" }, "\(listed)")

        // Neither a sync nor a queue run sends it again by itself.
        try setup.smtp.setBehaviour(.accept)
        _ = try await setup.server.syncJSON(setup.home)
        _ = try await setup.run(["pending", "run"])
        #expect(try setup.smtp.received().count == 1)

        // Retrying everything is not a decision about this message.
        let all = try await setup.run(["pending", "retry", "--all"])
        #expect(all.status == 0, "\(all.stderr)")
        _ = try await setup.run(["pending", "run"])
        #expect(try setup.smtp.received().count == 1, "--all never sends a message of unknown outcome again")

        // The person decides.
        let id = try #require(action["id"] as? Int)
        let retry = try await setup.run(["pending", "retry", String(id)])
        #expect(retry.status == 0, "\(retry.stderr)")
        let run = try await setup.run(["pending", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try setup.smtp.received().count == 2)
        let after = try await setup.bubbles(saying: "Did this arrive?")
        #expect(after.count == 1 && after.first?["outbox"] is NSNull, "\(after)")
    }

    @Test("a 554 refusal: exit 1 with the server's words; the message is kept as not sent")
    func refused() async throws {
        let setup = try await Setup.start(behaviour: .refuse)
        defer { setup.stop() }
        let reply = try await setup.run(["reply", "bob@example.net", "-m", "Spammy?"])
        #expect(reply.status == 1, "\(reply.stdout)")
        #expect(reply.stderr.contains("554"), "\(reply.stderr)")
        #expect(outputLines(reply.stderr).count == 1, "\(reply.stderr)")
        #expect(try setup.smtp.received().isEmpty)
        let bubble = try #require(try await setup.bubbles(saying: "Spammy?").first)
        #expect((bubble["outbox"] as? [String: Any])?["status"] as? String == "abandoned", "\(bubble)")
    }

    @Test("SMTP down: the reply waits as queued (exit 0); with the server up, the next sync sends it once")
    func downThenUp() async throws {
        let setup = try await Setup.start()
        defer { setup.stop() }
        await setup.smtp.stopAndWait()
        let reply = try await setup.run(["reply", "bob@example.net", "-m", "Are you there?", "--json"])
        #expect(reply.status == 0, "\(reply.stderr)")
        #expect((try reply.json() as? [String: Any])?["status"] as? String == "queued", "\(reply.stdout)")
        let bubble = try #require(try await setup.bubbles(saying: "Are you there?").first)
        #expect((bubble["outbox"] as? [String: Any])?["status"] as? String == "queued", "\(bubble)")

        let again = try await SMTPTestServer.start(
            user: DovecotHomes.user, password: DovecotHomes.password, port: setup.smtp.port, in: setup.smtp.directory)
        defer { again.stop() }
        // A day later by the clock: past any backoff the unreachable server earned.
        let later = Int64(Date().timeIntervalSince1970 * 1000) + 86_400_000
        let run = try await setup.run(["pending", "run"], environment: ["CHATMAIL_NOW_MS": String(later)])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try again.received().count == 1)
        _ = try await setup.server.syncJSON(setup.home)
        #expect(try await setup.bubbles(saying: "Are you there?").count == 1)
    }

    @Test("XOAUTH2 on both: the token command's token logs in to IMAP and to SMTP; a refused token exits 3")
    func xoauth2() async throws {
        let endpoint = try IntrospectionEndpoint(acceptedToken: "token-both", user: DovecotHomes.user)
        defer { endpoint.stop() }
        let server = try await DovecotHomes.start(oauth2IntrospectionURL: endpoint.url)
        defer { server.stop() }
        let smtp = try await SMTPTestServer.start(
            user: DovecotHomes.user, password: "no-password-here", token: "token-both", mechanisms: [.xoauth2],
            in: server.directory.appendingPathComponent("smtp"))
        defer { smtp.stop() }
        try await server.deliver(imapMessage("dinner", subject: "Dinner", body: "Friday at eight?"))
        let home = server.home("oauth")
        let tokenFile = server.directory.appendingPathComponent("token")
        try Data("token-both".utf8).write(to: tokenFile)
        let login = try await server.run(
            home,
            [
                "login", "--imap", DovecotHomes.user, "--host", server.host, "--port", String(server.port),
                "--security", "none", "--token-command", "cat '\(tokenFile.path)'", "--smtp-host", "127.0.0.1",
                "--smtp-port", String(smtp.port), "--smtp-security", "none",
            ])
        try #require(login.status == 0, "\(login.stderr)")
        _ = try await server.syncJSON(home)
        let reply = try await server.run(home, ["reply", "bob@example.net", "-m", "Token works."])
        #expect(reply.status == 0, "\(reply.stderr)")
        #expect(try smtp.received().count == 1)
        #expect(endpoint.receivedTokens.contains("token-both"))

        // The token goes stale: SMTP refuses the login, the message stays queued, and the exit says log in.
        try Data("token-stale".utf8).write(to: tokenFile)
        let stale = try await server.run(home, ["reply", "bob@example.net", "-m", "Stale token."])
        #expect(stale.status == 3, "\(stale.stdout) \(stale.stderr)")
        #expect(try smtp.received().count == 1)
        let listed = try #require(try await server.run(home, ["pending", "list", "--json"]).json() as? [[String: Any]])
        #expect(
            listed.contains { $0["kind"] as? String == "send" && $0["status"] as? String == "pending" }, "\(listed)")
    }

    @Test("an unknown outcome settles by itself once sync finds the message in Sent, as a self-filing server puts it")
    func unknownSettledBySync() async throws {
        let setup = try await Setup.start(behaviour: .dropAfterData, sentCopy: "never")
        defer { setup.stop() }
        let reply = try await setup.run(["reply", "bob@example.net", "-m", "Filed by the server."])
        #expect(reply.status == 0, "\(reply.stderr)")
        let submitted = try #require(try setup.smtp.received().first)
        // What Gmail, Outlook or iCloud do with what they accept: file it in Sent themselves.
        try await IMAPTestMail.append(
            String(decoding: submitted.raw, as: UTF8.self), host: setup.server.host, port: setup.server.port,
            user: DovecotHomes.user, password: DovecotHomes.password, folder: "Sent")
        _ = try await setup.server.syncJSON(setup.home)
        let bubbles = try await setup.bubbles(saying: "Filed by the server.")
        #expect(bubbles.count == 1, "\(bubbles)")
        #expect(bubbles.first?["outbox"] is NSNull, "settled: \(bubbles)")
        #expect(try duplicateMessageIDs(home: setup.home).isEmpty)
        let listed = try #require(try await setup.run(["pending", "list", "--json"]).json() as? [[String: Any]])
        #expect(!listed.contains { $0["kind"] as? String == "send" }, "\(listed)")
        #expect(try setup.smtp.received().count == 1, "never sent again")
    }

    @Test("killed while submitting: the send counts as of unknown outcome, and no later run sends it by itself")
    func killedWhileSubmitting() async throws {
        let setup = try await Setup.start(sentCopy: "never")
        defer { setup.stop() }
        let killed = try await setup.run(
            ["reply", "bob@example.net", "-m", "Killed mid-send."],
            environment: ["CHATMAIL_TEST_CRASH_AT": "sendMarked"])
        #expect(killed.status != 0, "the crash point should have ended the process")
        let run = try await setup.run(["pending", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        _ = try await setup.server.syncJSON(setup.home)
        #expect(try setup.smtp.received().isEmpty, "nothing is sent without a person deciding")
        let bubble = try #require(try await setup.bubbles(saying: "Killed mid-send.").first)
        #expect((bubble["outbox"] as? [String: Any])?["status"] as? String == "unknown", "\(bubble)")
    }
}
