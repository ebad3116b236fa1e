import ChatmailStore
import Foundation

/// The result of running the real `chatmail` binary.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String

    func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8))
    }
}

/// A chatmail home in a temporary directory, seeded through the store API, and a way to run the built
/// `chatmail` binary against it.
final class CLIFixture {
    let home: URL
    let store: ChatmailStore
    static let now: Int64 = 1_741_176_000_000  // Wed 2025-03-05 12:00 UTC

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        store = try ChatmailStore(path: home.appendingPathComponent("chatmail.sqlite").path, clock: { CLIFixture.now })
    }

    deinit {
        try? FileManager.default.removeItem(at: home)  // best-effort cleanup: nothing to lose
    }

    /// The `chatmail` executable built beside the test bundle.
    static var executable: URL {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("chatmail")
    }

    /// Runs `chatmail` with `--home` pointing at this fixture, a pinned clock, UTC, a UTF-8 locale and no
    /// colour unless asked.
    func run(_ arguments: [String], environment extra: [String: String] = [:], home: URL? = nil) async throws
        -> RunResult
    {
        try await Self.run(["--home", (home ?? self.home).path] + arguments, environment: extra)
    }

    /// Runs the binary on a dedicated thread: waiting for a process blocks, and a blocked thread of
    /// Swift's cooperative pool (two on this machine) starves every async test running beside it.
    static func run(
        _ arguments: [String], environment extra: [String: String] = [:], program: URL = executable
    ) async throws -> RunResult {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try runBlocking(arguments, environment: extra, program: program) })
            }
            thread.start()
        }
    }

    /// Runs `program` (the built chatmail by default) from `directory` (the current one by default).
    static func runBlocking(
        _ arguments: [String], environment extra: [String: String], program: URL = executable, in directory: URL? = nil
    ) throws -> RunResult {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["CHATMAIL_NOW_MS"] = String(now)
        environment["TZ"] = "UTC"
        environment["COLUMNS"] = "80"
        // A UTF-8 locale, so output uses box drawing whatever the machine's own locale is.
        environment["LANG"] = "C.UTF-8"
        environment.removeValue(forKey: "LC_ALL")
        environment.removeValue(forKey: "LC_CTYPE")
        environment.removeValue(forKey: "NO_COLOR")
        environment.removeValue(forKey: "CHATMAIL_HOME")
        // No config file unless a test writes one: the developer's own must not change the output.
        environment["XDG_CONFIG_HOME"] =
            FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-tests-no-config").path
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a large output cannot fill a pipe and deadlock.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Seeds the standard cast: Alice (one-to-one and a group), Alan, and a newsletter.
    func seedCast() throws {
        let me = EmailAddress(address: "me@example.org", name: "Me")
        let alice = EmailAddress(address: "Alice@Example.com", name: "Alice Liddell")
        let alan = EmailAddress(address: "alan@example.org", name: "Alan Turing")
        let bob = EmailAddress(address: "bob@example.net", name: "Bob Smith")
        let news = EmailAddress(address: "news@shop.example", name: "Shop News")
        let day: Int64 = 86_400_000
        func message(
            _ id: String, from: EmailAddress, to: [EmailAddress], at: Int64, labels: [String], text: String,
            newsletter: Bool = false, attachments: [MessageInput.Attachment] = []
        ) -> MessageInput {
            MessageInput(
                gmailID: id, threadID: "t-\(id)", internalDateMs: at, from: from, to: to, subject: "Subject \(id)",
                bodyText: text, isNewsletter: newsletter, labelIDs: labels, attachments: attachments)
        }
        try store.write { tx in
            let account = try tx.ensureAccount(email: me.address)
            let messages = [
                message(
                    "a1", from: alice, to: [me], at: Self.now - 3 * day, labels: ["INBOX"], text: "Lunch on Friday?"),
                message(
                    "a2", from: me, to: [alice], at: Self.now - 3 * day + 600_000, labels: ["SENT"],
                    text: "Yes, noon works."),
                message(
                    "a3", from: alice, to: [me], at: Self.now - 3_600_000, labels: ["INBOX", "UNREAD"],
                    text: "See you there!",
                    attachments: [.init(partID: "2", filename: "map.png", mimeType: "image/png", size: 20_480)]),
                message(
                    "g1", from: alice, to: [me, bob], at: Self.now - 2 * day, labels: ["INBOX"], text: "Group plans"),
                message("l1", from: alan, to: [me], at: Self.now - day, labels: ["INBOX"], text: "Can machines think?"),
                message(
                    "n1", from: news, to: [me], at: Self.now - 5 * day, labels: ["INBOX", "UNREAD"], text: "Big sale",
                    newsletter: true),
            ]
            var touched = Set<ConversationID>()
            for message in messages { touched.formUnion(try tx.upsert(message, in: account).affectedConversations) }
            try tx.recomputeRollups(for: touched)
        }
    }
}
