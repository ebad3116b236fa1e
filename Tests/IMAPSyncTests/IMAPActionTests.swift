import ChatmailSync
import ChatmailTestSupport
import DovecotLauncher
import Foundation
import GRDB
import IMAPClient
import SMTPClient
import Testing

@testable import ChatmailStore

/// Every queued action on a real Dovecot: the local change at once, then the server's through the
/// queue, checked by an independent IMAP client (folder, flags, exactly one copy), and a sync afterwards
/// that finds nothing to add or double.
@Suite("IMAP actions through the pending queue", .serialized)
struct IMAPActionTests {
    /// A Dovecot with two messages from Bob in INBOX, synced into a fresh store.
    struct Mailbox {
        let server: IMAPTestServer
        let store: ChatmailStore
        let account: Account

        static func start(extraFolders: [String] = [], withheld: Set<String> = []) async throws -> Mailbox {
            let server = try await IMAPTestServer.start(extraFolders: extraFolders, withheldCapabilities: withheld)
            try await server.deliver(testMessage("first", subject: "Dinner", body: "Friday?"))
            try await server.deliver(testMessage("second", subject: "Re: Dinner", body: "At eight?"))
            let (store, account) = try await server.makeStore()
            _ = try await server.sync(store, account)
            return Mailbox(server: server, store: store, account: account)
        }

        /// A link whose SMTP server is never used by label changes.
        func link(_ connector: IMAPConnector? = nil) -> IMAPAccountLink {
            IMAPAccountLink(
                imap: connector ?? server.connector, smtp: SMTPEndpoint(host: "127.0.0.1", port: 9, security: .none),
                sentCopy: .never)
        }

        var bob: ConversationID {
            get throws {
                try #require(
                    try store.read { db in
                        try ConversationID.fetchOne(
                            db,
                            sql: "SELECT conversation_id FROM message WHERE rfc822_message_id = ?",
                            arguments: ["<first@example.net>"])
                    })
            }
        }

        func perform(_ kind: PendingActionKind) async throws {
            _ = try await ActionQueue(store: store).perform(
                kind, on: .conversation(try bob, description: "Bob"), account: account.id)
        }

        @discardableResult
        func push(_ connector: IMAPConnector? = nil) async throws -> IMAPActionPusher.Summary {
            try await IMAPActionPusher(store: store, link: link(connector)).run(account: account.id)
        }

        func folder(_ name: String) async throws -> IMAPFolderSnapshot {
            try await IMAPFolderSnapshot.read(
                host: server.dovecot.host, port: server.dovecot.port, user: IMAPTestServer.user,
                password: IMAPTestServer.password, folder: name)
        }

        /// How many copies of each test message `folder` holds.
        func counts(in name: String) async throws -> [Int] {
            let snapshot = try await folder(name)
            return ["<first@", "<second@"].map { snapshot.copies(of: $0).count }
        }

