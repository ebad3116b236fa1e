import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Pages long output the way git does: through `$CHATMAIL_PAGER`, else `$PAGER`, else `less -FRX`,
/// only when stdout is a terminal and the output is taller than the screen.
///
/// Piped output is never paged, so scripts always get plain text. An empty pager or `cat` turns
/// paging off, as in git.
struct Pager {
    /// The shell command that pages, such as `less -FRX`.
    var command: String

    static let defaultCommand = "less -FRX"

    /// Why the pager did not show the text; the caller then prints it directly.
    enum Failure: Error {
        case pipeFailed(errno: Int32)
        case spawnFailed(errno: Int32)
        /// The shell could not find or run the command (exit status 126 or 127), so nothing was shown.
        case commandNotRunnable(status: Int32)
    }

    /// The pager the environment asks for, or `nil` when paging is turned off.
    static func command(environment: [String: String]) -> String? {
        let chosen = environment["CHATMAIL_PAGER"] ?? environment["PAGER"] ?? defaultCommand
        let trimmed = chosen.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
    }

    /// Runs the pager with `text` on its standard input and waits for the user to leave it.
    ///
    /// The pager stays in chatmail's process group, which is the terminal's foreground group, so it
    /// may read keys from the terminal. (Foundation's `Process` gives its child a group of its own:
    /// the pager's first read of the terminal would stop it with SIGTTIN while chatmail waits forever.)
    ///
    /// While the pager runs, chatmail ignores SIGPIPE, so a user who quits before the end neither
    /// kills chatmail nor causes an error, and SIGINT and SIGQUIT, which the terminal sends to the
    /// whole group: the pager handles them, and chatmail must not die and leave it behind. The
    /// previous handlers are restored afterwards.
    ///
    /// Throws when the pager cannot start, or the shell cannot find or run it, so the caller can print
    /// directly instead. A pager that quits before reading everything (the user pressed q) is not an error.
    func page(_ text: String, environment: [String: String]) throws(Failure) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .pipeFailed(errno: errno) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        // No other program chatmail starts may inherit the write end: the pager would never see the end
        // of its input. (The pager's own copy is closed by a spawn action.)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        // Anything printed before must appear above the pager's output.
        fflush(nil)

        let ignored = IgnoredSignals([SIGPIPE, SIGINT, SIGQUIT])
        defer { ignored.restore() }
        let pid: pid_t
        do throws(Failure) {
            pid = try spawn(input: readEnd, environment: pagerEnvironment(environment))
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        close(readEnd)  // the pager has its own copy
        Self.send(text, to: writeEnd)
        close(writeEnd)  // end of input: less -F may now quit on short text

        var status: Int32 = 0
        // ECHILD means the child was already reaped (SIGCHLD ignored): there is nothing left to wait for.
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let exitedNormally = status & 0x7F == 0
        let exitStatus = (status >> 8) & 0xFF
        if exitedNormally, exitStatus == 126 || exitStatus == 127 { throw .commandNotRunnable(status: exitStatus) }
    }

    /// As git does: less quits at once on short output, keeps colours, and leaves the screen as is.
    private func pagerEnvironment(_ environment: [String: String]) -> [String: String] {
        var result = environment
        if result["LESS"] == nil { result["LESS"] = "FRX" }
        if result["LV"] == nil { result["LV"] = "-c" }
        return result
    }

    /// Starts `/bin/sh -c command` with `input` as its stdin, in chatmail's own process group (see
    /// ``ShellCommand``: default signals, no other descriptor, so not the pipe's write end either).
    private func spawn(input: Int32, environment: [String: String]) throws(Failure) -> pid_t {
        // Deliberately no new process group: see `page(_:environment:)`.
        do {
            return try ShellCommand.spawn(command, environment: environment, input: input)
        } catch {
            throw .spawnFailed(errno: error.errno)
        }
    }

    /// Writes all of `text` to `descriptor`, or as much as the pager takes before it quits.
    ///
    /// A failed write (EPIPE once the user has quit) ends the output: what the pager did not read,
    /// the user chose not to see.
    private static func send(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = write(descriptor, base + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}

/// Signals set to be ignored until `restore()` puts their previous handlers back.
private struct IgnoredSignals {
    private var saved: [(signal: Int32, action: sigaction)] = []

    init(_ signals: [Int32]) {
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = SIG_IGN
        for signal in signals {
            var previous = sigaction()
            if sigaction(signal, &ignore, &previous) == 0 { saved.append((signal, previous)) }
        }
    }

    func restore() {
        for var entry in saved { sigaction(entry.signal, &entry.action, nil) }
    }
}

/// The terminal's height in rows: stdout's, then `$LINES`, then 24.
func terminalRows(environment: [String: String]) -> Int {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
    if let lines = environment["LINES"].flatMap(Int.init), lines > 0 { return lines }
    return 24
}
