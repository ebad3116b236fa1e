import Foundation

/// Reads the terminal's input on a thread of its own and hands decoded keys to `emit`.
///
/// A dedicated thread blocked in `poll` costs nothing while the user is idle and answers a keystroke at
/// once. `poll` also watches a pipe, so `pause()` and `stop()` can wake it: while `$EDITOR` runs, the
/// editor must get every keystroke, so the reader has to be provably parked, not merely asked to park.
/// The lone-ESC decision is the poll timeout: when the decoder holds an unfinished ESC and nothing more
/// arrives within `escapeTimeout`, the decoder is flushed.
final class InputReader: @unchecked Sendable {
    enum Phase { case running, pauseRequested, paused, stopped }

    /// How long a lone ESC waits for the rest of a sequence. Terminals send a sequence in one write, so
    /// 30 ms separates them from a person pressing Esc and then a key, even over ssh.
    static let escapeTimeout: Int32 = 30

    private let input: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Guards `phase`; the reader waits on it while paused, and `pause()` waits on it for the reader.
    private let condition = NSCondition()
    private var phase = Phase.running
    private var started = false

    /// Makes the wake-up pipe; `nil` when the process is out of file descriptors.
    init?(input: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        self.input = input
        wakeRead = fds[0]
        wakeWrite = fds[1]
        _ = fcntl(wakeRead, F_SETFL, fcntl(wakeRead, F_GETFL) | O_NONBLOCK)
    }

    /// Starts the thread. `emit` gets keys; `hangUp` is called once if the input reaches end of file or
    /// fails (the terminal went away), after which the reader stops.
    func start(emit: @escaping @Sendable (Key) -> Void, hangUp: @escaping @Sendable () -> Void) {
        condition.lock()
        started = true
        condition.unlock()
        let thread = Thread { [self] in
            run(emit: emit, hangUp: hangUp)
        }
        thread.name = "TerminalKit input"
        thread.start()
    }

    /// Parks the reader and returns once it no longer reads the input (at once if it never started or
    /// has stopped).
    func pause() {
        condition.lock()
        defer { condition.unlock() }
        guard started, phase == .running else { return }
        phase = .pauseRequested
        wake()
        while phase == .pauseRequested { condition.wait() }
    }

    /// Lets a paused reader read again.
    func unpause() {
        condition.lock()
        defer { condition.unlock() }
        guard phase == .paused || phase == .pauseRequested else { return }
        phase = .running
        condition.broadcast()
    }

    /// Ends the thread (it closes the wake-up pipe on its way out). Idempotent.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        guard phase != .stopped else { return }
        phase = .stopped
        condition.broadcast()
        if started { wake() } else { closePipe() }
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func closePipe() {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Blocks while paused; `false` once stopped.
    private func waitWhilePaused() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while phase != .running {
            switch phase {
            case .stopped:
                closePipe()
                return false
            case .pauseRequested:
                phase = .paused
                condition.broadcast()
            case .paused, .running:
                break
            }
            if phase == .paused { condition.wait() }
        }
        return true
    }

    private func run(emit: @Sendable (Key) -> Void, hangUp: @Sendable () -> Void) {
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while waitWhilePaused() {
            var fds = [
                pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, decoder.hasPendingInput ? Self.escapeTimeout : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return finish(hangUp)
            }
            if ready == 0 {
                decoder.flushPending().forEach(emit)
                continue
            }
            if fds[1].revents != 0 {
                // A pause or stop request: drain the pipe and let `waitWhilePaused` act on it.
                while read(wakeRead, &buffer, buffer.count) > 0 {}
                continue
            }
            guard fds[0].revents != 0 else { continue }
            let count = read(input, &buffer, buffer.count)
            if count > 0 {
                decoder.feed(Array(buffer[..<count])).forEach(emit)
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                return finish(hangUp)
            }
        }
    }

    private func finish(_ hangUp: @Sendable () -> Void) {
        stop()
        _ = waitWhilePaused()
        hangUp()
    }
}
