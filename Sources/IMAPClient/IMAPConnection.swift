import Glibc
import IMAPProtocol
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// One authenticated IMAP connection.
///
/// Commands may be issued concurrently from several tasks: each gets a tag, is written at once
/// (pipelined; during an ``idle()`` they wait for its end), and the untagged responses the server sends
/// before its completion are routed to it. Untagged responses while no command runs are dropped: the
/// next SELECT, FETCH or IDLE learns the same state. Nothing blocks a thread: NIO's event loop does the
/// I/O, and callers await its futures.
///
/// A connection that fails (time-out, BYE, reset, malformed response) is closed, and every later command
/// fails with the same error: connect again.
public final class IMAPConnection: Sendable {
    /// The server this connection talks to.
    public let endpoint: IMAPEndpoint
    let channel: any Channel
    let timeouts: IMAPTimeouts
    let link: IMAPLinkState

    private struct State {
        var capabilities: Set<String> = []
        var nextTag = 1
    }

    private let state = Mutex(State())

    private init(channel: any Channel, endpoint: IMAPEndpoint, timeouts: IMAPTimeouts, link: IMAPLinkState) {
        self.channel = channel
        self.endpoint = endpoint
        self.timeouts = timeouts
        self.link = link
    }

    deinit {
        channel.close(promise: nil)
    }

