import ChatmailSync
import ChatmailTestSupport
import DovecotLauncher
import Foundation
import GRDB
import Testing

@testable import ChatmailStore

/// IMAP sync against a real Dovecot: every run is compared with what a fresh full sync of the same server
/// stores, so incremental paths can never drift from the truth.
@Suite("IMAP sync against Dovecot")
struct IMAPSyncTests {
    @Test("A first sync stores each folder's mail with its labels; later changes from another client arrive")
    func initialThenIncremental() async throws {
        let server = try await IMAPTestServer.start()
        defer { server.stop() }
        for id in ["a1", "a2", "a3", "a4", "a5"] { try await server.deliver(testMessage(id)) }
        try await server.deliver(
            testMessage("s1", from: "Alice <alice@example.org>", to: "bob@example.net"), to: "Sent", flags: ["\\Seen"])
        let (store, account) = try await server.makeStore()

        let first = try await server.sync(store, account)
        #expect(first.mode == .initial && first.messagesAdded == 6 && first.messagesDeleted == 0)
        #expect(try labels(of: "a1", in: store) == ["INBOX", "UNREAD"])
        #expect(try labels(of: "s1", in: store) == ["SENT"])
        let movedID = try #require(try localID(of: "a3", in: store))

        // Another client reads a1, stars a2, archives a3, expunges a4 and trashes a5; new mail arrives.
        try await server.secondSession(
            in: "INBOX",
            [
                ["UID", "STORE", "1", "+FLAGS", "(\\Seen)"], ["UID", "STORE", "2", "+FLAGS", "(\\Flagged)"],
                ["UID", "MOVE", "3", "Archive"], ["UID", "STORE", "4", "+FLAGS", "(\\Deleted)"], ["EXPUNGE"],
                ["UID", "MOVE", "5", "Trash"],
            ])
        try await server.deliver(testMessage("a6"))

        let second = try await server.sync(store, account)
        #expect(second.mode == .incremental)
        #expect(second.messagesAdded == 1, "a6 only: the moved messages are the same messages")
        #expect(second.messagesDeleted == 1, "a4")
        #expect(try labels(of: "a1", in: store) == ["INBOX"])
        #expect(try labels(of: "a2", in: store) == ["INBOX", "STARRED", "UNREAD"])
        #expect(try labels(of: "a3", in: store) == ["UNREAD"], "archived: no folder label")
        #expect(try localID(of: "a3", in: store) == movedID, "a moved message keeps its local identity")
        #expect(try localID(of: "a4", in: store) == nil)
        #expect(try labels(of: "a5", in: store) == ["TRASH", "UNREAD"])

        let quiet = try await server.sync(store, account)
        #expect(quiet.messagesAdded == 0 && quiet.messagesDeleted == 0 && quiet.labelChanges == 0)

        let (fresh, freshAccount) = try await server.makeStore("fresh")
        _ = try await server.sync(fresh, freshAccount)
        #expect(
            try canonicalContents(of: store, account: account.id)
                == canonicalContents(of: fresh, account: freshAccount.id))
    }

    @Test(
        "A server without CONDSTORE or QRESYNC is synced by listing flags, and is never sent what it did not announce")
    func fallbackServer() async throws {
        let server = try await IMAPTestServer.start(capabilities: .outlookLike, rawlog: true)
        defer { server.stop() }
        for id in ["b1", "b2", "b3"] { try await server.deliver(testMessage(id)) }
        let (store, account) = try await server.makeStore()
        _ = try await server.sync(store, account)
        try await server.secondSession(
            in: "INBOX", [["UID", "STORE", "1", "+FLAGS", "(\\Seen)"], ["UID", "MOVE", "2", "Archive"]])
        try await server.deliver(testMessage("b4"))
        let report = try await server.sync(store, account)
        #expect(report.messagesAdded == 1 && report.messagesDeleted == 0)
        #expect(try labels(of: "b1", in: store) == ["INBOX"])
        #expect(try labels(of: "b2", in: store) == ["UNREAD"])

        let commands = try server.dovecot.clientCommands(of: IMAPTestServer.user).map { $0.uppercased() }
        #expect(!commands.isEmpty, "rawlog recorded the sessions")
        for word in ["CHANGEDSINCE", "QRESYNC", "CONDSTORE", "VANISHED"] {
            #expect(!commands.contains { $0.contains(word) }, "sent \(word) to a server that did not announce it")
        }
        let (fresh, freshAccount) = try await server.makeStore("fresh")
        _ = try await server.sync(fresh, freshAccount)
        #expect(
            try canonicalContents(of: store, account: account.id)
                == canonicalContents(of: fresh, account: freshAccount.id))
    }

    @Test("A new UIDVALIDITY re-finds the folder's messages by their headers, deletes nothing and downloads nothing")
    func uidValidityChange() async throws {
        let server = try await IMAPTestServer.start(rawlog: true)
        defer { server.stop() }
        for id in ["c1", "c2", "c3"] { try await server.deliver(testMessage(id)) }
        let (store, account) = try await server.makeStore()
        _ = try await server.sync(store, account)
        let before = try ["c1", "c2", "c3"].map { try localID(of: $0, in: store) }

        try await offThePool { try server.dovecot.resetUIDValidity(of: "INBOX", user: IMAPTestServer.user) }
        let downloadsBefore = try server.dovecot.clientCommands(of: IMAPTestServer.user).filter {
            $0.uppercased().contains("BODY.PEEK[]")
        }.count
        let report = try await server.sync(store, account)
        #expect(report.mode == .recovery)
        #expect(report.messagesAdded == 0 && report.messagesDeleted == 0)
        #expect(try ["c1", "c2", "c3"].map { try localID(of: $0, in: store) } == before)
        let downloadsAfter = try server.dovecot.clientCommands(of: IMAPTestServer.user).filter {
            $0.uppercased().contains("BODY.PEEK[]")
        }.count
        #expect(downloadsAfter == downloadsBefore, "every message matched by its headers")

        let next = try await server.sync(store, account)
        #expect(next.mode == .incremental && next.messagesAdded == 0 && next.messagesDeleted == 0)
        let (fresh, freshAccount) = try await server.makeStore("fresh")
        _ = try await server.sync(fresh, freshAccount)
        #expect(
            try canonicalContents(of: store, account: account.id)
                == canonicalContents(of: fresh, account: freshAccount.id))
    }

    @Test("One message in two folders is one message with both labels; two copies in one folder are two")
    func copiesAcrossFolders() async throws {
        let server = try await IMAPTestServer.start(extraFolders: ["Projects"])
        defer { server.stop() }
        let shared = testMessage("d1")
        try await server.deliver(shared)
        try await server.deliver(shared, to: "Projects", flags: ["\\Seen"])
        let twice = testMessage("d2")
        try await server.deliver(twice)
        try await server.deliver(twice)
        let (store, account) = try await server.makeStore()
        let report = try await server.sync(store, account)
        #expect(report.messagesAdded == 3)
        #expect(try labels(of: "d1", in: store) == ["INBOX", "UNREAD", "folder:Projects"])
        let copies = try store.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message WHERE rfc822_message_id = '<d2@example.net>'")
        }
        #expect(copies == 2)

        // Removing one folder's copy keeps the message, with the other folder's label only.
        try await server.secondSession(in: "Projects", [["UID", "STORE", "1", "+FLAGS", "(\\Deleted)"], ["EXPUNGE"]])
        let after = try await server.sync(store, account)
        #expect(after.messagesDeleted == 0)
        #expect(try labels(of: "d1", in: store) == ["INBOX", "UNREAD"])
    }

    @Test("A renamed folder keeps its messages under the new name; a deleted folder's mail goes with it")
    func renamedAndDeletedFolders() async throws {
        let server = try await IMAPTestServer.start(extraFolders: ["Projects", "Old"])
        defer { server.stop() }
        try await server.deliver(testMessage("r1"), to: "Projects")
        try await server.deliver(testMessage("r2"), to: "Old")
        let (store, account) = try await server.makeStore()
        _ = try await server.sync(store, account)
        let renamedID = try #require(try localID(of: "r1", in: store))

        try await server.secondSession(in: "INBOX", [["RENAME", "Projects", "Work"], ["DELETE", "Old"]])
        let report = try await server.sync(store, account)
        #expect(report.messagesAdded == 0 && report.messagesDeleted == 1)
        #expect(try localID(of: "r1", in: store) == renamedID)
        #expect(try labels(of: "r1", in: store) == ["UNREAD", "folder:Work"])
        #expect(try localID(of: "r2", in: store) == nil)
        let (fresh, freshAccount) = try await server.makeStore("fresh")
        _ = try await server.sync(fresh, freshAccount)
        #expect(
            try canonicalContents(of: store, account: account.id)
                == canonicalContents(of: fresh, account: freshAccount.id))
    }

    @Test("sync --full lists every stored copy again: it downloads nothing and repairs labels a partial read missed")
    func fullSync() async throws {
        let server = try await IMAPTestServer.start(rawlog: true)
        defer { server.stop() }
        for id in ["h1", "h2"] { try await server.deliver(testMessage(id)) }
        let (store, account) = try await server.makeStore()
        _ = try await server.sync(store, account)
        // A label the server never had, as a crash between two writes could leave it.
        _ = try await store.write { tx in
            try tx.modifyLabels(
                adding: ["STARRED"], removing: [], onMessages: [try #require(try key(of: "h1", in: store))],
                in: account.id)
        }
        try await server.secondSession(in: "INBOX", [["UID", "STORE", "2", "+FLAGS", "(\\Seen)"]])
        let bodiesBefore = try server.dovecot.clientCommands(of: IMAPTestServer.user).filter {
            $0.uppercased().contains("BODY.PEEK[]")
        }.count
        let report = try await server.sync(store, account, full: true)
        #expect(report.mode == .initial && report.messagesAdded == 0 && report.messagesDeleted == 0)
        #expect(try labels(of: "h1", in: store) == ["INBOX", "UNREAD"])
        #expect(try labels(of: "h2", in: store) == ["INBOX"])
        let bodiesAfter = try server.dovecot.clientCommands(of: IMAPTestServer.user).filter {
            $0.uppercased().contains("BODY.PEEK[]")
        }.count
        #expect(bodiesAfter == bodiesBefore, "nothing stored is downloaded again")
    }

    @Test("A message that is not email is stored as what it is and counted, never dropped")
    func unreadableMessage() async throws {
        let server = try await IMAPTestServer.start()
        defer { server.stop() }
        try await server.deliver("\u{1}\u{2}binary garbage without any header\r\n")
        try await server.deliver(testMessage("e1"))
        let (store, account) = try await server.makeStore()
        let report = try await server.sync(store, account)
        #expect(report.messagesAdded == 2 && report.unreadable == 1)
    }

    @Test("A folder named with non-ASCII characters and an ampersand round-trips as a label")
    func internationalFolderName() async throws {
        let name = "Entwürfe & Pläne 日本"
        let server = try await IMAPTestServer.start(extraFolders: [name])
        defer { server.stop() }
        try await server.deliver(testMessage("f1"), to: name)
        let (store, account) = try await server.makeStore()
        _ = try await server.sync(store, account)
        #expect(try labels(of: "f1", in: store) == ["UNREAD", "folder:\(name)"])
        let stored = try store.read { db in
            try String.fetchOne(db, sql: "SELECT name FROM label WHERE gmail_id = ?", arguments: ["folder:\(name)"])
        }
        #expect(stored == name)
        try await server.deliver(testMessage("f2"), to: name)
        let again = try await server.sync(store, account)
        #expect(again.messagesAdded == 1)
    }
}
