import Foundation
import TerminalUI
import Testing

/// `chatmail show` in a real terminal: tmux runs it in an 80×N pane, and `capture-pane` reads back
/// what a person would see. This checks what unit tests cannot: that the terminal's own idea of
/// character width matches ours (nothing wraps or overflows), and that paging works on a TTY.
@Suite(.serialized) struct RealTerminalTests {
    /// A private tmux server, so tests never touch a user's sessions.
    final class Tmux {
        /// The server's socket, in the test's temporary directory so that it can be removed afterwards.
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-tmux-\(UUID().uuidString.prefix(8))").path
        static let executable = Tmux.locate()

        /// tmux, installed with apt when it is missing (CI has already run `apt-get update`).
        static func locate() -> String? {
            for path in ["/usr/bin/tmux", "/usr/local/bin/tmux"] where FileManager.default.isExecutableFile(atPath: path) {
                return path
            }
            _ = try? shell(["apt-get", "install", "-y", "-qq", "tmux"])  // failure shows up as tmux still missing
            return FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") ? "/usr/bin/tmux" : nil
        }

        /// Runs a tmux command on a dedicated thread: waiting for a process must not block Swift's
        /// cooperative pool, which other tests share.
        @discardableResult
        func run(_ arguments: [String]) async throws -> String {
            guard let tmux = Self.executable else { throw TmuxMissing() }
            let command = [tmux, "-S", socket, "-f", "/dev/null"] + arguments
            return try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try Self.shell(command) }) }.start()
            }
        }

        /// Runs a command and returns its output.
        ///
        /// The tmux server that a first command starts inherits that command's descriptors and lives on,
        /// so this spawns with `posix_spawn`, passing only stdin, stdout (a file, not a pipe the server
        /// would hold open) and stderr, and closing every other descriptor: Foundation's `Process`
        /// watches for exit through a socket the server would inherit, and other tests' pipes must not
        /// leak into it either.
        static func shell(_ arguments: [String]) throws -> String {
            let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: outputFile) }  // best-effort cleanup
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            // bash closes every descriptor above 2 (closefrom is not visible from Swift), then runs the command.
            let closeAll = #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null; exec "$@""#
            let argv = (["/bin/bash", "-c", closeAll, "bash"] + arguments).map { strdup($0) } + [nil]
            let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                argv.forEach { free($0) }
                envp.forEach { free($0) }
            }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, "/bin/bash", &actions, nil, argv, envp)
            guard spawned == 0 else { throw SpawnFailed(errno: spawned) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            return (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        }

        /// Starts `command` in a detached pane of `columns` × `rows`.
        func start(_ command: String, columns: Int, rows: Int) async throws {
            try await run(["new-session", "-d", "-s", "t", "-x", String(columns), "-y", String(rows), command])
        }

        /// The pane's text, polled until `ready` accepts it (or 20 s pass).
        func screen(until ready: (String) -> Bool) async throws -> String {
            let deadline = Date().addingTimeInterval(20)
            var text = ""
            while Date() < deadline {
                text = try await run(["capture-pane", "-p", "-t", "t"])
                if ready(text) { return text }
                try await Task.sleep(for: .milliseconds(100))
            }
            return text
        }

        deinit {
            if let tmux = Self.executable {
                _ = try? Self.shell([tmux, "-S", socket, "kill-server"])  // best-effort cleanup of the private server
            }
            try? FileManager.default.removeItem(atPath: socket)  // best-effort cleanup: the socket file stays after kill-server
        }
    }

    struct TmuxMissing: Error {}
    struct SpawnFailed: Error { var errno: Int32 }

    /// The shell command running chatmail in the pane with the fixture's pinned clock and a UTF-8 locale.
    static func command(_ fixture: CLIFixture, _ arguments: [String], environment: [String: String] = [:]) -> String {
        var variables = ["LANG": "C.UTF-8", "TZ": "UTC", "CHATMAIL_NOW_MS": String(CLIFixture.now), "TERM": "xterm-256color"]
        variables.merge(environment) { $1 }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let chatmail = ([CLIFixture.executable.path, "--home", fixture.home.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        // The trailing sleep keeps the pane open for capture; the server is killed afterwards.
        return "env -u NO_COLOR -u COLUMNS \(assignments) \(chatmail); echo '[exit '$?']'; sleep 60"
    }

    @Test("show in an 80-column terminal: mine on the right, theirs on the left, nothing wraps")
    func bubblesInTmux() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        // By id: Alice is also in a group, and "alice liddell" would add a note about it on stderr (the screen).
        let chat = try #require(try await fixture.conversationIDs()["Alice Liddell"])
        let tmux = Tmux()
        try await tmux.start(Self.command(fixture, ["show", "id:\(chat)", "--no-pager"]), columns: 80, rows: 60)
        let screen = try await tmux.screen { $0.contains("[exit ") }
        #expect(screen.contains("[exit 0]"), "\(screen)")
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }

        // Width came from the terminal (no --width, no COLUMNS): my bubbles end at column 80.
        let mine = rows.filter { $0.hasSuffix("╮") && $0.hasPrefix(" ") }
        #expect(!mine.isEmpty, "\(screen)")
        for row in mine {
            #expect(DisplayWidth.of(row) == 80, "\(row)")
        }
        let youHeader = try #require(rows.first { $0.hasSuffix("You · 12:10") })
        #expect(DisplayWidth.of(youHeader) == 80)
        // Alice's bubbles start at column 0.
        let theirs = rows.filter { $0.hasPrefix("╭") }
        #expect(!theirs.isEmpty && rows.contains { $0.hasPrefix("│ Lunch on Friday?") })

        // Nothing overflowed: the screen shows exactly the lines chatmail prints at width 80, so no
        // line was wrapped by the terminal (a wrapped line would add a row and shift every row after it).
        let piped = try await fixture.run(["show", "id:\(chat)", "--width", "80", "--color", "never"])
        let expected = piped.stdout.split(separator: "\n", omittingEmptySubsequences: false).map { Self.trimmingTrailingSpaces(String($0)) }
        let shown = Array(rows.map(Self.trimmingTrailingSpaces).prefix(expected.count - 1))
        #expect(shown == Array(expected.dropLast()), "\(screen)")
    }

    @Test("output taller than the screen goes through $PAGER on a TTY, and never with --no-pager")
    func pager() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        // `sed` as the pager marks every line it passes, so the screen shows whether it ran.
        let paged = Tmux()
        try await paged.start(Self.command(fixture, ["show", "alice liddell"], environment: ["PAGER": "sed s/^/PAGED:/"]), columns: 80, rows: 10)
        let pagedScreen = try await paged.screen { $0.contains("[exit ") }
        #expect(pagedScreen.contains("PAGED:"), "\(pagedScreen)")

        let direct = Tmux()
        try await direct.start(Self.command(fixture, ["show", "alice liddell", "--no-pager"], environment: ["PAGER": "sed s/^/PAGED:/"]), columns: 80, rows: 10)
        let directScreen = try await direct.screen { $0.contains("[exit ") }
        #expect(directScreen.contains("[exit 0]") && !directScreen.contains("PAGED:"), "\(directScreen)")

        // Output that fits on the screen is printed directly, as git does.
        let short = Tmux()
        try await short.start(Self.command(fixture, ["conversations"], environment: ["PAGER": "sed s/^/PAGED:/"]), columns: 80, rows: 40)
        let shortScreen = try await short.screen { $0.contains("[exit ") }
        #expect(shortScreen.contains("Alice Liddell") && !shortScreen.contains("PAGED:"), "\(shortScreen)")
    }

    static func trimmingTrailingSpaces(_ row: String) -> String {
        String(row.reversed().drop { $0 == " " }.reversed())
    }
}
