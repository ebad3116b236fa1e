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

    /// Runs a command and returns its output (see ``ChildProcess/run(_:)``: the tmux server that a first
    /// command starts inherits that command's descriptors and signal mask, and lives on).
    public static func shell(_ arguments: [String]) throws -> String {
        try ChildProcess.run(arguments).output
    }

    /// ``shell(_:)`` with the exit status and what the command wrote on stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        try ChildProcess.run(arguments)
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
