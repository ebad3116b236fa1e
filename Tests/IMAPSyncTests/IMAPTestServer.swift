import ChatmailSync
import ChatmailTestSupport
import DovecotLauncher
import Foundation
import GRDB
import IMAPClient
import MailText

@testable import ChatmailStore

/// A real Dovecot on loopback with one user, and chatmail stores syncing it, for one test.
final class IMAPTestServer: Sendable {
    static let user = "alice@example.org"
    static let password = "secret"

    let directory: URL
    let dovecot: DovecotServer

    private init(directory: URL, dovecot: DovecotServer) {
        self.directory = directory
        self.dovecot = dovecot
    }

    static func start(
        capabilities: DovecotConfiguration.Capabilities = .full, rawlog: Bool = false, extraFolders: [String] = [],
        withheldCapabilities: Set<String> = []
    ) async throws -> IMAPTestServer {
        let directory = try scratchDirectory("imap")
        let configuration = DovecotConfiguration(
            capabilities: capabilities, users: [DovecotUser(name: user, password: password)], rawlog: rawlog,
            extraFolders: extraFolders, withheldCapabilities: withheldCapabilities)
        let dovecot = try await offThePool { try DovecotServer.start(in: directory, configuration: configuration) }
        return IMAPTestServer(directory: directory, dovecot: dovecot)
    }

    func stop() {
        try? dovecot.stop()  // a test's own cleanup: the scratch directory goes either way
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new chatmail store for the test's user, at a fresh path.
    func makeStore(_ name: String = "chatmail") async throws -> (ChatmailStore, Account) {
        let store = try ChatmailStore(
            path: directory.appendingPathComponent("\(name).sqlite").path, subjectBase: ReplySubject.topicBase)
        let settings = IMAPAccountSettings(
            host: dovecot.host, port: dovecot.port, security: .none, login: Self.user, smtpHost: dovecot.host,
            smtpPort: 25, smtpSecurity: .none)
        _ = try await store.write { tx in
            try tx.saveIMAPAccount(email: Self.user, settings: settings, aliases: [])
        }
        return (store, try store.account(AccountSelection.email(Self.user)))
    }

    var connector: IMAPConnector {
        IMAPConnector(
            endpoint: IMAPEndpoint(host: dovecot.host, port: dovecot.port, security: .none),
            authentication: { .password(user: IMAPTestServer.user, password: IMAPTestServer.password) })
    }

    func sync(_ store: ChatmailStore, _ account: Account, full: Bool = false) async throws -> SyncReport {
        let engine = SyncEngine(store: store, imap: connector, pusher: QueueHoldingPusher())
        return try await engine.run(account: account, full: full)
    }

    /// Delivers a message as the server's own delivery would, through `doveadm save`.
    func deliver(_ message: String, to folder: String = "INBOX", flags: [String] = []) async throws {
        let bytes = Array(message.utf8)
        try await offThePool { try self.dovecot.deliver(bytes, to: folder, user: Self.user, flags: flags) }
    }

    /// Runs IMAP commands in a second, independent IMAP session, as another mail client would.
    func secondSession(in folder: String, _ commands: [[String]]) async throws {
        try await IMAPTestMail.secondSession(
            host: dovecot.host, port: dovecot.port, user: Self.user, password: Self.password, folder: folder, commands)
    }
}

/// A message with a unique Message-ID, addressed to the test user unless `from` is the user.
func testMessage(
    _ id: String, from: String = "Bob <bob@example.net>", to: String = "alice@example.org",
    subject: String? = nil, body: String? = nil
) -> String {
    IMAPTestMail.message(id, from: from, to: to, subject: subject, body: body)
}

/// What a store holds, independent of row ids and of how it was synced: one line per message with its
/// Message-ID, subject, labels and conversation's participants, sorted.
func canonicalContents(of store: ChatmailStore, account: AccountID) throws -> [String] {
    try store.read { db in
        try String.fetchAll(
            db, sql: IMAPTestMail.canonicalContentsSQL,
            arguments: [try String.fetchOne(db, sql: "SELECT email FROM account WHERE id = ?", arguments: [account])])
    }
}

/// The local id of the message with `messageID` (the header value without brackets).
func localID(of messageID: String, in store: ChatmailStore) throws -> Int64? {
    try store.read { db in
        try Int64.fetchOne(
            db, sql: "SELECT id FROM message WHERE rfc822_message_id = ?", arguments: ["<\(messageID)@example.net>"])
    }
}

/// The provider key (`message.gmail_id`) of the message with `messageID`.
func key(of messageID: String, in store: ChatmailStore) throws -> String? {
    try store.read { db in
        try String.fetchOne(
            db, sql: "SELECT gmail_id FROM message WHERE rfc822_message_id = ?",
            arguments: ["<\(messageID)@example.net>"])
    }
}

/// The label ids of the message with `messageID`, sorted.
func labels(of messageID: String, in store: ChatmailStore) throws -> [String] {
    try store.read { db in
        try String.fetchAll(
            db,
            sql: """
                SELECT l.gmail_id FROM message m JOIN message_label ml ON ml.message_id = m.id
                JOIN label l ON l.id = ml.label_id WHERE m.rfc822_message_id = ? ORDER BY l.gmail_id
                """,
            arguments: ["<\(messageID)@example.net>"])
    }
}
