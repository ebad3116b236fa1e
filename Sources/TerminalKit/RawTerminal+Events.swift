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
    /// Ending the stream (the consumer's task finishing or being cancelled) stops the reader and the
    /// signal sources. The signals stay caught for the life of the process: libdispatch installs its own
    /// handler once per signal, and putting the old disposition back would disarm any later source, so
    /// after the stream ends they do nothing; the app restores the terminal and exits then anyway.
    /// The stream is for one consumer: a second call returns a finished stream.
    public func events() -> AsyncStream<TerminalEvent> {
        events(watching: [SIGWINCH, SIGTERM, SIGHUP, SIGTSTP, SIGCONT])
    }

    /// `events()` for a chosen set of signals, so tests can leave the test process's SIGTERM, SIGHUP and
    /// SIGTSTP alone.
    func events(watching signals: [Int32]) -> AsyncStream<TerminalEvent> {
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
        let watcher = SignalWatcher(signals: signals) { [self] signal in
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

/// Dispatch signal sources for a set of signals.
final class SignalWatcher: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    /// Watches each signal with a dispatch source that calls `handler` on a serial queue. A signal still
    /// at its default action is ignored first, so that action (often ending or stopping the process)
    /// cannot run before the source is armed. One with a handler already is left alone: libdispatch
    /// installs its handler the first time a signal is watched and never again, so overwriting it would
    /// disarm every later source.
    ///
    /// It returns once every source is registered: libdispatch arms a source on its own queue after
    /// `resume()`, and a signal sent in between would meet the ignored disposition and be lost (a resize
    /// right after the app starts, say). The wait is bounded, so a source that never registers cannot
    /// hang the caller; it would only miss signals, as before.
    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "TerminalKit signals")
        let registered = DispatchGroup()
        sources = signals.map { signalNumber in
            var current = sigaction()
            if sigaction(signalNumber, nil, &current) == 0, current.__sigaction_handler.sa_handler == nil {
                signal(signalNumber, SIG_IGN)
            }
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { handler(signalNumber) }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            return source
        }
        _ = registered.wait(timeout: .now() + .seconds(2))
    }

    /// Stops watching.
    func cancel() {
        for source in sources { source.cancel() }
    }
}
