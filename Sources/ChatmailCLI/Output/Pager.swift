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

    /// The pager the environment asks for, or `nil` when paging is turned off.
    static func command(environment: [String: String]) -> String? {
        let chosen = environment["CHATMAIL_PAGER"] ?? environment["PAGER"] ?? defaultCommand
        let trimmed = chosen.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
    }

    /// Runs the pager with `text` on its standard input and waits for the user to leave it.
    ///
    /// Throws when the pager cannot start, so the caller can print directly instead. A pager that
    /// quits before reading everything (the user pressed q) is not an error.
    func page(_ text: String, environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var pagerEnvironment = environment
        // As git does: less quits at once on short output, keeps colours, and leaves the screen as is.
        if pagerEnvironment["LESS"] == nil { pagerEnvironment["LESS"] = "FRX" }
        if pagerEnvironment["LV"] == nil { pagerEnvironment["LV"] = "-c" }
        process.environment = pagerEnvironment
        let input = Pipe()
        process.standardInput = input
        try process.run()
        // The user may quit the pager early: a write to the closed pipe must fail, not kill chatmail.
        signal(SIGPIPE, SIG_IGN)
        let writer = input.fileHandleForWriting
        do {
            try writer.write(contentsOf: Data(text.utf8))
        } catch {
            // EPIPE: the pager has gone; what it did not read, the user chose not to see.
        }
        try? writer.close()  // closing an already-broken pipe loses nothing
        process.waitUntilExit()
    }
}

/// The terminal's height in rows: stdout's, then `$LINES`, then 24.
func terminalRows(environment: [String: String]) -> Int {
    var size = winsize()
    if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 { return Int(size.ws_row) }
    if let lines = environment["LINES"].flatMap(Int.init), lines > 0 { return lines }
    return 24
}
