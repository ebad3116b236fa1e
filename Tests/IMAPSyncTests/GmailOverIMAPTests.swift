import ChatmailSync
import ChatmailTestSupport
import Foundation
import GRDB
import IMAPClient
import MailText
import Testing

@testable import ChatmailStore

/// Gmail over IMAP: only All Mail is read, a message is its X-GM-MSGID, and its labels are X-GM-LABELS.
@Suite("Gmail over IMAP")
struct GmailOverIMAPTests {
    func makeStore(_ directory: URL, _ name: String) async throws -> (ChatmailStore, Account) {
        let store = try ChatmailStore(
            path: directory.appendingPathComponent("\(name).sqlite").path, subjectBase: ReplySubject.topicBase)
        let settings = IMAPAccountSettings(
            host: "127.0.0.1", port: 1, security: .none, login: "alice@gmail.com", smtpHost: "127.0.0.1", smtpPort: 25,
            smtpSecurity: .none)
        _ = try await store.write { tx in
            try tx.saveIMAPAccount(email: "alice@gmail.com", settings: settings, aliases: [])
        }
        return (store, try store.account(AccountSelection.email("alice@gmail.com")))
    }

    func sync(_ server: GmailIMAPDouble, _ store: ChatmailStore, _ account: Account) async throws -> SyncReport {
        let connector = IMAPConnector(
            endpoint: IMAPEndpoint(host: "127.0.0.1", port: server.port, security: .none),
            authentication: { .password(user: "alice@gmail.com", password: "app-password") })
        return try await SyncEngine(store: store, imap: connector, pusher: QueueHoldingPusher()).run(account: account)
    }

    func key(_ messageID: String, in store: ChatmailStore) throws -> String? {
        try store.read { db in
            try String.fetchOne(
                db, sql: "SELECT gmail_id FROM message WHERE rfc822_message_id = ?",
                arguments: ["<\(messageID)@example.net>"])
        }
    }

    func labelsOf(_ messageID: String, in store: ChatmailStore) throws -> [String] {
        try labels(of: messageID, in: store)
    }

    @Test("All Mail only, keyed by X-GM-MSGID, labelled by X-GM-LABELS; relabels and new mail arrive by CONDSTORE")
    func gmailDialect() async throws {
        let directory = try scratchDirectory("gmail-imap")
        defer { try? FileManager.default.removeItem(at: directory) }  // best-effort cleanup
        let server = try GmailIMAPDouble()
        defer { server.stop() }
        server.add(
            gmailID: 0x1111, labels: ["\\Inbox"], flags: ["\\Seen"], raw: testMessage("g1", to: "alice@gmail.com"))
        server.add(
            gmailID: 0x2222, labels: ["\\Inbox", "\\Important", "Work"], raw: testMessage("g2", to: "alice@gmail.com"))
        server.add(
            gmailID: 0x3333, labels: ["\\Sent"], flags: ["\\Seen"],
            raw: testMessage("g3", from: "Alice <alice@gmail.com>", to: "bob@example.net"))
        let (store, account) = try await makeStore(directory, "chatmail")

        let first = try await sync(server, store, account)
        #expect(first.mode == .initial && first.messagesAdded == 3)
        #expect(try key("g1", in: store) == "1111", "Gmail's API id: X-GM-MSGID in hex")
        #expect(try labelsOf("g1", in: store) == ["INBOX"])
        #expect(try labelsOf("g2", in: store) == ["IMPORTANT", "INBOX", "UNREAD", "folder:Work"])
        #expect(try labelsOf("g3", in: store) == ["SENT"])
        let selected = server.commands.filter { $0.uppercased().contains("SELECT") }
        #expect(!selected.isEmpty && selected.allSatisfy { $0.contains("[Gmail]/All Mail") }, "\(selected)")

        // Archived and starred elsewhere; one new message.
        server.change(gmailID: 0x1111, labels: [], flags: ["\\Seen"])
        server.change(gmailID: 0x2222, labels: ["\\Inbox", "\\Important", "Work"], flags: ["\\Flagged"])
        server.add(gmailID: 0x4444, labels: ["\\Inbox"], raw: testMessage("g4", to: "alice@gmail.com"))
        let second = try await sync(server, store, account)
        #expect(second.mode == .incremental && second.messagesAdded == 1 && second.messagesDeleted == 0)
        #expect(try labelsOf("g1", in: store) == [])
        #expect(try labelsOf("g2", in: store) == ["IMPORTANT", "INBOX", "STARRED", "UNREAD", "folder:Work"])
        #expect(server.commands.contains { $0.uppercased().contains("CHANGEDSINCE") })

        // A renumbered All Mail is matched by X-GM-MSGID: nothing downloaded, nothing deleted, same rows.
        let before = try store.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM message ORDER BY id") }
        let bodiesBefore = server.commands.filter { $0.uppercased().contains("BODY.PEEK[]") }.count
        server.renumber()
        let third = try await sync(server, store, account)
        #expect(third.mode == .recovery && third.messagesAdded == 0 && third.messagesDeleted == 0)
        #expect(server.commands.filter { $0.uppercased().contains("BODY.PEEK[]") }.count == bodiesBefore)
        #expect(try store.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM message ORDER BY id") } == before)

        let (fresh, freshAccount) = try await makeStore(directory, "fresh")
        _ = try await sync(server, fresh, freshAccount)
        #expect(
            try canonicalContents(of: store, account: account.id)
                == canonicalContents(of: fresh, account: freshAccount.id))
    }
}
