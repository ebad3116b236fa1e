import ChatmailTestSupport
import DovecotLauncher
import Foundation
import IMAPClient
import IMAPProtocol
import Testing

/// A real Dovecot on loopback for the tests of the write commands and IDLE, and what they do with it.
enum DovecotFixture {
    static let alice = "alice@example.org"
    static let password = "secret"

    /// Starts a Dovecot in a scratch directory, runs `body`, and stops it; a failure carries its log.
    static func withDovecot<T: Sendable>(
        _ configuration: DovecotConfiguration = DovecotConfiguration(),
        _ body: (DovecotServer) async throws -> T
    ) async throws -> T {
        let directory = try scratchDirectory("imapchanges")
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

    static func connect(
        _ server: DovecotServer, timeouts: IMAPTimeouts = IMAPTimeouts(connect: .seconds(30), command: .seconds(60))
    ) async throws(IMAPClientError) -> IMAPConnection {
        try await IMAPConnection.connect(
            to: IMAPEndpoint(host: server.host, port: server.port, security: .none),
            authentication: .password(user: alice, password: password), timeouts: timeouts)
    }

    /// A message with the Message-ID `<id@example.net>`, CRLF line endings throughout.
    static func message(_ id: String) -> [UInt8] { Array(IMAPTestMail.message(id).utf8) }

    /// Delivers messages in order, so they get ascending UIDs in `folder`.
    static func deliver(_ ids: [String], to folder: String = "INBOX", in server: DovecotServer) async throws {
        try await offThePool {
            for id in ids { try server.deliver(message(id), to: folder, user: alice) }
        }
    }

    /// The bare Message-ID of each given UID in the selected mailbox, fetched fresh.
    static func messageIDs(_ uids: [UInt32], on connection: IMAPConnection) async throws -> [UInt32: String] {
        let result = try await connection.uidFetch(
            IMAPUIDSet(uids), items: ["UID", "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]"])
        var ids: [UInt32: String] = [:]
        for message in result.messages {
            guard let uid = message.uid, let header = message.header else { continue }
            let text = String(decoding: header, as: UTF8.self)
            guard let start = text.firstIndex(of: "<"), let end = text.firstIndex(of: ">") else { continue }
            ids[uid] = String(text[text.index(after: start)..<end])
        }
        return ids
    }

    /// Every UID in the selected mailbox.
    static func allUIDs(on connection: IMAPConnection) async throws -> [UInt32] {
        try await connection.uidSearch("ALL").sorted()
    }
}
