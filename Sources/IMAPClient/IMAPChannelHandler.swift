import IMAPProtocol
import NIOCore
import NIOSSL
import NIOTLS

/// Routes the server's responses to the commands in flight, and writes commands (pipelined).
///
/// Invariants, all on the channel's event loop:
/// - `inFlight` holds the commands whose first part was written, in the order they were written; servers
///   answer in that order, so untagged responses belong to the oldest one.
/// - When `writerHeld`, the last command of `inFlight` still has parts to send after `+` continuations (or
///   is an AUTHENTICATE that may be challenged again), and nothing else is written until it lets go:
///   another command's bytes would otherwise be read as its literal.
/// - An IDLE is always the last of `inFlight` and holds the write side until its completion. Untagged
///   responses go to its listener while it is the oldest command. Once the server's `+` has accepted it
///   and nothing older is in flight, silence is normal and no time limit runs, until `DONE` is written.
/// - Once `failure` is set it never changes, every promise has been failed, every IDLE listener has been
///   ended, and the channel is closing.
final class IMAPChannelHandler: ChannelDuplexHandler {
    typealias InboundIn = IMAPInboundFrame
    typealias OutboundIn = IMAPPendingCommand
    typealias OutboundOut = ByteBuffer

    /// What the handler needs to know about the connection it serves.
    struct Configuration: Sendable {
        var endpoint: IMAPEndpoint
        var timeouts: IMAPTimeouts
        /// When the greeting (and implicit TLS before it) must have arrived.
        var establishmentDeadline: NIODeadline
        /// For STARTTLS; nil unless the endpoint asks for it.
        var startTLSContext: NIOSSLContext?
        /// The name the certificate must carry: nil for an IP address, which SNI cannot carry.
        var serverHostname: String?
    }

    private struct InFlight {
        var command: IMAPPendingCommand
        var remainingParts: ArraySlice<[UInt8]>
        var untagged: [IMAPUntaggedResponse] = []
        /// Nil unless the command is an IDLE.
        var idle: IMAPIdlePhase?
    }

    /// Bytes are written in pieces of this size, each one's completion counting as activity: a large
    /// APPEND that the server takes slowly is not silence, while one that stops moving still times out.
    private static let writeChunkSize = 64 * 1024

    private enum TLSState {
        case none, handshaking, established
    }

    private let configuration: Configuration
    private let link: IMAPLinkState
    private var context: ChannelHandlerContext?
    private var greeting: EventLoopPromise<IMAPGreeting>?
    private var tlsHandshake: EventLoopPromise<Void>?
    private var tlsState: TLSState
    private var inFlight: [InFlight] = []
    private var waiting: [IMAPPendingCommand] = []
    private var writerHeld = false
    private var failure: IMAPClientError?
    private var lastActivity = NIODeadline.now()
    private var inactivityCheck: Scheduled<Void>?
    private var establishmentCheck: Scheduled<Void>?

