import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A private tmux server, so tests never touch a user's sessions.
public final class Tmux {
    /// The server's socket, in the test's temporary directory so that it can be removed afterwards.
    public let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
        "chatmail-tmux-\(UUID().uuidString.prefix(8))"
    ).path
    public init() {}

    public static let executable = Tmux.locate("tmux")
    /// The default pager, which the paging tests drive.
    public static let less = Tmux.locate("less")

    /// A tool that `scripts/install-deps` installs (tests never install anything themselves); a
    /// missing one fails the tests that need it, saying so.
    public static func locate(_ tool: String) -> String? {
        ["/usr/bin/\(tool)", "/usr/local/bin/\(tool)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a tmux command on a dedicated thread: waiting for a process must not block Swift's
    /// cooperative pool, which other tests share.
    @discardableResult
    public func run(_ arguments: [String]) async throws -> String {
        guard let tmux = Self.executable else { throw TmuxMissing() }
        let command = [tmux, "-S", socket, "-f", "/dev/null"] + arguments
        return try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try Self.checked(command) }) }.start()
        }
    }

    /// Runs a tmux client command, and again (twice at most) if the client fails: a client that cannot
    /// reach its busy server exits non-zero, and a key it was to send would be lost without a word, leaving
    /// the test to wait for a screen that never comes. A command that keeps failing throws with tmux's words.
    static func checked(_ command: [String]) throws -> String {
        var last = (status: Int32(0), output: "", errors: "")
        for _ in 1...3 {
            last = try run(command)
            if last.status == 0 { return last.output }
        }
        throw TmuxCommandFailed(arguments: Array(command.dropFirst(5)), status: last.status, errors: last.errors)
    }

    /// Runs a command and returns its output.
    ///
    /// The tmux server that a first command starts inherits that command's descriptors and lives on,
    /// so this spawns with `posix_spawn`, passing only stdin, stdout (a file, not a pipe the server
    /// would hold open) and stderr, and closing every other descriptor: Foundation's `Process`
    /// watches for exit through a socket the server would inherit, and other tests' pipes must not
    /// leak into it either.
    ///
    /// The child also starts with every signal at its default and none blocked. The test's threads
    /// block most signals, and a server inheriting that mask never notices its panes exit (so
    /// `kill-server` leaves it running) and gives the shells in its panes the same mask (so Ctrl-C
    /// would never reach chatmail).
    public static func shell(_ arguments: [String]) throws -> String {
        try run(arguments).output
    }

    /// ``shell(_:)`` with the exit status and what the command wrote on stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)")
        let errorFile = outputFile.appendingPathExtension("err")
        defer {
            // best-effort cleanup of this command's scratch files
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        var none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        // bash closes every descriptor above 2 (closefrom is not visible from Swift), then runs the command.
        let closeAll =
            #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null; exec "$@""#
        let argv = (["/bin/bash", "-c", closeAll, "bash"] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/bash", &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw SpawnFailed(errno: spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift does not import: the low 7 bits are the signal, if any.
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""  // no file: no output
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""  // no file: nothing said
        return (exitStatus, output, errors)
    }

    /// Starts `command` in a detached pane of `columns` × `rows`.
    public func start(_ command: String, columns: Int, rows: Int) async throws {
        try await run(["new-session", "-d", "-s", "t", "-x", String(columns), "-y", String(rows), command])
    }

    /// The pane's text, polled until `ready` accepts it (or `seconds` pass: a bound for a broken run,
    /// far beyond what a busy machine needs).
    public func screen(within seconds: Double = 60, until ready: (String) -> Bool) async throws -> String {
        var text = ""
        _ = try await poll(for: .seconds(seconds), every: .milliseconds(100)) {
            text = try await run(["capture-pane", "-p", "-t", "t"])
            return ready(text)
        }
        return text
    }

    /// The pane's rows without trailing spaces, polled until `ready` accepts them; fails the test
    /// with the screen and `expectation` when `seconds` pass first.
    public func rows(_ expectation: String, within seconds: Double = 60, until ready: ([String]) -> Bool) async throws
        -> [String]
    {
        let text = try await screen(within: seconds) { ready(Tmux.rows(of: $0)) }
        let rows = Tmux.rows(of: text)
        try #require(ready(rows), "\(expectation), but the screen is:\n\(text)")
        return rows
    }

    /// Presses keys by tmux name (`Space`, `C-c`, `Enter`, `q`).
    public func press(_ keys: String...) async throws {
        try await run(["send-keys", "-t", "t"] + keys)
    }

    /// Types `line` literally and presses Enter.
    public func type(_ line: String) async throws {
        try await run(["send-keys", "-t", "t", "-l", line])
        try await press("Enter")
    }

    /// A captured screen's rows without trailing spaces, and without the empty rows at its end.
    public static func rows(of screen: String) -> [String] {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map {
            trimmingTrailingSpaces(String($0))
        }
        return Array(rows.reversed().drop { $0.isEmpty }.reversed())
    }

    public static func trimmingTrailingSpaces(_ row: String) -> String {
        String(row.reversed().drop { $0 == " " }.reversed())
    }

    deinit {
        if let tmux = Self.executable {
            _ = try? Self.shell([tmux, "-S", socket, "kill-server"])  // best-effort cleanup of the private server
        }
        // best-effort cleanup: the socket file stays after kill-server
        try? FileManager.default.removeItem(atPath: socket)
    }
}

public struct TmuxMissing: Error, CustomStringConvertible {
    public var description: String { "tmux or less is missing: run scripts/install-deps" }
}
public struct SpawnFailed: Error { public var errno: Int32 }

/// A tmux client command that failed three times, with its exit status and what tmux said.
public struct TmuxCommandFailed: Error, CustomStringConvertible {
    public var arguments: [String]
    public var status: Int32
    public var errors: String
    public var description: String {
        "tmux \(arguments.joined(separator: " ")) exited \(status): \(errors.trimmingCharacters(in: .whitespacesAndNewlines))"
    }
}