    /// Connects, secures the connection as `endpoint.security` asks (verifying the server's certificate
    /// against the system's trust store and its name), and authenticates.
    ///
    /// - Parameter eventLoopGroup: where the connection's I/O runs. The default is NIO's process-wide
    ///   group, which NIO creates on first use; pass one to keep the client's threads apart.
    public static func connect(
        to endpoint: IMAPEndpoint, authentication: IMAPAuthentication, timeouts: IMAPTimeouts = .init(),
        eventLoopGroup: any EventLoopGroup = NIOSingletons.posixEventLoopGroup
    ) async throws(IMAPClientError) -> IMAPConnection {
        let eventLoop = eventLoopGroup.next()
        let tlsContext = try makeTLSContext(for: endpoint)
        let greeting = eventLoop.makePromise(of: IMAPGreeting.self)
        let handshake = endpoint.security == .starttls ? eventLoop.makePromise(of: Void.self) : nil
        let link = IMAPLinkState()
        let configuration = IMAPChannelHandler.Configuration(
            endpoint: endpoint, timeouts: timeouts,
            establishmentDeadline: .now() + timeouts.connect.timeAmount,
            startTLSContext: endpoint.security == .starttls ? tlsContext : nil,
            serverHostname: isIPAddress(endpoint.host) ? nil : endpoint.host
        )
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(timeouts.connect.timeAmount)
            // A quiet IDLE waits on a silent socket for many minutes, with no time-out of its own: TCP
            // keep-alives make a peer that vanished without a word (a dropped NAT entry, a dead link)
            // fail the connection within a few minutes.
            .channelOption(.socketOption(.so_keepalive), value: 1)
            .channelOption(Self.tcpOption(TCP_KEEPIDLE), value: 120)
            .channelOption(Self.tcpOption(TCP_KEEPINTVL), value: 30)
            .channelOption(Self.tcpOption(TCP_KEEPCNT), value: 4)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if endpoint.security == .tls, let tlsContext {
                        let hostname = configuration.serverHostname
                        try pipeline.addHandler(NIOSSLClientHandler(context: tlsContext, serverHostname: hostname))
                    }
                    try pipeline.addHandler(ByteToMessageHandler(IMAPFrameDecoder()))
                    try pipeline.addHandler(
                        IMAPChannelHandler(
                            configuration: configuration, implicitTLS: endpoint.security == .tls, greeting: greeting,
                            tlsHandshake: handshake, link: link
                        )
                    )
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: endpoint.host, port: endpoint.port).get()
        } catch {
            let failure = IMAPClientError.unreachable(
                host: endpoint.host, port: endpoint.port, reason: describeConnectFailure(error, timeouts: timeouts))
            greeting.fail(failure)
            handshake?.fail(failure)
            throw failure
        }
        let connection = IMAPConnection(channel: channel, endpoint: endpoint, timeouts: timeouts, link: link)
        do throws(IMAPClientError) {
            let hello = try await connection.wait(for: greeting.futureResult)
            if let capabilities = hello.capabilities { connection.replaceCapabilities(capabilities) }
            if let handshake {
                // Every promise must be fulfilled; when STARTTLS stops early this one never is by the handler.
                defer { handshake.fail(IMAPClientError.disconnected(reason: "STARTTLS did not complete")) }
                guard !hello.preauthenticated else {
                    throw IMAPClientError.tlsFailed(
                        host: endpoint.host, port: endpoint.port,
                        reason: "the server authenticated the connection before STARTTLS could protect it")
                }
                try await connection.startTLS(handshake: handshake.futureResult)
            }
            if !hello.preauthenticated {
                try await IMAPAuthenticator(connection: connection).authenticate(authentication)
            } else if connection.capabilities.isEmpty {
                try await connection.refreshCapabilities()
            }
            return connection
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    // MARK: Capabilities

    /// The server's capabilities, uppercased, as of after authentication.
    public var capabilities: Set<String> { state.withLock { $0.capabilities } }

    /// Whether the server advertises `capability` (case-insensitively).
    public func has(_ capability: String) -> Bool {
        state.withLock { $0.capabilities.contains(capability.uppercased()) }
    }

    /// Whether this is Gmail, which advertises its extensions as `X-GM-EXT-1`.
    public var isGmail: Bool { has("X-GM-EXT-1") }

    func replaceCapabilities(_ capabilities: [String]) {
        state.withLock { $0.capabilities = Set(capabilities.map { $0.uppercased() }) }
    }

    /// Takes capabilities from an untagged CAPABILITY or a `[CAPABILITY ...]` code; says whether any came.
    @discardableResult
    func absorbCapabilities(from response: IMAPCommandResponse) -> Bool {
        var found: [String]?
        for untagged in response.untagged {
            switch untagged {
            case .capability(let list): found = list
            case .condition(_, .capability(let list)?, _): found = list
            default: break
            }
        }
        if case .capability(let list)? = response.completion.code { found = list }
        guard let found else { return false }
        replaceCapabilities(found)
        return true
    }

    func refreshCapabilities() async throws(IMAPClientError) {
        let response = try await execute(.capability, name: "CAPABILITY")
        guard absorbCapabilities(from: response) else {
            throw .malformedResponse("CAPABILITY was answered without a capability list")
        }
    }

    // MARK: STARTTLS

    private func startTLS(handshake: EventLoopFuture<Void>) async throws(IMAPClientError) {
        if capabilities.isEmpty { try await refreshCapabilities() }
        guard has("STARTTLS") else { throw .missingCapability("STARTTLS") }
        let response = try await executeUnchecked(.startTLS, name: "STARTTLS", kind: .startTLS)
        guard response.completion.status == .ok else {
            throw .tlsFailed(
                host: endpoint.host, port: endpoint.port,
                reason: "the server refused STARTTLS: \(response.completion.text)")
        }
        try await wait(for: handshake)
        // What the server said before TLS could have been altered on the way: forget it.
        replaceCapabilities([])
    }

    // MARK: Sending commands

    /// Writes a command now (pipelined behind any in flight) and returns its answer's future.
    ///
    /// - Parameter literalPlus: whether literals may be sent without waiting for the server's `+`; nil
    ///   for when the server announces LITERAL+.
    func submit(
        _ command: IMAPCommand, name: String, kind: IMAPPendingCommand.Kind = .ordinary,
        extraParts: [[UInt8]] = [], literalPlus: Bool? = nil
    ) -> EventLoopFuture<IMAPCommandResponse> {
        submitTagged(command, name: name, kind: kind, extraParts: extraParts, literalPlus: literalPlus).future
    }

    /// ``submit(_:name:kind:extraParts:literalPlus:)``, also returning the command's tag.
    func submitTagged(
        _ command: IMAPCommand, name: String, kind: IMAPPendingCommand.Kind = .ordinary,
        extraParts: [[UInt8]] = [], literalPlus: Bool? = nil, idleListener: IMAPIdleListener? = nil
    ) -> (tag: String, future: EventLoopFuture<IMAPCommandResponse>) {
        let tag = state.withLock { state in
            defer { state.nextTag += 1 }
            return "A\(state.nextTag)"
        }
        let encoded = IMAPEncodedCommand.encode(command, tag: tag, literalPlus: literalPlus ?? has("LITERAL+"))
        let promise = channel.eventLoop.makePromise(of: IMAPCommandResponse.self)
        let pending = IMAPPendingCommand(
            tag: tag, name: name, parts: encoded.parts + extraParts, kind: kind, promise: promise,
            idleListener: idleListener)
        channel.writeAndFlush(pending).whenFailure { [link] _ in
            // The write never reached the handler: the channel had closed already.
            let failure = link.failure ?? IMAPClientError.disconnected(reason: "the connection is closed")
            promise.fail(failure)
            idleListener?.refuse(failure)
            idleListener?.end()
        }
        return (tag, promise.futureResult)
    }

    /// Awaits a submitted command's answer and turns NO and BAD into ``IMAPClientError/commandFailed``.
    func finish(_ future: EventLoopFuture<IMAPCommandResponse>, name: String) async throws(IMAPClientError)
        -> IMAPCommandResponse
    {
        let response = try await wait(for: future)
        absorbCapabilities(from: response)
        guard response.completion.status == .ok else {
            throw .commandFailed(
                command: name, status: response.completion.status.rawValue, serverText: response.completion.text)
        }
        return response
    }

    func execute(_ command: IMAPCommand, name: String) async throws(IMAPClientError) -> IMAPCommandResponse {
        try await finish(submit(command, name: name), name: name)
    }

    /// Sends a command and returns its answer whatever the status, for callers that read NO themselves.
    func executeUnchecked(
        _ command: IMAPCommand, name: String, kind: IMAPPendingCommand.Kind, extraParts: [[UInt8]] = []
    ) async throws(IMAPClientError) -> IMAPCommandResponse {
        let response = try await wait(for: submit(command, name: name, kind: kind, extraParts: extraParts))
        absorbCapabilities(from: response)
        return response
    }

    func wait<T: Sendable>(for future: EventLoopFuture<T>) async throws(IMAPClientError) -> T {
        do {
            return try await future.get()
        } catch let error as IMAPClientError {
            throw error
        } catch {
            throw link.failure ?? .disconnected(reason: String(describing: error))
        }
    }

    // MARK: Helpers

    private static func makeTLSContext(for endpoint: IMAPEndpoint) throws(IMAPClientError) -> NIOSSLContext? {
        guard endpoint.security != .none else { return nil }
        do {
            return try NIOSSLContext(configuration: .makeClientConfiguration())
        } catch {
            throw .tlsFailed(host: endpoint.host, port: endpoint.port, reason: String(describing: error))
        }
    }

    private static func tcpOption(_ name: Int32) -> ChannelOptions.Types.SocketOption {
        ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))
    }

    private static func isIPAddress(_ host: String) -> Bool {
        do {
            _ = try SocketAddress(ipAddress: host, port: 0)
            return true
        } catch {
            return false  // Not an address literal: a name.
        }
    }

    /// "Connection refused" rather than NIO's nested error descriptions.
    private static func describeConnectFailure(_ error: any Error, timeouts: IMAPTimeouts) -> String {
        if let error = error as? ChannelError, case .connectTimeout = error {
            return "no connection within \(timeouts.connect.roundedUpSeconds) s"
        }
        if let error = error as? NIOConnectionError {
            if let dnsError = error.dnsAError ?? error.dnsAAAAError {
                return "the name does not resolve (\(dnsError))"
            }
            if let first = error.connectionErrors.first {
                return describeConnectFailure(first.error, timeouts: timeouts)
            }
        }
        if let error = error as? IOError {
            return String(cString: strerror(error.errnoCode))
        }
        return String(describing: error)
    }
}
