import ChatmailStore
import ChatmailTestSupport
import Foundation
import MailText

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
        store = try ChatmailStore(
            path: home.appendingPathComponent("chatmail.sqlite").path, clock: { CLIFixture.now },
            subjectBase: ReplySubject.topicBase)
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
        try await offThePool { try runBlocking(arguments, environment: extra, program: program) }
    }

    /// Runs `program` (the built chatmail by default) from `directory` (the current one by default).
    static func runBlocking(
        _ arguments: [String], environment extra: [String: String], program: URL = executable, in directory: URL? = nil
    ) throws -> RunResult {
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
        return try spawnAndWait(program.path, arguments, environment: environment, in: directory)
    }

    /// Runs a program to its end with stdin from /dev/null and stdout and stderr in files.
    ///
    /// `posix_spawn` through bash, not Foundation's `Process`: `Process.run` reads the parent's open
    /// descriptors while other tests open and close theirs, and with a thousand of them in flight (the
    /// suite's emulators, sockets and pipes) it crashed copying that list. bash closes every descriptor
    /// above 2 before it runs the program, so the child holds none of the tests' pipes or sockets either.
    static func spawnAndWait(_ path: String, _ arguments: [String], environment: [String: String], in directory: URL?)
        throws -> RunResult
    {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-run-\(UUID().uuidString)")
        let outPath = scratch.path + ".out"
        let errPath = scratch.path + ".err"
        defer {
            // best-effort cleanup of the two capture files
            try? FileManager.default.removeItem(atPath: outPath)
            try? FileManager.default.removeItem(atPath: errPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let script =
            // No redirection on the loop: bash would park stderr on a descriptor above 2, which the loop
            // then closes, and the program's stderr would be lost. Closing a closed descriptor is silent.
            #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; "#
            + (directory == nil ? "" : #"cd "$0" || exit 127; "#) + #"exec "$@""#
        let argv =
            (["/bin/bash", "-c", script, directory?.path ?? "bash", path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, argv, envp)
        guard spawned == 0 else { throw SpawnError(errno: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // Exit status, or 128 + the signal for a killed child, as a shell reports it.
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return RunResult(
            status: code,
            stdout: String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self),
            stderr: String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self))
    }

    struct SpawnError: Error { var errno: Int32 }

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
