import Foundation
import IMAPClient
import IMAPProtocol
import Testing

/// The connection against a scripted server: the failures and edge cases a real server cannot be made to
/// produce on demand.
@Suite("IMAPConnection against a scripted server")
struct ScriptedServerTests {
    static let greeting = "* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN SASL-IR ENABLE] Scripted server ready\r\n"

    /// Greets, accepts `AUTHENTICATE PLAIN` for alice and answers with the capabilities after login.
    static func logIn(_ peer: ScriptedIMAPPeer, capabilities: String = "IMAP4rev1 ESEARCH X-GM-EXT-1") throws {
        try peer.send(greeting)
        let (tag, command) = try peer.readCommand()
        let expected = Data("\0alice\0secret".utf8).base64EncodedString()
        guard command == "AUTHENTICATE PLAIN \(expected)" else {
            throw ScriptError.unexpected("expected AUTHENTICATE PLAIN, got \(command)")
        }
        try peer.send("\(tag) OK [CAPABILITY \(capabilities)] Logged in\r\n")
    }

    /// Answers LOGOUT as servers do, with BYE and OK, then closes; any other command fails the script.
    static func serveLogout(_ peer: ScriptedIMAPPeer) throws {
        let (tag, command) = try peer.readCommand()
        guard command == "LOGOUT" else { throw ScriptError.unexpected("expected LOGOUT, got \(command)") }
        try peer.send("* BYE Logging out\r\n\(tag) OK Logout completed.\r\n")
        peer.close()
    }

    func connect(
        _ server: ScriptedIMAPServer, security: IMAPSecurity = .none, command: Duration = .seconds(30),
        authentication: IMAPAuthentication = .password(user: "alice", password: "secret")
    ) async throws(IMAPClientError) -> IMAPConnection {
        try await IMAPConnection.connect(
            to: IMAPEndpoint(host: "127.0.0.1", port: server.port, security: security), authentication: authentication,
            timeouts: IMAPTimeouts(connect: .seconds(30), command: command))
    }

