import IMAPClient

/// Hears new mail as it arrives: one connection of its own idles on INBOX (IMAP IDLE), and every change
/// the server reports there (EXISTS, EXPUNGE, FETCH) becomes one element of ``changes()``, on which the
/// app syncs at once instead of at its next periodic sync. So does each start of listening, which
/// catches what arrived while no IDLE was in place.
///
/// The connection is its own, so idling never holds up a sync, an action or a send, which open theirs.
/// IDLE is re-issued at least every `reissueAfter` (servers drop an IDLE after 30 minutes), and a
/// connection that fails is opened again after `retryAfter`, then less and less often. A server without
/// IDLE, a refused login or missing credentials end the stream: the periodic sync is then all there is,
/// and it says why.
public struct IMAPIdleWatcher: Sendable {
    public let connector: IMAPConnector
    public let reissueAfter: Duration
    public let retryAfter: Duration
    /// The longest wait between attempts while the server cannot be reached (the wait doubles from
    /// `retryAfter`).
    public let maximumWait: Duration

    public init(
        connector: IMAPConnector, reissueAfter: Duration = .seconds(25 * 60), retryAfter: Duration = .seconds(30),
        maximumWait: Duration = .seconds(15 * 60)
    ) {
        self.connector = connector
        self.reissueAfter = reissueAfter
        self.retryAfter = retryAfter
        self.maximumWait = maximumWait
    }

    /// The changes, until the consumer stops listening (which closes the connection) or the server turns
    /// out to have no IDLE.
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task { [self] in
            var wait = retryAfter
            while !Task.isCancelled {
                do {
                    let connection = try await connector.connect()
                    wait = retryAfter
                    guard connection.has("IDLE") else {
                        await connection.logout()
                        continuation.finish()
                        return
                    }
                    do {
                        try await watch(connection) { continuation.yield() }
                    } catch {
                        await connection.logout()
                        throw error
                    }
                    await connection.logout()
                } catch let error as IMAPClientError {
                    // A refused login is not tried again behind the person's back (servers lock accounts
                    // over it): the periodic sync reports it. The network is tried again, less and less often.
                    if case .authenticationFailed = error { break }
                    try? await Task.sleep(for: wait)  // cancelled when the app quits: nothing to report
                    wait = min(wait * 2, maximumWait)
                } catch {
                    break  // no credentials (a password command that failed): the periodic sync says why
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Idles on INBOX until cancelled, calling `changed` after each IDLE that heard a change, and once
    /// when the first IDLE is in place: what arrived before it (while the connection opened, or while
    /// a dropped one was away) is not reported by IDLE, so the caller syncs then to catch it.
    private func watch(_ connection: IMAPConnection, changed: @Sendable () -> Void) async throws {
        _ = try await connection.select("INBOX")
        var listening = false
        while !Task.isCancelled {
            let session = try await connection.idle()
            if !listening {
                listening = true
                changed()
            }
            let heard = await firstEvent(of: session)
            try await session.stop()
            switch heard {
            case .change: changed()
            case .quiet: continue
            case .ended: throw IMAPClientError.disconnected(reason: "the IDLE connection ended")
            }
        }
    }

    private enum Heard: Sendable { case change, quiet, ended }

    /// The first event of the IDLE, or `.quiet` once `reissueAfter` passes without one.
    private func firstEvent(of session: IMAPIdleSession) async -> Heard {
        await withTaskGroup(of: Heard.self) { group in
            group.addTask {
                for await _ in session.events { return .change }
                return Task.isCancelled ? .quiet : .ended
            }
            group.addTask { [reissueAfter] in
                try? await Task.sleep(for: reissueAfter)  // cancelled once the other child answers
                return .quiet
            }
            let first = await group.next() ?? .quiet
            group.cancelAll()
            return first
        }
    }
}