        func actions() throws -> [PendingAction] { try store.pendingActions(of: account.id, includeCompleted: true) }
    }

    @Test("archive moves each message from INBOX to Archive, once; unarchive moves it back; syncs double nothing")
    func archiveAndBack() async throws {
        let mailbox = try await Mailbox.start()
        defer { mailbox.server.stop() }
        try await mailbox.perform(.archive)
        #expect(try labels(of: "first", in: mailbox.store).contains("INBOX") == false, "local at once")
        let pushed = try await mailbox.push()
        #expect(pushed.sent == 1 && pushed.failed == 0, "\(pushed)")
        #expect(try await mailbox.counts(in: "INBOX") == [0, 0])
        #expect(try await mailbox.counts(in: "Archive") == [1, 1])
        let before = try canonicalContents(of: mailbox.store, account: mailbox.account.id)
        let report = try await mailbox.server.sync(mailbox.store, mailbox.account)
        #expect(report.messagesAdded == 0 && report.messagesDeleted == 0, "\(report)")
        #expect(try canonicalContents(of: mailbox.store, account: mailbox.account.id) == before)
        #expect(try labels(of: "second", in: mailbox.store).contains("INBOX") == false)

        try await mailbox.perform(.unarchive)
        try await mailbox.push()
        #expect(try await mailbox.counts(in: "INBOX") == [1, 1])
        #expect(try await mailbox.counts(in: "Archive") == [0, 0])
        _ = try await mailbox.server.sync(mailbox.store, mailbox.account)
        #expect(try labels(of: "first", in: mailbox.store).contains("INBOX"))
        #expect(try canonicalContents(of: mailbox.store, account: mailbox.account.id).count == 2)
        #expect(try mailbox.actions().allSatisfy { $0.status == .completed })
    }

    @Test("read, unread, star and unstar set the server's flags; star marks only the newest message")
    func flags() async throws {
        let mailbox = try await Mailbox.start()
        defer { mailbox.server.stop() }
        try await mailbox.perform(.read)
        try await mailbox.push()
        var inbox = try await mailbox.folder("INBOX")
        #expect(inbox.copies.allSatisfy { $0.flags.contains("\\Seen") }, "\(inbox)")
        try await mailbox.perform(.star)
        try await mailbox.push()
        inbox = try await mailbox.folder("INBOX")
        #expect(inbox.copies(of: "<second@").first?.flags.contains("\\Flagged") == true, "\(inbox)")
        #expect(inbox.copies(of: "<first@").first?.flags.contains("\\Flagged") == false, "\(inbox)")
        try await mailbox.perform(.unstar)
        try await mailbox.perform(.unread)
        try await mailbox.push()
        inbox = try await mailbox.folder("INBOX")
        #expect(inbox.copies.allSatisfy { !$0.flags.contains("\\Flagged") }, "\(inbox)")
        // Unread marks the newest message from the other side, as Gmail does.
        #expect(inbox.copies(of: "<second@").first?.flags.contains("\\Seen") == false, "\(inbox)")
        #expect(inbox.copies(of: "<first@").first?.flags.contains("\\Seen") == true, "\(inbox)")
        let report = try await mailbox.server.sync(mailbox.store, mailbox.account)
        #expect(report.messagesAdded == 0)
        #expect(try labels(of: "second", in: mailbox.store).contains("UNREAD"))
        #expect(try labels(of: "first", in: mailbox.store).contains("UNREAD") == false)
    }

    @Test("trash leaves one copy in Trash, also of a message that was in two folders; untrash brings one back")
    func trashAndBack() async throws {
        let mailbox = try await Mailbox.start(extraFolders: ["Projects"])
        defer { mailbox.server.stop() }
        // The first message also sits in Projects: one message, two copies.
        try await mailbox.server.deliver(testMessage("first", subject: "Dinner", body: "Friday?"), to: "Projects")
        _ = try await mailbox.server.sync(mailbox.store, mailbox.account)
        try await mailbox.perform(.trash)
        try await mailbox.push()
        #expect(try await mailbox.counts(in: "Trash") == [1, 1])
        #expect(try await mailbox.counts(in: "INBOX") == [0, 0])
        #expect(try await mailbox.counts(in: "Projects") == [0, 0])
        let report = try await mailbox.server.sync(mailbox.store, mailbox.account)
        #expect(report.messagesAdded == 0, "\(report)")
        #expect(try labels(of: "first", in: mailbox.store).contains("TRASH"))

        try await mailbox.perform(.untrash)
        try await mailbox.push()
        #expect(try await mailbox.counts(in: "Trash") == [0, 0])
        #expect(try await mailbox.counts(in: "INBOX") == [1, 1])
        _ = try await mailbox.server.sync(mailbox.store, mailbox.account)
        #expect(try canonicalContents(of: mailbox.store, account: mailbox.account.id).count == 2)
    }

    @Test("a MOVE whose answer is lost is not repeated: the retry finds the message where it went")
    func lostMoveAnswer() async throws {
        let mailbox = try await Mailbox.start()
        defer { mailbox.server.stop() }
        let proxy = try DroppingProxy(targetHost: mailbox.server.dovecot.host, targetPort: mailbox.server.dovecot.port)
        defer { proxy.stop() }
        proxy.silenceAfterClientSends = Array(" UID MOVE ".utf8)
        // The silence is the whole symptom: a short command time-out ends the wait for an answer that
        // will not come. A working command on a busy machine answers well within it.
        let viaProxy = IMAPConnector(
            endpoint: IMAPEndpoint(host: "127.0.0.1", port: proxy.port, security: .none),
            timeouts: IMAPTimeouts(connect: .seconds(30), command: .seconds(5)),
            authentication: { .password(user: IMAPTestServer.user, password: IMAPTestServer.password) })
        try await mailbox.perform(.archive)
        let first = try await mailbox.push(viaProxy)
        #expect(first.unreachable != nil && first.sent == 0, "\(first)")
        // The server moved one message before the answer was lost.
        #expect(try await mailbox.counts(in: "Archive").reduce(0, +) == 1)
        #expect(try mailbox.actions().first?.status == .failed)

        proxy.silenceAfterClientSends = nil
        // Due at once, as `pending retry` would make it.
        _ = try await mailbox.store.write { tx in
            for var action in try tx.pendingActions(in: mailbox.account.id, statuses: [.failed]) {
                action.nextAttemptAtMs = 0
                try tx.savePendingAction(action)
            }
        }
        let second = try await mailbox.push(viaProxy)
        #expect(second.sent == 1, "\(second)")
        #expect(try await mailbox.counts(in: "Archive") == [1, 1])
        #expect(try await mailbox.counts(in: "INBOX") == [0, 0])
        let report = try await mailbox.server.sync(mailbox.store, mailbox.account)
        #expect(report.messagesAdded == 0 && report.messagesDeleted == 0, "\(report)")
        #expect(try canonicalContents(of: mailbox.store, account: mailbox.account.id).count == 2)
    }

    @Test("without MOVE and UIDPLUS: COPY, \\Deleted and EXPUNGE, the copy found by Message-ID; one copy each")
    func withoutMove() async throws {
        let mailbox = try await Mailbox.start(withheld: ["MOVE", "UIDPLUS"])
        defer { mailbox.server.stop() }
        try await mailbox.perform(.archive)
        let pushed = try await mailbox.push()
        #expect(pushed.sent == 1, "\(pushed)")
        #expect(try await mailbox.counts(in: "INBOX") == [0, 0])
        #expect(try await mailbox.counts(in: "Archive") == [1, 1])
        let report = try await mailbox.server.sync(mailbox.store, mailbox.account)
        #expect(report.messagesAdded == 0 && report.messagesDeleted == 0, "\(report)")
        try await mailbox.perform(.trash)
        try await mailbox.push()
        #expect(try await mailbox.counts(in: "Archive") == [0, 0])
        #expect(try await mailbox.counts(in: "Trash") == [1, 1])
        _ = try await mailbox.server.sync(mailbox.store, mailbox.account)
        #expect(try canonicalContents(of: mailbox.store, account: mailbox.account.id).count == 2)
    }

    @Test("a copy is deleted only while the one kept is really there: gone since the last sync, it is moved instead")
    func keptCopyGone() async throws {
        let mailbox = try await Mailbox.start()
        defer { mailbox.server.stop() }
        // The first message is in INBOX and, as the store last saw it, also in Archive.
        try await mailbox.server.deliver(testMessage("first", subject: "Dinner", body: "Friday?"), to: "Archive")
        _ = try await mailbox.server.sync(mailbox.store, mailbox.account)
        // Another client deletes the archived copy; no sync follows.
        try await mailbox.server.secondSession(
            in: "Archive", [["STORE", "1:*", "+FLAGS", "(\\Deleted)"], ["EXPUNGE"]])
        try #require(try await mailbox.counts(in: "Archive") == [0, 0])
        try await mailbox.perform(.archive)
        let pushed = try await mailbox.push()
        #expect(pushed.sent == 1, "\(pushed)")
        // Deleting the INBOX copy now would have lost the message: it moved to Archive instead.
        #expect(try await mailbox.counts(in: "Archive") == [1, 1])
        #expect(try await mailbox.counts(in: "INBOX") == [0, 0])
        _ = try await mailbox.server.sync(mailbox.store, mailbox.account)
        #expect(try canonicalContents(of: mailbox.store, account: mailbox.account.id).count == 2)
    }

    @Test("killed after a COPY and before its delete, on a server without MOVE: the next run copies nothing again")
    func killedBetweenCopyAndDelete() async throws {
        let mailbox = try await Mailbox.start(withheld: ["MOVE", "UIDPLUS"])
        defer { mailbox.server.stop() }
        try await mailbox.perform(.archive)
        // What a run killed between the COPY and the expunge leaves: a copy in Archive, the INBOX copy
        // still there, and the action claimed (its attempt counted) but never recorded.
        try await mailbox.server.secondSession(in: "INBOX", [["COPY", "1:*", "Archive"]])
        try #require(try await mailbox.counts(in: "Archive") == [1, 1])
        _ = try await mailbox.store.write { tx in
            for var action in try tx.pendingActions(in: mailbox.account.id, statuses: [.pending]) {
                action.status = .processing
                action.attempts += 1
                try tx.savePendingAction(action)
            }
        }
        let pushed = try await mailbox.push()
        #expect(pushed.sent == 1, "\(pushed)")
        #expect(try await mailbox.counts(in: "Archive") == [1, 1])
        #expect(try await mailbox.counts(in: "INBOX") == [0, 0])
        let report = try await mailbox.server.sync(mailbox.store, mailbox.account)
        #expect(report.messagesAdded == 0 && report.messagesDeleted == 0, "\(report)")
    }

    @Test("a server that cannot be reached leaves the action queued, uncounted, and the local change standing")
    func unreachable() async throws {
        let mailbox = try await Mailbox.start()
        defer { mailbox.server.stop() }
        try await mailbox.perform(.archive)
        try await offThePool { try mailbox.server.dovecot.stop() }
        let summary = try await mailbox.push()
        #expect(summary.unreachable != nil && summary.sent == 0)
        let action = try #require(try mailbox.actions().first)
        #expect(action.status == .failed && action.attempts == 0)
        #expect(try labels(of: "first", in: mailbox.store).contains("INBOX") == false)
    }
}