    @Test("PLAIN login takes the capabilities from the OK")
    func plainLogin() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Self.logIn(peer)
            try Self.serveLogout(peer)
        }
        let connection = try await connect(server)
        #expect(connection.capabilities == ["IMAP4REV1", "ESEARCH", "X-GM-EXT-1"])
        #expect(connection.has("esearch"))
        #expect(!connection.has("AUTH=PLAIN"))
        #expect(connection.isGmail)
        await connection.logout()
        try await server.finish()
    }

    @Test("LOGIN sends a non-ASCII password as a literal after the server's continuation")
    func loginWithLiteral() async throws {
        let password = "pässwörd"
        let server = try ScriptedIMAPServer { peer in
            try peer.send("* OK [CAPABILITY IMAP4rev1] ready\r\n")
            let (tag, command) = try peer.readCommand()
            let size = Array(password.utf8).count
            guard command == "LOGIN \"alice\" {\(size)}" else { throw ScriptError.unexpected(command) }
            try peer.send("+ go ahead\r\n")
            let literal = try peer.readBytes(size)
            guard literal == Array(password.utf8), try peer.readLine().isEmpty else {
                throw ScriptError.unexpected("wrong literal")
            }
            try peer.send("\(tag) OK Logged in\r\n")
            let (capabilityTag, capability) = try peer.readCommand()
            guard capability == "CAPABILITY" else { throw ScriptError.unexpected(capability) }
            try peer.send("* CAPABILITY IMAP4rev1 IDLE\r\n\(capabilityTag) OK done\r\n")
            try Self.serveLogout(peer)
        }
        let connection = try await connect(server, authentication: .password(user: "alice", password: password))
        #expect(connection.capabilities == ["IMAP4REV1", "IDLE"])
        await connection.logout()
        try await server.finish()
    }

    @Test("A wrong password is an authentication failure with the server's words")
    func wrongPassword() async throws {
        let server = try ScriptedIMAPServer { peer in
            try peer.send(Self.greeting)
            let (tag, _) = try peer.readCommand()
            try peer.send("\(tag) NO [AUTHENTICATIONFAILED] Authentication failed.\r\n")
            peer.waitForClose()
        }
        await #expect(throws: IMAPClientError.authenticationFailed(serverText: "Authentication failed.")) {
            try await connect(server)
        }
        try await server.finish()
    }

    @Test("Pipelined commands each get their own untagged responses")
    func pipelinedRouting() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Self.logIn(peer, capabilities: "IMAP4rev1")
            var tags: [String] = []
            for _ in 0..<3 { tags.append(try peer.readCommand().tag) }
            var answer = ""
            for (index, tag) in tags.enumerated() {
                answer += "* SEARCH \(index + 1) \(index + 10)\r\n\(tag) OK done\r\n"
            }
            try peer.send(answer)
            try Self.serveLogout(peer)
        }
        let connection = try await connect(server)
        async let first = connection.uidSearch("ALL")
        async let second = connection.uidSearch("ALL")
        async let third = connection.uidSearch("ALL")
        let results = try await [first, second, third]
        #expect(results.sorted { $0[0] < $1[0] } == [[1, 10], [2, 11], [3, 12]])
        await connection.logout()
        try await server.finish()
    }

    @Test("uidFetchBatches keeps the window full: three commands arrive before any answer, the fourth after one")
    func batchWindow() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Self.logIn(peer)
            // The client must pipeline: the server answers nothing until it holds three commands.
            var pending: [(tag: String, command: String)] = []
            for _ in 0..<3 { pending.append(try peer.readCommand()) }
            for batch in 1...5 {
                let (tag, command) = pending.removeFirst()
                guard command == "UID FETCH \(batch) (UID)" else { throw ScriptError.unexpected(command) }
                try peer.send("* \(batch) FETCH (UID \(batch))\r\n\(tag) OK done\r\n")
                if batch <= 2 { pending.append(try peer.readCommand()) }
            }
            try Self.serveLogout(peer)
        }
        let connection = try await connect(server)
        var uids: [UInt32] = []
        let batches = (1...5).map { IMAPUIDSet([UInt32($0)]) }
        for try await result in connection.uidFetchBatches(batches, items: ["UID"], window: 3) {
            uids += result.messages.compactMap(\.uid)
        }
        #expect(uids == [1, 2, 3, 4, 5])
        await connection.logout()
        try await server.finish()
    }

    @Test("Garbage fails the command in flight as malformed, and the connection with it")
    func garbage() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Self.logIn(peer)
            _ = try peer.readCommand()
            try peer.send("\u{1}\u{2}(((garbage\r\n")
            peer.waitForClose()
        }
        let connection = try await connect(server)
        await #expect {
            try await connection.noop()
        } throws: { error in
            guard case .malformedResponse = error as? IMAPClientError else { return false }
            return true
        }
        await #expect {
            try await connection.noop()
        } throws: { error in
            guard case .malformedResponse = error as? IMAPClientError else { return false }
            return true
        }
        try await server.finish()
    }

    @Test("A connection dropped in the middle of a literal is a disconnection")
    func dropMidLiteral() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Self.logIn(peer)
            let (tag, _) = try peer.readCommand()
            _ = tag
            try peer.send("* 1 FETCH (UID 7 BODY[] {100}\r\nFrom: someone\r\n")
            peer.close()
        }
        let connection = try await connect(server)
        await #expect {
            try await connection.uidFetch(IMAPUIDSet([7]), items: ["UID", "BODY.PEEK[]"])
        } throws: { error in
            guard case .disconnected(let reason) = error as? IMAPClientError else { return false }
            return reason.contains("middle of a response")
        }
        try await server.finish()
    }

    @Test("An untagged BYE fails the command in flight with the server's words")
    func bye() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Self.logIn(peer)
            _ = try peer.readCommand()
            try peer.send("* BYE Server shutting down\r\n")
            peer.waitForClose()
        }
        let connection = try await connect(server)
        await #expect(throws: IMAPClientError.serverClosed(serverText: "Server shutting down")) {
            try await connection.noop()
        }
        try await server.finish()
    }

    @Test("A server that never answers times the command out and closes the connection")
    func silence() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Self.logIn(peer)
            _ = try peer.readCommand()
            peer.waitForClose()
        }
        // The short limit bounds this broken case; no working test depends on it.
        let connection = try await connect(server, command: .milliseconds(500))
        await #expect(throws: IMAPClientError.timedOut(command: "NOOP", seconds: 1)) {
            try await connection.noop()
        }
        await #expect(throws: IMAPClientError.timedOut(command: "NOOP", seconds: 1)) {
            try await connection.noop()
        }
        try await server.finish()
    }

    @Test("A literal split across many TCP writes arrives whole")
    func splitLiteral() async throws {
        let body = Array((0..<3000).map { "line \($0)\r\n" }.joined().utf8.prefix(3000))
        let server = try ScriptedIMAPServer { peer in
            try Self.logIn(peer)
            let (tag, _) = try peer.readCommand()
            let response =
                Array("* 1 FETCH (UID 7 RFC822.SIZE 3000 BODY[] {3000}\r\n".utf8) + body
                + Array(")\r\n\(tag) OK done\r\n".utf8)
            var offset = 0
            while offset < response.count {
                let end = min(offset + 97, response.count)
                try peer.send(Array(response[offset..<end]))
                offset = end
                // A pause now and then so the kernel sends separate segments rather than one.
                if offset % 970 == 0 { Thread.sleep(forTimeInterval: 0.002) }
            }
            try Self.serveLogout(peer)
        }
        let connection = try await connect(server)
        let result = try await connection.uidFetch(IMAPUIDSet([7]), items: ["UID", "RFC822.SIZE", "BODY.PEEK[]"])
        #expect(result.messages.count == 1)
        #expect(result.messages.first?.uid == 7)
        #expect(result.messages.first?.body == body)
        await connection.logout()
        try await server.finish()
    }

    @Test("XOAUTH2: a failure's JSON challenge is answered with an empty line, then the NO is reported")
    func xoauth2Failure() async throws {
        let server = try ScriptedIMAPServer { peer in
            try peer.send("* OK [CAPABILITY IMAP4rev1 AUTH=XOAUTH2 SASL-IR] ready\r\n")
            let (tag, command) = try peer.readCommand()
            let expected = Data("user=alice@example.org\u{1}auth=Bearer bad-token\u{1}\u{1}".utf8).base64EncodedString()
            guard command == "AUTHENTICATE XOAUTH2 \(expected)" else { throw ScriptError.unexpected(command) }
            let json = Data(#"{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}"#.utf8)
            try peer.send("+ \(json.base64EncodedString())\r\n")
            let answer = try peer.readLine()
            guard answer.isEmpty else { throw ScriptError.unexpected("expected an empty line, got \(answer)") }
            try peer.send("\(tag) NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)\r\n")
            peer.waitForClose()
        }
        await #expect(throws: IMAPClientError.authenticationFailed(serverText: "Invalid credentials (Failure)")) {
            try await connect(server, authentication: .xoauth2(user: "alice@example.org", token: "bad-token"))
        }
        try await server.finish()
    }

    @Test("XOAUTH2 is refused before sending the token when the server does not offer it")
    func xoauth2Missing() async throws {
        let server = try ScriptedIMAPServer { peer in
            try peer.send(Self.greeting)
            peer.waitForClose()
        }
        await #expect(throws: IMAPClientError.missingCapability("AUTH=XOAUTH2")) {
            try await connect(server, authentication: .xoauth2(user: "alice", token: "token"))
        }
        try await server.finish()
    }

    @Test("A greeting of BYE is a server-closed error")
    func greetingBye() async throws {
        let server = try ScriptedIMAPServer { peer in
            try peer.send("* BYE Too many connections\r\n")
            peer.waitForClose()
        }
        await #expect(throws: IMAPClientError.serverClosed(serverText: "Too many connections")) {
            try await connect(server)
        }
        try await server.finish()
    }
}
