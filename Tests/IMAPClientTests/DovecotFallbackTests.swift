import ChatmailTestSupport
import DovecotLauncher
import Foundation
import IMAPClient
import IMAPProtocol
import Testing

/// The write commands against a Dovecot that announces neither UIDPLUS, MOVE nor LITERAL+. Dovecot still
/// answers those commands and still sends APPENDUID and COPYUID, so these tests check what the client
/// sent (the rawlog) and what it made of the answers.
@Suite("IMAPConnection's fallbacks against Dovecot without UIDPLUS and MOVE", .timeLimit(.minutes(5)))
struct DovecotFallbackTests {
    typealias Fixture = DovecotFixture

    static let configuration = DovecotConfiguration(
        rawlog: true, withheldCapabilities: ["UIDPLUS", "MOVE", "LITERAL+"])

    @Test("Withholding nothing Dovecot has announces exactly Dovecot's own list")
    func withheldListMatchesDovecot() async throws {
        let own = try await Fixture.withDovecot { server in try await Fixture.connect(server).capabilities }
        let written = try await Fixture.withDovecot(DovecotConfiguration(withheldCapabilities: ["X-NOT-THERE"])) {
            server in try await Fixture.connect(server).capabilities
        }
        #expect(written == own)
        let withheld = try await Fixture.withDovecot(Self.configuration) { server in
            try await Fixture.connect(server).capabilities
        }
        #expect(withheld == own.subtracting(["UIDPLUS", "MOVE", "LITERAL+"]))
    }

    @Test("MOVE and UID EXPUNGE are refused unsent; COPY, STORE \\Deleted and EXPUNGE move a message instead")
    func copyStoreExpunge() async throws {
        try await Fixture.withDovecot(Self.configuration) { server in
            try await Fixture.deliver(["old"], to: "Archive", in: server)
            try await Fixture.deliver(["a", "b", "c"], in: server)
            let connection = try await Fixture.connect(server)
            #expect(!connection.has("UIDPLUS"))
            #expect(!connection.has("MOVE"))
            _ = try await connection.select("INBOX")

            await #expect(throws: IMAPClientError.missingCapability("MOVE")) {
                try await connection.uidMove(IMAPUIDSet([2]), to: "Archive")
            }
            await #expect(throws: IMAPClientError.missingCapability("UIDPLUS")) {
                try await connection.uidExpunge(IMAPUIDSet([2]))
            }
            #expect(try await connection.uidCopy(IMAPUIDSet([2]), to: "Archive") == nil)
            try await connection.uidStoreFlags(IMAPUIDSet([2]), .add, ["\\Deleted"])
            try await connection.expunge()
            #expect(try await Fixture.allUIDs(on: connection) == [1, 3])

            _ = try await connection.select("Archive")
            let found = try await connection.uidSearchMessageID("<b@example.net>")
            #expect(found.count == 1)
            #expect(try await Fixture.messageIDs(found, on: connection) == [found[0]: "b@example.net"])
            await connection.logout()

            let commands = try await offThePool { try server.clientCommands(of: Fixture.alice) }
            #expect(commands.contains { $0.hasSuffix(" UID COPY 2 \"Archive\"") })
            #expect(commands.contains { $0.hasSuffix(" EXPUNGE") })
            #expect(!commands.contains { $0.contains(" MOVE ") || $0.contains("UID EXPUNGE") })
        }
    }

    @Test("APPEND waits for the server's continuation before the message, which arrives intact")
    func appendWithSynchronizingLiteral() async throws {
        try await Fixture.withDovecot(Self.configuration) { server in
            let connection = try await Fixture.connect(server)
            #expect(!connection.has("LITERAL+"))
            let message = DovecotChangesTests.trickyMessage(bodyBytes: 200 * 1024)
            // Dovecot sends APPENDUID even so; without UIDPLUS announced it is not the client's to trust.
            #expect(try await connection.append(message, to: "INBOX", flags: ["\\Flagged"]) == nil)
            _ = try await connection.select("INBOX")
            let fetched = try await connection.uidFetch(IMAPUIDSet([1]), items: ["UID", "FLAGS", "BODY.PEEK[]"])
            #expect(fetched.messages.first?.body == message)
            #expect(fetched.messages.first?.flags?.contains("\\Flagged") == true)
            await connection.logout()

            let commands = try await offThePool { try server.clientCommands(of: Fixture.alice) }
            let append = try #require(commands.first { $0.contains(" APPEND ") })
            #expect(append.hasSuffix(" {\(message.count)}"))
        }
    }
}
