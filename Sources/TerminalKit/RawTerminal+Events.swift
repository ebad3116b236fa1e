import Foundation
import Synchronization

extension RawTerminal {
    /// Keys, resizes, resumes and termination requests, in the order they happen.
    ///
    /// Keys come from a reader thread on the input (see `InputReader`); signals from dispatch sources, so
    /// their handling is ordinary code on a serial queue rather than a signal handler:
    /// - SIGWINCH: `.resize` with the new size; the next `draw` is in full.
    /// - SIGTERM, SIGHUP, or end of input: `.terminate`. The app restores the terminal and quits.
    /// - SIGTSTP (from `suspendProcess()` or `kill`): the terminal is restored for the shell, then the
    ///   process stops itself with SIGSTOP.
    /// - SIGCONT: raw mode and the alternate screen again, then `.resumed`.
    ///
    /// While the stream runs those signals are ignored by the process (that is how dispatch sources get
    /// them, and it keeps SIGTSTP from stopping the process with the terminal still raw); ending the
    /// stream (the consumer's task finishing or being cancelled) stops the reader and puts back the
    /// signal dispositions found. The stream is for one consumer: a second call returns a finished stream.
    public func events() -> AsyncStream<TerminalEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
        let isFirst = state.withLock { state in
            defer { state.eventsStarted = true }
            return !state.eventsStarted
        }
        guard isFirst, let reader = InputReader(input: input) else {
            continuation.finish()
            return stream
        }
        self.reader.withLock { $0 = reader }
        let watcher = SignalWatcher(
            signals: [SIGWINCH, SIGTERM, SIGHUP, SIGTSTP, SIGCONT]
        ) { [self] signal in
            handle(signal, continuation)
        }
        continuation.onTermination = { [self] _ in
            reader.stop()
            watcher.cancel()
            self.reader.withLock { $0 = nil }
        }
        reader.start { key in
            continuation.yield(.key(key))
        } hangUp: {
            continuation.yield(.terminate)
        }
        return stream
    }

    private func handle(_ signal: Int32, _ continuation: AsyncStream<TerminalEvent>.Continuation) {
        switch signal {
        case SIGWINCH:
            invalidate()
            continuation.yield(.resize(size()))
        case SIGTSTP:
            state.withLock { $0.isStopped = $0.isRaw }
            suspend()
            kill(getpid(), SIGSTOP)
        case SIGCONT:
            let wasStopped = state.withLock { state in
                defer { state.isStopped = false }
                return state.isStopped
            }
            do {
                if wasStopped { try resume() } else { try reassertRawMode() }
            } catch {
                continuation.yield(.terminate)
                return
            }
            invalidate()
            continuation.yield(.resumed)
        default:
            continuation.yield(.terminate)
        }
    }

    /// After a stop the app did not ask for (SIGSTOP from elsewhere), the shell may have put its own
    /// settings on the terminal: raw mode and the alternate screen are set again if they were on.
    private func reassertRawMode() throws(TerminalError) {
        guard let saved = state.withLock({ $0.isRaw ? $0.saved : nil }) else { return }
        var raw = saved
        cfmakeraw(&raw)
        guard tcsetattr(input, TCSADRAIN, &raw) == 0 else { throw TerminalError(.cannotSetMode, errno: errno) }
        writeAll(Self.enterSequence)
    }
}

/// Dispatch signal sources for a set of signals, with the process's dispositions for them put back on
/// `cancel()`.
final class SignalWatcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "TerminalKit signals")
    private let sources: [any DispatchSourceSignal]
    private let previous: [(signal: Int32, action: sigaction)]

    /// Ignores each signal (so its default action, often ending or stopping the process, does not run)
    /// and watches it with a dispatch source that calls `handler` on a serial queue.
    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        var previous: [(signal: Int32, action: sigaction)] = []
        var sources: [any DispatchSourceSignal] = []
        for signalNumber in signals {
            var old = sigaction()
            sigaction(signalNumber, nil, &old)
            previous.append((signalNumber, old))
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { handler(signalNumber) }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
        self.previous = previous
    }

    /// Stops watching and restores the dispositions found by `init`. Call once.
    func cancel() {
        for source in sources { source.cancel() }
        for (signalNumber, action) in previous {
            var action = action
            sigaction(signalNumber, &action, nil)
        }
    }
}
