import ChatmailTestSupport
import DovecotLauncher
import Foundation
import IMAPClient
import IMAPProtocol
import Testing

/// STORE, COPY, MOVE, CREATE, APPEND and the Message-ID search against a real Dovecot with UIDPLUS, MOVE
/// and LITERAL+.
@Suite("IMAPConnection's write commands against Dovecot", .timeLimit(.minutes(5)))
struct DovecotChangesTests {
    typealias Fixture = DovecotFixture

    @Test("UID STORE adds and removes flags, as another session's FETCH FLAGS shows")
    func storeFlags() async throws {
        try await Fixture.withDovecot { server in
            try await Fixture.deliver(["one", "two", "three"], in: server)
            let connection = try await Fixture.connect(server)
            _ = try await connection.select("INBOX")
            try await connection.uidStoreFlags(IMAPUIDSet([1, 2]), .add, ["\\Seen", "\\Flagged", "$Label1"])
            try await connection.uidStoreFlags(IMAPUIDSet([2]), .remove, ["\\Flagged", "$Label1"])

            let observer = try await Fixture.connect(server)
            _ = try await observer.select("INBOX")
            let fetched = try await observer.uidFetch(try IMAPUIDSet(parsing: "1:*"), items: ["UID", "FLAGS"])
            let flags = Dictionary(uniqueKeysWithValues: fetched.messages.map { ($0.uid ?? 0, Set($0.flags ?? [])) })
            #expect(flags[1] == ["\\Seen", "\\Flagged", "$Label1"])
            #expect(flags[2] == ["\\Seen"])
            #expect(flags[3] == [])
            await observer.logout()
            await connection.logout()
        }
    }

    @Test("COPY and MOVE report where each message landed; MOVE leaves nothing in the source")
    func copyAndMove() async throws {
        try await Fixture.withDovecot { server in
            // Messages already in the destinations make their UIDs differ from the source's.
            try await Fixture.deliver(["old-1", "old-2"], to: "Archive", in: server)
            try await Fixture.deliver(["old-3"], to: "Trash", in: server)
            try await Fixture.deliver(["a", "b", "c"], in: server)
            let connection = try await Fixture.connect(server)
            _ = try await connection.select("INBOX")

            let copied = try #require(try await connection.uidCopy(IMAPUIDSet([1, 3]), to: "Archive"))
            #expect(copied.mapping.keys.sorted() == [1, 3])
            let moved = try #require(try await connection.uidMove(IMAPUIDSet([1, 2, 3]), to: "Trash"))
            #expect(moved.mapping.keys.sorted() == [1, 2, 3])
            #expect(try await Fixture.allUIDs(on: connection) == [])

            let archive = try await connection.select("Archive")
            #expect(copied.uidValidity == archive.uidValidity)
            let archived = try await Fixture.messageIDs(Array(copied.mapping.values), on: connection)
            #expect(copied.mapping.mapValues { archived[$0] } == [1: "a@example.net", 3: "c@example.net"])

            let trash = try await connection.select("Trash")
            #expect(moved.uidValidity == trash.uidValidity)
            let trashed = try await Fixture.messageIDs(Array(moved.mapping.values), on: connection)
            #expect(
                moved.mapping.mapValues { trashed[$0] } == [1: "a@example.net", 2: "b@example.net", 3: "c@example.net"])
            await connection.logout()
        }
    }

    @Test("CREATE makes a new mailbox; one that exists already is no error; an invalid name still is")
    func create() async throws {
        try await Fixture.withDovecot { server in
            let connection = try await Fixture.connect(server)
            let name = "Ünïcode & Projekte"
            try await connection.create(name)
            #expect(try await connection.listFolders().contains { $0.name == name })
            try await connection.create(name)
            try await connection.create("Sent")
            #expect(try await connection.select(name).exists == 0)
            await #expect {
                try await connection.create("Bad..Name")
            } throws: { error in
                guard case .commandFailed(command: "CREATE", status: "NO", _) = error as? IMAPClientError else {
                    return false
                }
                return true
            }
            await connection.logout()
        }
    }

    @Test("APPEND reports the new UID and sets the flags and date; a '.' line, 8-bit and 300 KB arrive intact")
    func append() async throws {
        try await Fixture.withDovecot { server in
            let connection = try await Fixture.connect(server)
            #expect(connection.has("LITERAL+"))
            let drafts = try await connection.select("Drafts")
            let tricky = Self.trickyMessage(bodyBytes: 300 * 1024)
            let date: Int64 = 1_717_408_800_000
            let appended = try #require(
                try await connection.append(tricky, to: "Drafts", flags: ["\\Seen", "\\Draft"], internalDateMs: date))
            #expect(appended.uidValidity == drafts.uidValidity)
            let small = try #require(try await connection.append(Fixture.message("small"), to: "Drafts", flags: []))
            #expect(small.uid > appended.uid)

            _ = try await connection.select("Drafts")
            let fetched = try await connection.uidFetch(
                IMAPUIDSet([appended.uid, small.uid]), items: ["UID", "FLAGS", "INTERNALDATE", "BODY.PEEK[]"])
            let first = try #require(fetched.messages.first { $0.uid == appended.uid })
            #expect(first.body == tricky)
            #expect(Set(first.flags ?? []) == ["\\Seen", "\\Draft"])
            #expect(first.internalDateMs == date)
            let second = try #require(fetched.messages.first { $0.uid == small.uid })
            #expect(second.body == Fixture.message("small"))
            #expect(second.flags?.contains("\\Seen") == false)
            await connection.logout()
        }
    }

    @Test("The Message-ID search finds exactly the messages with that id, not those containing it")
    func searchMessageID() async throws {
        try await Fixture.withDovecot { server in
            // `xa` contains `a@example.net`, and `A` differs only in case: the server's search matches both.
            try await Fixture.deliver(["a", "xa", "A", "b", "a"], in: server)
            let connection = try await Fixture.connect(server)
            _ = try await connection.select("INBOX")
            #expect(try await connection.uidSearch("HEADER Message-ID \"a@example.net\"").count == 4)
            #expect(try await connection.uidSearchMessageID("<a@example.net>") == [1, 5])
            #expect(try await connection.uidSearchMessageID(" a@example.net ") == [1, 5])
            #expect(try await connection.uidSearchMessageID("<b@example.net>") == [4])
            #expect(try await connection.uidSearchMessageID("<nowhere@example.net>") == [])
            #expect(try await connection.uidSearchMessageID("<>") == [])
            await connection.logout()
        }
    }

    /// A message whose body has a line that is only ".", 8-bit bytes that are not UTF-8, and enough
    /// filler for the write to go in several pieces; CRLF throughout, as Dovecot returns it.
    static func trickyMessage(bodyBytes: Int) -> [UInt8] {
        var bytes = Array(
            "From: Bob <bob@example.net>\r\nTo: alice@example.org\r\nSubject: tricky\r\nMessage-ID: <tricky@example.net>\r\n"
                .utf8)
        bytes += Array("Content-Type: text/plain; charset=latin1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n".utf8)
        bytes += Array("Before the dot.\r\n.\r\n".utf8) + [0xE9, 0x74, 0xE9, 0xFF, 0x80] + Array("\r\n..\r\n".utf8)
        let line = Array("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\r\n".utf8)
        while bytes.count < bodyBytes { bytes += line }
        return bytes + Array(".\r\n".utf8)
    }
}
