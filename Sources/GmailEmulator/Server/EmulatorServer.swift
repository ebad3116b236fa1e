import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Starts the emulator on a real socket.
///
/// Binds `host:port` (port 0 = OS-chosen), waits for Hummingbird's `onServerRunning` to learn the
/// real port — no sleeps — and returns a handle whose `shutdown()` stops it gracefully. Requests are
/// served on threads of the emulator's own (``EmulatorExecutor``), not on its host's cooperative pool.
public enum EmulatorServer {
    public static func start(_ configuration: EmulatorConfiguration) async throws -> RunningEmulator {
        let mailbox = MailboxState(
            account: configuration.account, seed: configuration.seed,
            historyRetention: configuration.historyRetention, aliases: configuration.aliases)
        try await MailboxLoader.load(configuration.mailbox, into: mailbox, seed: configuration.seed)
        let oauth = OAuthServer(settings: configuration.oauth, seed: configuration.seed)
        if let journalPath = configuration.journalPath {
            try await MailboxJournal(path: journalPath).replay(into: mailbox, oauth: oauth)
        }
        let base = BaseURLBox()
        let core = EmulatorCore(
            mailbox: mailbox, oauth: oauth,
            faults: FaultInjector(seed: configuration.seed),
            quota: QuotaLedger(unitsPerSecond: configuration.quotaUnitsPerSecond, clock: configuration.quotaClock),
            log: RequestLog(), inlineLimit: configuration.inlineBodyLimit, baseURL: { base.value })

        var logger = Logger(label: "gmail-emulator")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let responder = CallbackResponder<ConnectionContext> { request, context in
            try await HummingbirdAdapter.respond(to: request, channel: context.channel, core: core)
        }
        let app = Application(
            responder: responder,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        // The server and every task it starts (one per connection) run on the emulator's own threads.
        let executor = EmulatorExecutor()
        let task = Task(executorPreference: executor) {
            defer {
                continuation.finish()
                executor.stop()
            }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            _ = try await task.value
            throw EmulatorError.couldNotBind(host: configuration.host, port: configuration.port)
        }
        let url = "http://\(configuration.host):\(port)"
        base.set(url)
        return RunningEmulator(baseURL: url, port: port, core: core, group: group, task: task)
    }
}

/// Errors of starting the emulator.
public enum EmulatorError: Error, Sendable, LocalizedError {
    case couldNotBind(host: String, port: Int)
    case unreadableMailbox(path: String)

    public var errorDescription: String? {
        switch self {
        case .couldNotBind(let host, let port):
            "cannot listen on \(host):\(port); choose another --port (0 picks a free one)"
        case .unreadableMailbox(let path):
            "cannot read a mailbox at \(path); pass a directory of .eml files or an mbox file"
        }
    }
}

/// A running emulator: its base URL, in-process access to its state, and graceful shutdown.
public struct RunningEmulator: Sendable {
    /// `http://127.0.0.1:<port>`, no trailing slash: prefix of `/gmail/v1/...`, `/token`, `/_emulator/...`.
    public let baseURL: String
    public let port: Int
    let core: EmulatorCore
    let group: ServiceGroup
    let task: Task<Void, any Error>

    public var mailbox: MailboxState { core.mailbox }
    public var faults: FaultInjector { core.faults }
    public var quota: QuotaLedger { core.quota }
    public var oauth: OAuthServer { core.oauth }
    public var requestLog: RequestLog { core.log }

    /// Stops accepting connections, lets in-flight requests finish, and waits for the server to end.
    public func shutdown() async {
        // A held request would keep the graceful shutdown waiting for ever.
        _ = await faults.releaseHeld()
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    /// Waits until the server stops (the CLI's serve loop).
    public func waitUntilStopped() async throws {
        try await task.value
    }
}

/// The base URL, known only once the socket is bound (the OpenID document embeds it).
final class BaseURLBox: @unchecked Sendable {
    private let lock = NSLock()
    private var url = ""
    var value: String { lock.withLock { url } }
    func set(_ value: String) { lock.withLock { url = value } }
}

/// A request context that keeps the connection, so a fault can reset it.
struct ConnectionContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Converts between Hummingbird's request/response and the emulator's plain values.
enum HummingbirdAdapter {
    struct DroppedConnection: Error {}

    static func respond(to request: Request, channel: any Channel, core: EmulatorCore) async throws -> Response {
        if await core.dropsBeforeBody(method: request.method.rawValue, target: request.head.path ?? "/") {
            // The body stays unread, as when a server or proxy dies mid-upload.
            try await reset(channel)
        }
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let buffer = try await request.body.collect(upTo: 64 << 20)
        let emulatorRequest = EmulatorRequest(
            method: request.method.rawValue, target: request.head.path ?? "/",
            headers: headers, body: Array(buffer.readableBytesView))
        let response = await core.handle(emulatorRequest)
        if response.resetConnection { try await reset(channel) }
        if response.dropConnection {
            // Cut off mid-answer: a status line and a few body bytes, then the connection closes. Bytes
            // arrived, so no client can mistake this for a stale kept-alive connection and quietly
            // re-send; it must report the truncated reply.
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(contentLength: 64) { writer in
                    try await writer.write(ByteBuffer(string: "{\"emailAdd"))
                    throw DroppedConnection()
                })
        }
        var fields = HTTPFields()
        for (name, value) in response.headers {
            if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
        }
        return Response(
            status: HTTPResponse.Status(code: response.status), headers: fields,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
    }

    /// Aborts the connection with a TCP reset (SO_LINGER 0, then close) before any byte of a response, so
    /// the client sees "connection reset by peer" at once, never a half-open socket. Throws so that no
    /// response is written; Hummingbird's attempt to answer the thrown error fails on the closed channel.
    /// A client that sent this request on a reused connection may re-send it on a new one.
    private static func reset(_ channel: any Channel) async throws -> Never {
        if let sockets = channel as? any SocketOptionProvider {
            try? await sockets.setSoLinger(linger(l_onoff: 1, l_linger: 0)).get()
        }
        try? await channel.close()
        throw DroppedConnection()
    }
}
