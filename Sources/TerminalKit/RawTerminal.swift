import Foundation
import Synchronization

/// The terminal in raw mode on the alternate screen, for a full-screen app.
///
/// `enter()` saves the terminal's settings and switches to raw mode, `restore()` puts everything back.
/// There is no `atexit` hook and no deinit magic: the runtime that calls `enter()` calls `restore()` in a
/// `defer` and on every other way out (the `.terminate` event, an error), and `restore()` is idempotent so
/// those paths may overlap. Signals are never handled in a signal handler: `events()` turns them into
/// events through dispatch sources, so restoring on SIGTSTP or SIGTERM runs as ordinary code.
///
/// Raw mode turns ISIG off, so Ctrl-C and Ctrl-Z arrive as `.control("c")` and `.control("z")`; the app
/// quits on the first and calls `suspendProcess()` on the second.
public final class RawTerminal: Sendable {
    /// The sequences that set up and tear down the screen: alternate screen, hidden cursor, bracketed
    /// paste. Leaving also resets the style and shows the cursor again, so the shell gets a clean prompt.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h"
    static let leaveSequence = "\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    struct State {
        /// The settings found by `enter()`, kept while raw mode is on (or suspended).
        var saved: termios?
        var isRaw = false
        /// Whether SIGTSTP's `suspend()` is waiting for SIGCONT to `resume()`.
        var isStopped = false
        /// What the screen shows, for the next diff; `nil` forces a full redraw.
        var drawn: Frame?
        var drawnSize: TerminalSize?
        var eventsStarted = false
    }

    public let input: Int32
    public let output: Int32
    let state = Mutex(State())
    /// The input reader while `events()` runs, so `suspend()` can park it.
    let reader = Mutex<InputReader?>(nil)

    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// Saves the terminal settings, enters raw mode (no echo, no line editing, no signals from keys, no
    /// output processing) and switches to the alternate screen with the cursor hidden and bracketed paste
    /// on. Calling it again while raw does nothing.
    public func enter() throws(TerminalError) {
        try state.withLock { state throws(TerminalError) in
            guard !state.isRaw else { return }
            var original = termios()
            guard tcgetattr(input, &original) == 0 else { throw TerminalError(.notATerminal, errno: errno) }
            try applyRaw(from: original)
            state.saved = original
            state.isRaw = true
            state.drawn = nil
            writeAll(Self.enterSequence)
        }
    }

    /// Leaves the alternate screen, shows the cursor, turns bracketed paste off and puts back the settings
    /// `enter()` found. Idempotent: a second call, or a call without `enter()`, does nothing.
    public func restore() {
        let saved = state.withLock { state -> termios? in
            defer {
                state.saved = nil
                state.isRaw = false
                state.isStopped = false
            }
            return state.isRaw ? state.saved : nil
        }
        guard var saved else { return }
        writeAll(Self.leaveSequence)
        // Best effort: on a terminal that is gone there is nothing left to restore.
        _ = tcsetattr(input, TCSADRAIN, &saved)
    }

    /// Leaves raw mode for a while, to run `$EDITOR` or a shell: the input reader is parked first, so the
    /// child gets every keystroke, then the screen and settings are restored as by `restore()`.
    public func suspend() {
        reader.withLock { $0 }?.pause()
        let saved = state.withLock { state -> termios? in
            guard state.isRaw, let saved = state.saved else { return nil }
            state.isRaw = false
            return saved
        }
        guard var saved else { return }
        writeAll(Self.leaveSequence)
        _ = tcsetattr(input, TCSADRAIN, &saved)
    }

    /// Back from `suspend()`: raw mode and the alternate screen again, the next `draw` in full, and the
    /// input reader reading again. Does nothing unless suspended.
    public func resume() throws(TerminalError) {
        try state.withLock { state throws(TerminalError) in
            guard !state.isRaw, let saved = state.saved else { return }
            try applyRaw(from: saved)
            state.isRaw = true
            state.drawn = nil
            // Under the lock: no frame may be drawn before the alternate screen is back.
            writeAll(Self.enterSequence)
        }
        reader.withLock { $0 }?.unpause()
    }

    /// What Ctrl-Z does: since raw mode delivers it as a key, the app calls this, which sends SIGTSTP to
    /// the process; `events()` restores the terminal, stops, and reports `.resumed` after `fg`.
    public func suspendProcess() {
        kill(getpid(), SIGTSTP)
    }

    /// The window size from `TIOCGWINSZ`, or 80×24 when the output is not a terminal or reports zero.
    public func size() -> TerminalSize {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return TerminalSize(columns: 80, rows: 24)
        }
        return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
    }

    /// Draws `frame` by writing only what differs from the last frame drawn; in full after `enter()`, a
    /// resize or a resume.
    public func draw(_ frame: Frame) {
        let size = size()
        state.withLock { state in
            // Outside raw mode the screen is the shell's (stopped by Ctrl-Z, or restored on the way out):
            // a frame written there would stay on it after the app has gone. Writing under the lock keeps
            // a frame from slipping between a suspend or resume and its escape sequences.
            guard state.isRaw else { return }
            let update = FrameDiff.update(from: state.drawn, drawnAt: state.drawnSize, to: frame, size: size)
            state.drawn = FrameDiff.fitted(frame, to: size)
            state.drawnSize = size
            writeAll(update)
        }
    }

    /// Makes the next `draw` a full redraw, for when something else wrote to the screen.
    public func invalidate() {
        state.withLock { $0.drawn = nil }
    }

    /// The raw variant of `original`, applied to the input.
    private func applyRaw(from original: termios) throws(TerminalError) {
        var raw = original
        cfmakeraw(&raw)
        guard tcsetattr(input, TCSADRAIN, &raw) == 0 else { throw TerminalError(.cannotSetMode, errno: errno) }
    }

    /// Writes all of `text`, retrying after partial writes and interruptions; gives up on other errors,
    /// since a terminal that refuses output has nobody left to tell.
    func writeAll(_ text: String) {
        guard !text.isEmpty else { return }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeMutableBytes { write(output, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR || errno == EAGAIN {
                continue
            } else {
                return
            }
        }
    }
}

/// Why the terminal could not be set up.
public struct TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The input is not a terminal (redirected from a file or a pipe).
        case notATerminal
        /// The terminal refused raw mode.
        case cannotSetMode
    }

    public var kind: Kind
    public var errno: Int32

    public init(_ kind: Kind, errno: Int32) {
        self.kind = kind
        self.errno = errno
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        switch kind {
        case .notATerminal: return "The interactive view needs a terminal: standard input is not one (\(reason))."
        case .cannotSetMode: return "The terminal refused raw mode (\(reason))."
        }
    }
}
