import ChatmailTestSupport
import DovecotLauncher
import Foundation
import GRDB
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A real Dovecot on loopback with alice's mailbox, and chatmail homes beside it that the real binary
/// logs in and syncs, for one test. Without Dovecot installed, `start` throws: these tests fail, never skip.
final class DovecotHomes: Sendable {
    static let user = "alice@example.org"
    static let password = "secret"

    let directory: URL
    let dovecot: DovecotServer

    var host: String { dovecot.host }
    var port: Int { dovecot.port }

    private init(directory: URL, dovecot: DovecotServer) {
        self.directory = directory
        self.dovecot = dovecot
    }

    static func start(oauth2IntrospectionURL: URL? = nil) async throws -> DovecotHomes {
        let directory = try scratchDirectory("imap-cli")
        let configuration = DovecotConfiguration(
            users: [DovecotUser(name: user, password: password)], oauth2IntrospectionURL: oauth2IntrospectionURL)
        let serverDirectory = directory.appendingPathComponent("dovecot")
        let dovecot = try await offThePool {
            try DovecotServer.start(in: serverDirectory, configuration: configuration)
        }
        return DovecotHomes(directory: directory, dovecot: dovecot)
    }

    /// Stops Dovecot and removes every home, on a thread of its own: stopping waits for Dovecot to exit,
    /// which must not block the cooperative pool, and nothing in the test waits for it.
    func stop() {
        let dovecot = dovecot
        let directory = directory
        Thread.detachNewThread {
            try? dovecot.stop()  // best effort: the watcher ends Dovecot with this process anyway
            try? FileManager.default.removeItem(at: directory)  // best-effort cleanup
        }
    }

    /// A path for a new chatmail home (not created: `login` creates it).
    func home(_ name: String) -> URL { directory.appendingPathComponent("home-\(name)") }

    /// Runs `chatmail` against `home`. `--home` goes last: before the command, it would be moved between
    /// `rules` and its subcommand.
    func run(_ home: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> RunResult {
        try await CLIFixture.run(arguments + ["--home", home.path], environment: environment)
    }

    /// `chatmail login --imap alice@example.org` with `password` piped into its stdin (not a terminal), as
    /// a script would; `port` is Dovecot's unless given, and the connection is plain unless `extra` says.
    func login(
        _ home: URL, password: String = DovecotHomes.password, port: Int? = nil, extra: [String] = []
    ) async throws -> RunResult {
        let arguments =
            [
                "--home", home.path, "login", "--imap", Self.user, "--host", host, "--port", String(port ?? self.port),
            ] + (extra.contains("--security") ? [] : ["--security", "none"]) + extra
        // sh pipes the password in: the shared runner gives the program /dev/null as stdin.
        let script = #"printf '%s\n' "$CHATMAIL_TEST_PASSWORD" | exec "$0" "$@""#
        return try await offThePool {
            try CLIFixture.runBlocking(
                ["-c", script, CLIFixture.executable.path] + arguments,
                environment: ["CHATMAIL_TEST_PASSWORD": password], program: URL(fileURLWithPath: "/bin/sh"))
        }
    }

    /// Logs `home` in with the right password and syncs it; the first sync's JSON report.
    @discardableResult
    func loginAndSync(_ home: URL, port: Int? = nil) async throws -> [String: Any] {
        let login = try await login(home, port: port)
        try #require(login.status == 0, "\(login.stderr)")
        return try await syncJSON(home)
    }

    /// `sync --json`, required to succeed.
    func syncJSON(_ home: URL, _ extra: [String] = []) async throws -> [String: Any] {
        let sync = try await run(home, ["sync", "--json"] + extra)
        try #require(sync.status == 0, "\(sync.stderr)")
        return try #require(try sync.json() as? [String: Any], "\(sync.stdout)")
    }

    /// Delivers a message as the server's own delivery would (`doveadm save`).
    func deliver(_ message: String, to folder: String = "INBOX", flags: [String] = []) async throws {
        let bytes = Array(message.utf8)
        let dovecot = dovecot
        try await offThePool { try dovecot.deliver(bytes, to: folder, user: Self.user, flags: flags) }
    }

    /// Writes `count` messages straight into the folder's Maildir (fast, for hundreds), numbered from
    /// `first`, each with a body of about `bodyBytes`.
    func fill(_ count: Int, first: Int = 0, folder: String = "INBOX", seen: Bool = false, bodyBytes: Int = 200)
        async throws
    {
        let messages = (first..<(first + count)).map { number in
            Array(
                imapMessage(
                    "bulk\(number)", from: "Sender \(number % 9) <sender\(number % 9)@example.net>",
                    body: "Message number \(number). " + String(repeating: "lorem ipsum ", count: bodyBytes / 12)
                ).utf8)
        }
        let dovecot = dovecot
        try await offThePool { try dovecot.fillMaildir(messages, folder: folder, user: Self.user, seen: seen) }
    }

    /// Runs IMAP commands in a second, independent IMAP session, as another mail client would.
    func secondSession(in folder: String, _ commands: [[String]]) async throws {
        try await IMAPTestMail.secondSession(
            host: host, port: port, user: Self.user, password: Self.password, folder: folder, commands)
    }
}

/// A message with a unique Message-ID (`<id@example.net>`), to alice unless `to` says otherwise.
func imapMessage(
    _ id: String, from: String = "Bob <bob@example.net>", to: String = "alice@example.org",
    subject: String? = nil, body: String? = nil, date: String = "Mon, 2 Mar 2026 10:00:00 +0000"
) -> String {
    IMAPTestMail.message(id, from: from, to: to, subject: subject, body: body, date: date)
}

/// What a home holds, independent of row ids and of how it was synced: one line per message with its
/// Message-ID, subject, labels and conversation's participants, sorted; `account` limits it to one.
func imapSnapshot(home: URL, account: String? = nil) throws -> [String] {
    try DatabaseQueue(path: home.appendingPathComponent("chatmail.sqlite").path).read { db in
        try String.fetchAll(db, sql: IMAPTestMail.canonicalContentsSQL, arguments: [account])
    }
}

/// The Message-IDs stored more than once in the home.
func duplicateMessageIDs(home: URL) throws -> [String] {
    try DatabaseQueue(path: home.appendingPathComponent("chatmail.sqlite").path).read { db in
        try String.fetchAll(
            db,
            sql: """
                SELECT rfc822_message_id FROM message WHERE rfc822_message_id IS NOT NULL
                GROUP BY account_id, rfc822_message_id HAVING COUNT(*) > 1
                """)
    }
}

/// The accounts of the home; none when it has no database.
func accountEmails(home: URL) throws -> [String] {
    let path = home.appendingPathComponent("chatmail.sqlite").path
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    return try DatabaseQueue(path: path).read { db in
        try String.fetchAll(db, sql: "SELECT email FROM account ORDER BY email")
    }
}

/// A loopback port nothing listens on: bound, read and closed again.
func closedLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    try #require(bound)
    return Int(UInt16(bigEndian: address.sin_port))
}

/// The lines of `text`, without the empty one after its final line feed.
func outputLines(_ text: String) -> [Substring] {
    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
}
