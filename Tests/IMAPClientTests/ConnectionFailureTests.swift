import Foundation
import Glibc
import IMAPClient
import Testing

/// Establishing a connection: unreachable servers and TLS that cannot be set up. Every error names the
/// server as host:port.
@Suite("IMAPConnection establishment failures")
struct ConnectionFailureTests {
    let timeouts = IMAPTimeouts(connect: .seconds(30), command: .seconds(30))
    let alice = IMAPAuthentication.password(user: "alice", password: "secret")

    /// A port nothing listens on: bound to find a free one, then closed.
    func closedPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw ScriptError.socket("bind", errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test("A closed port is unreachable, naming host:port")
    func refused() async throws {
        let port = try closedPort()
        await #expect {
            try await IMAPConnection.connect(
                to: IMAPEndpoint(host: "127.0.0.1", port: port, security: .none), authentication: alice,
                timeouts: timeouts)
        } throws: { error in
            guard case .unreachable(let host, let errorPort, let reason) = error as? IMAPClientError else {
                return false
            }
            let message = (error as? IMAPClientError)?.errorDescription ?? ""
            return host == "127.0.0.1" && errorPort == port && reason.lowercased().contains("refused")
                && message.contains("127.0.0.1:\(port)")
        }
    }

    @Test("TLS against a plain-text server fails the handshake, naming host:port")
    func tlsAgainstPlainText() async throws {
        let server = try ScriptedIMAPServer { peer in
            try peer.send("* OK [CAPABILITY IMAP4rev1] plain text only\r\n")
            peer.waitForClose()
        }
        await #expect {
            try await IMAPConnection.connect(
                to: IMAPEndpoint(host: "127.0.0.1", port: server.port, security: .tls), authentication: alice,
                timeouts: timeouts)
        } throws: { error in
            guard case .tlsFailed(let host, let port, _) = error as? IMAPClientError else { return false }
            let message = (error as? IMAPClientError)?.errorDescription ?? ""
            return host == "127.0.0.1" && port == server.port && message.contains("127.0.0.1:\(server.port)")
        }
        try await server.finish()
    }

    @Test("STARTTLS accepted but a broken handshake is a TLS failure, naming host:port")
    func startTLSHandshakeFails() async throws {
        let server = try ScriptedIMAPServer { peer in
            try peer.send("* OK [CAPABILITY IMAP4rev1 STARTTLS LOGINDISABLED] ready\r\n")
            let (tag, command) = try peer.readCommand()
            guard command == "STARTTLS" else { throw ScriptError.unexpected(command) }
            try peer.send("\(tag) OK Begin TLS negotiation now\r\n")
            _ = try peer.readSome()  // The ClientHello.
            try peer.send("this is not a TLS record at all\r\n")
            peer.waitForClose()
        }
        await #expect {
            try await IMAPConnection.connect(
                to: IMAPEndpoint(host: "127.0.0.1", port: server.port, security: .starttls), authentication: alice,
                timeouts: timeouts)
        } throws: { error in
            guard case .tlsFailed(let host, let port, _) = error as? IMAPClientError else { return false }
            return host == "127.0.0.1" && port == server.port
        }
        try await server.finish()
    }

    @Test("Plain-text bytes after the STARTTLS OK are refused as an injection")
    func startTLSInjection() async throws {
        let server = try ScriptedIMAPServer { peer in
            try peer.send("* OK [CAPABILITY IMAP4rev1 STARTTLS] ready\r\n")
            let (tag, _) = try peer.readCommand()
            try peer.send("\(tag) OK Begin TLS negotiation now\r\n* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n")
            peer.waitForClose()
        }
        await #expect {
            try await IMAPConnection.connect(
                to: IMAPEndpoint(host: "127.0.0.1", port: server.port, security: .starttls), authentication: alice,
                timeouts: timeouts)
        } throws: { error in
            guard case .tlsFailed(_, _, let reason) = error as? IMAPClientError else { return false }
            return reason.contains("after accepting STARTTLS")
        }
        try await server.finish()
    }

    @Test("STARTTLS that the server does not offer is refused before any credential is sent")
    func startTLSMissing() async throws {
        let server = try ScriptedIMAPServer { peer in
            try peer.send("* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] ready\r\n")
            peer.waitForClose()
        }
        await #expect(throws: IMAPClientError.missingCapability("STARTTLS")) {
            try await IMAPConnection.connect(
                to: IMAPEndpoint(host: "127.0.0.1", port: server.port, security: .starttls), authentication: alice,
                timeouts: timeouts)
        }
        try await server.finish()
    }
}
