import ChatmailTestSupport
import Foundation
import SMTPClient
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension SMTPSubmissionTests {
    @Test("a wrong token or password is a refused login, and the error never shows the secret")
    func wrongCredentials() async throws {
        try await Self.withServer(token: Self.token) { server in
            let attempts: [SMTPAuthentication] = [
                .xoauth2(user: Self.user, token: "ya29.wrong-token"),
                .password(user: Self.user, password: "wrong-password"),
                .password(user: "someone-else@example.org", password: Self.password),
            ]
            for authentication in attempts {
                let result = await Self.outcome(Self.submitter(server, authentication: authentication))
                guard case .failure(let error) = result, case .authenticationFailed(let text) = error else {
                    Issue.record("expected a refused login for \(authentication), got \(result)")
                    continue
                }
                #expect(text.contains("535"))
                let description = try #require(error.errorDescription)
                #expect(!description.contains("wrong-token") && !description.contains("wrong-password"))
                #expect(!description.contains("\n"))
            }
            #expect(try server.received().isEmpty)
        }
    }

    @Test("no login where the server requires one is a refused login (530), not a refused message")
    func loginRequired() async throws {
        try await Self.withServer { server in
            let result = await Self.outcome(Self.submitter(server, authentication: SMTPAuthentication.none))
            guard case .failure(.authenticationFailed(let text)) = result else {
                Issue.record("expected a refused login, got \(result)")
                return
            }
            #expect(text.hasPrefix("530"))
        }
    }

    @Test("a 554 to the end of the message is a refusal in the server's words, and nothing is stored")
    func refused() async throws {
        try await Self.withServer { server in
            try server.setBehaviour(.refuse)
            let result = await Self.outcome(Self.submitter(server))
            guard case .failure(let error) = result, case .refused(let code, let text) = error else {
                Issue.record("expected refused, got \(result)")
                return
            }
            #expect(code == 554)
            #expect(text.contains("the test server refuses this message"))
            #expect(error.errorDescription?.contains("554 5.7.1") == true)
            #expect(try server.received().isEmpty)
        }
    }

    @Test("a refused recipient fails the whole submission, and nothing is stored")
    func refusedRecipient() async throws {
        try await Self.withServer { server in
            try server.setBehaviour(.refuseRecipient("cc@example.com"))
            let result = await Self.outcome(Self.submitter(server))
            guard case .failure(.refused(let code, let text)) = result else {
                Issue.record("expected refused, got \(result)")
                return
            }
            #expect(code == 550)
            #expect(text.contains("cc@example.com"))
            #expect(try server.received().isEmpty)
        }
    }

    @Test("a 451 to the end of the message is temporary, and a later submission goes through")
    func temporary() async throws {
        try await Self.withServer { server in
            try server.setBehaviour(.tempfail)
            let submitter = Self.submitter(server)
            let result = await Self.outcome(submitter)
            guard case .failure(.temporary(let code, let text)) = result else {
                Issue.record("expected temporary, got \(result)")
                return
            }
            #expect(code == 451)
            #expect(text.contains("defers this message"))
            #expect(try server.received().isEmpty)

            try server.setBehaviour(.accept)
            _ = try await submitter.submit(Self.message, envelope: Self.envelope)
            #expect(try server.received().map(\.raw) == [Self.message])
        }
    }

    @Test("a connection dropped after the whole message, before the reply, leaves the outcome unknown")
    func droppedAfterData() async throws {
        try await Self.withServer { server in
            try server.setBehaviour(.dropAfterData)
            let result = await Self.outcome(Self.submitter(server))
            guard case .failure(.outcomeUnknown(let reason)) = result else {
                Issue.record("expected outcomeUnknown, got \(result)")
                return
            }
            #expect(reason.contains("127.0.0.1:\(server.port)"))
            // The server did take it: exactly what "unknown" has to allow for.
            #expect(try server.received().map(\.raw) == [Self.message])
        }
    }

    @Test("nothing listening is unreachable; once a server listens there, the same submission goes through")
    func serverDown() async throws {
        try #require(await SMTPTestServer.isAvailable, "python3-aiosmtpd is missing: run scripts/install-deps")
        let directory = try scratchDirectory("smtp")
        defer { try? FileManager.default.removeItem(at: directory) }  // best-effort cleanup of scratch files
        let first = try await SMTPTestServer.start(user: Self.user, password: Self.password, in: directory)
        let port = first.port
        await first.stopAndWait()

        let submitter = Self.submitter(first)
        let result = await Self.outcome(submitter)
        guard case .failure(.unreachable(let reason)) = result else {
            Issue.record("expected unreachable, got \(result)")
            return
        }
        #expect(reason.contains("127.0.0.1:\(port)"))

        let second = try await SMTPTestServer.start(user: Self.user, password: Self.password, port: port, in: directory)
        defer { second.stop() }
        #expect(second.port == port)
        _ = try await submitter.submit(Self.message, envelope: Self.envelope)
        #expect(try second.received().map(\.raw) == [Self.message])
    }

    @Test(
        "a server that accepts the connection but never greets is unreachable once the idle time passes",
        .timeLimit(.minutes(2)))
    func neverGreets() async throws {
        // The kernel completes the handshake for a listening socket nobody accepts on: a silent server.
        let listener = try LoopbackListener()
        defer { close(listener.descriptor) }
        let submitter = SMTPSubmitter(
            endpoint: SMTPEndpoint(host: "127.0.0.1", port: listener.port, security: .none),
            authentication: .password(user: Self.user, password: Self.password),
            timeouts: SMTPTimeouts(connect: .seconds(30), idle: .seconds(1)))
        let result = await Self.outcome(submitter)
        guard case .failure(.unreachable(let reason)) = result else {
            Issue.record("expected unreachable, got \(result)")
            return
        }
        #expect(reason.contains("127.0.0.1:\(listener.port)"))
    }

    @Test("an envelope no server could take is refused before connecting, saying why")
    func impossibleEnvelopes() async throws {
        // Nothing listens on this port: an attempt to connect would be unreachable, not refused.
        let port = try LoopbackListener().closedPort()
        let submitter = SMTPSubmitter(
            endpoint: SMTPEndpoint(host: "127.0.0.1", port: port, security: .none), authentication: .none)
        let envelopes = [
            SMTPEnvelope(from: Self.user, recipients: []),
            SMTPEnvelope(from: Self.user, recipients: ["you@example.net>\r\nRCPT TO:<else@example.net"]),
            SMTPEnvelope(from: "me@example.org\nRSET", recipients: ["you@example.net"]),
        ]
        for envelope in envelopes {
            let result = await Self.outcome(submitter, envelope: envelope)
            guard case .failure(let error) = result, case .refused(0, _) = error else {
                Issue.record("expected a refusal before connecting for \(envelope), got \(result)")
                continue
            }
            #expect(error.errorDescription?.hasPrefix("The message cannot be sent: ") == true)
        }
    }

    @Test("an empty message to a port nothing listens on is unreachable, not of unknown outcome")
    func emptyMessageUnreachable() async throws {
        let port = try LoopbackListener().closedPort()
        let submitter = SMTPSubmitter(
            endpoint: SMTPEndpoint(host: "127.0.0.1", port: port, security: .none), authentication: .none)
        let result = await Self.outcome(submitter, [])
        guard case .failure(.unreachable) = result else {
            Issue.record("expected unreachable, got \(result)")
            return
        }
    }
}

extension LoopbackListener {
    /// Closes the listener and returns its port, on which nothing listens any more.
    fileprivate func closedPort() -> Int {
        close(descriptor)
        return port
    }
}
