import IMAPProtocol
import NIOCore
import Synchronization

/// Something the server reported about the selected mailbox during IDLE: each case means it changed.
public enum IMAPIdleEvent: Sendable, Hashable {
    /// `* n EXISTS`: the mailbox now holds `n` messages (usually: new mail).
    case exists(UInt32)
    /// `* n EXPUNGE`: the message with that sequence number is gone.
    case expunge(UInt32)
    /// `* VANISHED uids` (QRESYNC enabled): messages are gone.
    case vanished
    /// `* n FETCH (...)`: the message with that sequence number changed, usually its flags.
    case fetch(UInt32)
    /// Another response that may mean a change, such as `* FLAGS` or one this client does not model.
    case other

    /// The event a response during IDLE means, or nil for one that says nothing about the mailbox (the
    /// `* OK Still here` keep-alives some servers send, CAPABILITY, SEARCH results).
    init?(_ untagged: IMAPUntaggedResponse) {
        switch untagged {
        case .exists(let count): self = .exists(count)
        case .expunge(let sequence): self = .expunge(sequence)
        case .vanished: self = .vanished
        case .fetch(let sequence, _): self = .fetch(sequence)
        case .recent, .flags, .other: self = .other
        case .condition, .capability, .enabled, .list, .status, .search, .esearch: return nil
        }
    }
}

extension IMAPConnection {
    /// IDLE on the selected mailbox (RFC 2177): sends IDLE and returns once the server accepted it; its
    /// reports then arrive as ``IMAPIdleSession/events`` until ``IMAPIdleSession/stop()``.
    ///
    /// Silence while idling is normal (a quiet mailbox for half an hour), so the command time-out is off
    /// until `stop()` sends DONE. A connection that closes or fails ends the events, and `stop()` then
    /// throws why. Commands issued meanwhile wait until the IDLE ends, since nothing but DONE may follow
    /// IDLE on the wire. Servers end an IDLE after about 30 minutes: stop and idle again well before
    /// (every 25 minutes, say), which also makes a connection that vanished without a word fail, by the
    /// time-out on DONE.
    ///
    /// - Throws: ``IMAPClientError/missingCapability(_:)`` without `IDLE`; the server's NO or BAD.
    public func idle() async throws(IMAPClientError) -> IMAPIdleSession {
        guard has("IDLE") else { throw .missingCapability("IDLE") }
        // A consumer that falls behind only needs to learn that something changed, and the newest
        // events say the most, so an IDLE left unread for a long time holds a bounded amount.
        let (events, continuation) = AsyncStream.makeStream(
            of: IMAPIdleEvent.self, bufferingPolicy: .bufferingNewest(1024))
        let listener = IMAPIdleListener(started: channel.eventLoop.makePromise(), events: continuation)
        let (tag, completion) = submitTagged(.idle, name: "IDLE", kind: .idle, idleListener: listener)
        try await wait(for: listener.started.futureResult)
        return IMAPIdleSession(connection: self, tag: tag, completion: completion, events: events)
    }
}

/// One IDLE the server accepted. Release it only after ``stop()``; one released while idling sends DONE
/// so the connection takes commands again.
public final class IMAPIdleSession: Sendable {
    /// What the server reported, in order. It finishes when the IDLE completes, or when the connection
    /// fails.
    public let events: AsyncStream<IMAPIdleEvent>
    private let connection: IMAPConnection
    private let tag: String
    private let completion: EventLoopFuture<IMAPCommandResponse>
    private let doneRequested = Mutex(false)

    init(
        connection: IMAPConnection, tag: String, completion: EventLoopFuture<IMAPCommandResponse>,
        events: AsyncStream<IMAPIdleEvent>
    ) {
        self.connection = connection
        self.tag = tag
        self.completion = completion
        self.events = events
    }

    deinit {
        requestDone()
    }

    /// Sends DONE (once, however often this is called) and waits for the IDLE's completion; the
    /// connection then takes commands again.
    ///
    /// - Throws: why the connection failed, if it did while idling, or the server's NO or BAD.
    public func stop() async throws(IMAPClientError) {
        requestDone()
        _ = try await connection.finish(completion, name: "IDLE")
    }

    private func requestDone() {
        let first = doneRequested.withLock { requested in
            defer { requested = true }
            return !requested
        }
        guard first else { return }
        connection.channel.triggerUserOutboundEvent(IMAPEndIdle(tag: tag), promise: nil)
    }
}

/// Asks the channel handler to write `DONE` for the IDLE with this tag.
struct IMAPEndIdle: Sendable {
    var tag: String
}

/// Where an IDLE stands, as the channel handler tracks it.
enum IMAPIdlePhase {
    /// Sent; the server's `+` has not come yet.
    case awaitingContinuation
    /// Accepted: the server reports changes until `DONE`.
    case idling
    /// `DONE` written; the tagged completion is due.
    case ending
}

/// The channel handler's side of one IDLE: the promise that the server accepted it, and the events.
///
/// Invariant: the handler, on the event loop, fulfils `started` exactly once (``accept()`` or
/// ``refuse(_:)``) and then calls ``end()`` exactly once; when the command never reached the handler,
/// ``IMAPConnection`` does both instead.
final class IMAPIdleListener: Sendable {
    let started: EventLoopPromise<Void>
    private let events: AsyncStream<IMAPIdleEvent>.Continuation

    init(started: EventLoopPromise<Void>, events: AsyncStream<IMAPIdleEvent>.Continuation) {
        self.started = started
        self.events = events
    }

    func accept() { started.succeed() }

    func refuse(_ error: IMAPClientError) { started.fail(error) }

    func deliver(_ untagged: IMAPUntaggedResponse) {
        if let event = IMAPIdleEvent(untagged) { events.yield(event) }
    }

    func end() { events.finish() }
}