    /// `implicitTLS` when a TLS handler sits before this one from the start; `tlsHandshake` is fulfilled
    /// when a STARTTLS handshake completes.
    init(
        configuration: Configuration, implicitTLS: Bool, greeting: EventLoopPromise<IMAPGreeting>,
        tlsHandshake: EventLoopPromise<Void>?, link: IMAPLinkState
    ) {
        self.configuration = configuration
        self.tlsState = implicitTLS ? .handshaking : .none
        self.greeting = greeting
        self.tlsHandshake = tlsHandshake
        self.link = link
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { scheduleEstablishmentCheck(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        fail(.disconnected(reason: "the connection was shut down"))
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        scheduleEstablishmentCheck(context: context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        switch tlsState {
        case .handshaking:
            fail(tlsFailure("the server closed the connection during the TLS handshake"))
        case .none, .established:
            let moment = greeting == nil ? "" : " before its greeting"
            fail(.disconnected(reason: "the server closed the connection\(moment)"))
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(tlsState == .handshaking ? tlsFailure(String(describing: error)) : IMAPClientError(channelError: error))
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IMAPBytesReceived {
            lastActivity = .now()
        } else if let event = event as? TLSUserEvent, case .handshakeCompleted = event {
            tlsState = .established
            tlsHandshake?.succeed()
            tlsHandshake = nil
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard failure == nil else { return }
        let frame = unwrapInboundIn(data)
        guard tlsState != .handshaking else {
            return fail(.malformedResponse("the server sent data before TLS was established"))
        }
        let response: IMAPResponse
        do {
            response = try IMAPResponseParser.parse(frame.bytes)
        } catch {
            return fail(.malformedResponse(error.errorDescription ?? String(describing: error)))
        }
        if let greeting {
            return receiveGreeting(response, promise: greeting)
        }
        switch response {
        case .continuation: continueWriting()
        case .untagged(let untagged): route(untagged)
        case .tagged(let completion): complete(completion, bufferedAfter: frame.bufferedAfter)
        }
    }

    /// ``IMAPEndIdle``: writes `DONE` for the IDLE with that tag, once, if the server accepted it.
    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let end = event as? IMAPEndIdle else {
            return context.triggerUserOutboundEvent(event, promise: promise)
        }
        promise?.succeed()
        guard failure == nil, let index = inFlight.firstIndex(where: { $0.command.tag == end.tag }),
            inFlight[index].idle == .idling
        else { return }
        inFlight[index].idle = .ending
        write(IMAPEncodedCommand.encode(.done, tag: end.tag, literalPlus: false).bytes, isActivity: true)
        context.flush()
        scheduleInactivityCheck()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let command = unwrapOutboundIn(data)
        promise?.succeed()
        if let failure {
            command.promise.fail(failure)
            return
        }
        waiting.append(command)
        writeWaitingCommands()
    }

    // MARK: Responses

    private func receiveGreeting(_ response: IMAPResponse, promise: EventLoopPromise<IMAPGreeting>) {
        guard case .untagged(.condition(let status, let code, let text)) = response else {
            return fail(.malformedResponse("the server's first response is not a greeting"))
        }
        switch status {
        case .ok, .preauth:
            greeting = nil
            establishmentCheck?.cancel()
            establishmentCheck = nil
            var capabilities: [String]?
            if case .capability(let advertised) = code { capabilities = advertised }
            promise.succeed(IMAPGreeting(preauthenticated: status == .preauth, capabilities: capabilities))
        case .bye:
            fail(.serverClosed(serverText: text))
        case .no, .bad:
            fail(.malformedResponse("the server greeted with \(status.rawValue): \(text)"))
        }
    }

    private func route(_ untagged: IMAPUntaggedResponse) {
        if case .condition(.bye, _, let text) = untagged, inFlight.first?.command.kind != .logout {
            return fail(.serverClosed(serverText: text))
        }
        // With nothing in flight the response is unsolicited (a new message's EXISTS between commands):
        // the next SELECT or FETCH reports the same state, so it is dropped.
        guard !inFlight.isEmpty else { return }
        // Delivered as it comes rather than kept: an IDLE may last half an hour.
        if let listener = inFlight[0].command.idleListener { return listener.deliver(untagged) }
        inFlight[0].untagged.append(untagged)
    }

    private func complete(_ completion: IMAPTaggedResponse, bufferedAfter: Int) {
        guard let index = inFlight.firstIndex(where: { $0.command.tag == completion.tag }) else {
            return fail(.malformedResponse("a completion for a command never sent, tag \(completion.tag.prefix(20))"))
        }
        if writerHeld, index == inFlight.count - 1 { writerHeld = false }
        let done = inFlight.remove(at: index)
        if let listener = done.command.idleListener {
            if done.idle == .awaitingContinuation {
                listener.refuse(
                    completion.status == .ok
                        ? .malformedResponse("the server completed IDLE without accepting it")
                        : .commandFailed(
                            command: "IDLE", status: completion.status.rawValue, serverText: completion.text))
            }
            listener.end()
        }
        if done.command.kind == .startTLS, completion.status == .ok {
            // Bytes after the OK were sent in plain text although they should follow the handshake: an
            // attacker on the path could have injected them, so the connection cannot be trusted.
            guard bufferedAfter == 0, inFlight.isEmpty, waiting.isEmpty else {
                done.command.promise.fail(tlsFailure("the server sent data after accepting STARTTLS"))
                return fail(tlsFailure("the server sent data after accepting STARTTLS"))
            }
            startTLS()
        }
        done.command.promise.succeed(IMAPCommandResponse(untagged: done.untagged, completion: completion))
        if inFlight.isEmpty {
            inactivityCheck?.cancel()
            inactivityCheck = nil
        }
        writeWaitingCommands()
    }

    /// Answers a `+` continuation: the next part of the command holding the write side, or an empty line
    /// to a SASL challenge (which ends a failed XOAUTH2 exchange, so the server sends its NO).
    private func continueWriting() {
        guard writerHeld, let last = inFlight.indices.last else {
            return fail(.malformedResponse("the server asked for data no command has to send"))
        }
        if let phase = inFlight[last].idle {
            // A `+` after the first is a keep-alive some servers send while idling.
            guard phase == .awaitingContinuation else { return }
            inFlight[last].idle = .idling
            inFlight[last].command.idleListener?.accept()
            return
        }
        if let part = inFlight[last].remainingParts.popFirst() {
            write(part, isActivity: true)
            context?.flush()
            if inFlight[last].remainingParts.isEmpty, inFlight[last].command.kind != .authenticate {
                writerHeld = false
                writeWaitingCommands()
            }
        } else if inFlight[last].command.kind == .authenticate {
            write(Array("\r\n".utf8), isActivity: true)
            context?.flush()
        } else {
            fail(.malformedResponse("the server asked for more data than the command has"))
        }
    }

    // MARK: Writing

    private func writeWaitingCommands() {
        guard let context, failure == nil, !writerHeld, !waiting.isEmpty else { return }
        if inFlight.isEmpty { lastActivity = .now() }
        while !writerHeld, !waiting.isEmpty {
            let command = waiting.removeFirst()
            var parts = command.parts[...]
            guard let first = parts.popFirst() else {
                command.promise.fail(IMAPClientError.malformedResponse("an empty command"))
                continue
            }
            write(first, isActivity: false)
            let idle: IMAPIdlePhase? = command.kind == .idle ? .awaitingContinuation : nil
            inFlight.append(InFlight(command: command, remainingParts: parts, idle: idle))
            writerHeld = !parts.isEmpty || command.kind == .authenticate || command.kind == .idle
        }
        context.flush()
        scheduleInactivityCheck()
    }

    /// Writes without flushing. `isActivity` when the server waits for these bytes (a continuation's
    /// part, `DONE`); a pipelined command's bytes are not, or they would hide an older command's silence.
    /// Large writes go in pieces, each piece the socket takes counting as activity: the server reads
    /// them, so its silence meanwhile is not a dead connection.
    private func write(_ bytes: [UInt8], isActivity: Bool) {
        guard let context else { return }
        if isActivity { lastActivity = .now() }
        guard bytes.count > Self.writeChunkSize else {
            return context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
        }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + Self.writeChunkSize, bytes.count)
            let promise = context.eventLoop.makePromise(of: Void.self)
            promise.futureResult.assumeIsolated().whenSuccess { [self] in lastActivity = .now() }
            let piece = context.channel.allocator.buffer(bytes: bytes[offset..<end])
            context.write(wrapOutboundOut(piece), promise: promise)
            offset = end
        }
    }

    private func startTLS() {
        guard let context, let tlsContext = configuration.startTLSContext else {
            return fail(tlsFailure("STARTTLS was not requested"))
        }
        do {
            let handler = try NIOSSLClientHandler(context: tlsContext, serverHostname: configuration.serverHostname)
            try context.pipeline.syncOperations.addHandler(handler, position: .first)
        } catch {
            return fail(tlsFailure(String(describing: error)))
        }
        tlsState = .handshaking
        let limit = configuration.timeouts.connect
        context.eventLoop.assumeIsolated().scheduleTask(in: limit.timeAmount) { [self] in
            if tlsState == .handshaking {
                fail(tlsFailure("the TLS handshake did not finish within \(limit.roundedUpSeconds) s"))
            }
        }
    }

    // MARK: Time limits

    private func scheduleEstablishmentCheck(context: ChannelHandlerContext) {
        guard establishmentCheck == nil, greeting != nil else { return }
        let limit = configuration.timeouts.connect.roundedUpSeconds
        establishmentCheck = context.eventLoop.assumeIsolated().scheduleTask(
            deadline: configuration.establishmentDeadline
        ) { [self] in
            establishmentCheck = nil
            guard greeting != nil else { return }
            if tlsState == .handshaking {
                fail(tlsFailure("the TLS handshake did not finish within \(limit) s"))
            } else {
                fail(.timedOut(command: "the greeting", seconds: limit))
            }
        }
    }

    /// Whether the server accepted an IDLE and nothing else is in flight: silence is then normal.
    private var isQuietIdle: Bool { inFlight.count == 1 && inFlight[0].idle == .idling }

    /// Checks for silence when the oldest byte of activity is `timeouts.command` old; activity since
    /// then (bytes received, bytes taken by the socket) moves the check later instead of failing. A quiet
    /// IDLE has no check; writing its `DONE` schedules one again.
    private func scheduleInactivityCheck() {
        guard inactivityCheck == nil, !inFlight.isEmpty, !isQuietIdle, let context else { return }
        let limit = configuration.timeouts.command.timeAmount
        inactivityCheck = context.eventLoop.assumeIsolated().scheduleTask(deadline: lastActivity + limit) {
            [self] in
            inactivityCheck = nil
            guard failure == nil, !inFlight.isEmpty, !isQuietIdle else { return }
            if NIODeadline.now() >= lastActivity + limit {
                fail(
                    .timedOut(
                        command: inFlight[0].command.name, seconds: configuration.timeouts.command.roundedUpSeconds))
            } else {
                scheduleInactivityCheck()
            }
        }
    }

    // MARK: Failure

    private func tlsFailure(_ reason: String) -> IMAPClientError {
        .tlsFailed(host: configuration.endpoint.host, port: configuration.endpoint.port, reason: reason)
    }

    /// Fails everything waiting on this connection and closes it. A time-out names each command.
    private func fail(_ error: IMAPClientError) {
        guard failure == nil else { return }
        failure = error
        link.record(error)
        greeting?.fail(error)
        greeting = nil
        tlsHandshake?.fail(error)
        tlsHandshake = nil
        for entry in inFlight {
            if entry.idle == .awaitingContinuation { entry.command.idleListener?.refuse(error) }
            entry.command.idleListener?.end()
        }
        for command in waiting {
            command.idleListener?.refuse(error)
            command.idleListener?.end()
        }
        for command in inFlight.map(\.command) + waiting {
            if case .timedOut(_, let seconds) = error {
                command.promise.fail(IMAPClientError.timedOut(command: command.name, seconds: seconds))
            } else {
                command.promise.fail(error)
            }
        }
        inFlight = []
        waiting = []
        inactivityCheck?.cancel()
        inactivityCheck = nil
        establishmentCheck?.cancel()
        establishmentCheck = nil
        context?.close(promise: nil)
    }
}
