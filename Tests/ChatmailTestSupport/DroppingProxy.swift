import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP forwarder on 127.0.0.1 to a target server that can cut connections short: once it has
/// forwarded ``cutAfter`` bytes from the server on one connection, it closes both sides, as a network
/// that drops in the middle of a response would.
///
/// Plain blocking sockets on threads of its own (one accepting, two per connection), so it never touches
/// the cooperative pool. Invariant: every socket it opened is closed by ``stop()`` at the latest, and
/// no connection forwards a byte past its limit.
public final class DroppingProxy: Sendable {
    /// The port clients connect to.
    public let port: Int
    private let listener: Int32
    private let state: Shared
    private let finished = DispatchSemaphore(value: 0)

    /// How many bytes from the server each new connection forwards before it is cut; nil forwards all.
    /// A change applies to connections accepted afterwards.
    public var cutAfter: Int? {
        get { state.withLock { $0.cutAfter } }
        set { state.withLock { $0.cutAfter = newValue } }
    }

    /// What a cut does: close both sides (a dropped network), first send the client some bytes of the
    /// proxy's own (a server that answers garbage or says BYE), or stop forwarding and hold the connection
    /// open until ``stop()`` (a server that never answers). A change applies to connections accepted afterwards.
    public enum CutAction: Sendable {
        case close
        case send([UInt8])
        case fallSilent
    }

    public var cutAction: CutAction {
        get { state.withLock { $0.cutAction } }
        set { state.withLock { $0.cutAction = newValue } }
    }

    /// Bytes that, once a client has sent them, silence the server on that connection: they and all
    /// the client sends still reach the server, but nothing the server answers reaches the client. A
    /// command that ran on the server while its answer was lost. Applies to connections accepted afterwards.
    public var silenceAfterClientSends: [UInt8]? {
        get { state.withLock { $0.silenceTrigger } }
        set { state.withLock { $0.silenceTrigger = newValue } }
    }

    /// How many connections were cut so far.
    public var cutCount: Int { state.withLock { $0.cuts } }

    /// How many bytes from the server were forwarded so far, over every connection.
    public var forwardedFromServer: Int { state.withLock { $0.forwardedFromServer } }

    /// Listens on a free loopback port and forwards every connection to `targetHost:targetPort`.
    public init(targetHost: String, targetPort: Int, cutAfter: Int? = nil) throws(DroppingProxyError) {
        let loopback: LoopbackListener
        do { loopback = try LoopbackListener() } catch { throw .socket(error.reason) }
        listener = loopback.descriptor
        port = loopback.port
        state = Shared(cutAfter: cutAfter)
        let target = Target(host: targetHost, port: targetPort)
        Thread.detachNewThread { [listener, state, finished] in
            defer { finished.signal() }
            Self.acceptLoop(listener: listener, target: target, state: state)
        }
    }

    deinit { stop() }

    /// Stops accepting, closes every open connection and the port; returns once the accepting thread
    /// has ended. Idempotent.
    public func stop() {
        let first = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            // Shutting down wakes the pumps blocked in read, and the last pump of each connection closes
            // its descriptors. Under the lock: a pump removes its descriptors before closing them, so
            // none listed here can have been closed and reused by another connection.
            for descriptor in state.open { shutdown(descriptor, Int32(SHUT_RDWR)) }
            return true
        }
        guard first else { return }
        finished.wait()
        close(listener)
    }

    private struct Target: Sendable {
        var host: String
        var port: Int
    }

    private static func acceptLoop(listener: Int32, target: Target, state: Shared) {
        while !state.withLock({ $0.stopped }) {
            // A short poll, so `stop()` is noticed without closing a descriptor this thread waits on.
            var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let server = connectTo(target)
            guard server >= 0 else {
                close(client)
                continue
            }
            let (accepted, limit, action, trigger) = state.withLock { state -> (Bool, Int?, CutAction, [UInt8]?) in
                guard !state.stopped else { return (false, nil, .close, nil) }
                state.open.formUnion([client, server])
                return (true, state.cutAfter, state.cutAction, state.silenceTrigger)
            }
            guard accepted else {
                close(client)
                close(server)
                continue
            }
            let connection = Connection(client: client, server: server, state: state, silenceTrigger: trigger)
            Thread.detachNewThread {
                connection.pump(from: server, to: client, limit: limit, fromServer: true, action: action)
            }
            Thread.detachNewThread { connection.pump(from: client, to: server, limit: nil, fromServer: false) }
        }
    }

    private static func connectTo(_ target: Target) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(target.port)).bigEndian
        guard inet_pton(AF_INET, target.host, &address.sin_addr) == 1 else {
            close(descriptor)
            return -1
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    /// One forwarded connection: the first pump to end shuts both sockets down, so the other ends too,
    /// and the last one closes them.
    private final class Connection: @unchecked Sendable {
        let client: Int32
        let server: Int32
        let state: Shared
        let silenceTrigger: [UInt8]?
        private let lock = NSLock()
        private var pumpsLeft = 2
        /// Set (under `lock`) by the client's pump before it forwards the trigger to the server.
        private var silenced = false
        /// The client's last bytes, so a trigger split across two reads is still seen.
        private var clientTail: [UInt8] = []

        init(client: Int32, server: Int32, state: Shared, silenceTrigger: [UInt8]?) {
            self.client = client
            self.server = server
            self.state = state
            self.silenceTrigger = silenceTrigger
        }

        /// Notes the client's bytes, and silences the server once they complete the trigger.
        private func noteClientBytes(_ bytes: ArraySlice<UInt8>) {
            guard let trigger = silenceTrigger else { return }
            lock.withLock {
                guard !silenced else { return }
                let window = clientTail + bytes
                if window.count >= trigger.count,
                    (0...(window.count - trigger.count)).contains(where: {
                        window[$0..<($0 + trigger.count)].elementsEqual(trigger)
                    })
                {
                    silenced = true
                    state.withLock { $0.cuts += 1 }
                }
                clientTail = Array(window.suffix(trigger.count))
            }
        }

        private var isSilenced: Bool { lock.withLock { silenced } }

        func pump(from source: Int32, to destination: Int32, limit: Int?, fromServer: Bool, action: CutAction = .close)
        {
            var forwarded = 0
            var buffer = [UInt8](repeating: 0, count: 16_384)
            var cut = false
            while true {
                var wanted = buffer.count
                if let limit {
                    if forwarded >= limit {
                        cut = true
                        break
                    }
                    wanted = min(wanted, limit - forwarded)
                }
                let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, wanted) }
                guard count > 0 else { break }
                if fromServer, isSilenced {
                    // The answer is lost: hold the connection, forwarding nothing, until the proxy stops.
                    while !state.withLock({ $0.stopped }) { usleep(20_000) }
                    break
                }
                if !fromServer { noteClientBytes(buffer[..<count]) }
                guard writeAll(buffer, count: count, to: destination) else { break }
                forwarded += count
                if fromServer { state.withLock { $0.forwardedFromServer += count } }
            }
            if cut {
                state.withLock { $0.cuts += 1 }
                switch action {
                case .close: break
                case .send(let bytes): _ = writeAll(bytes, count: bytes.count, to: destination)
                case .fallSilent:
                    // Holds the connection, forwarding nothing, until the proxy stops (which shuts it down).
                    while !state.withLock({ $0.stopped }) { usleep(20_000) }
                }
            }
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
            let last = lock.withLock {
                pumpsLeft -= 1
                return pumpsLeft == 0
            }
            guard last else { return }
            state.withLock { $0.open.subtract([client, server]) }
            close(client)
            close(server)
        }

        /// No SIGPIPE when the other side is gone: that would end the whole test process.
        private func writeAll(_ bytes: [UInt8], count: Int, to destination: Int32) -> Bool {
            var sent = 0
            while sent < count {
                let written = bytes.withUnsafeBytes {
                    send(destination, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                }
                if written <= 0 { return false }
                sent += written
            }
            return true
        }
    }

    /// What the threads and the test share.
    private final class Shared: @unchecked Sendable {
        struct State {
            var stopped = false
            var cutAfter: Int?
            var cutAction = CutAction.close
            var silenceTrigger: [UInt8]?
            var cuts = 0
            var forwardedFromServer = 0
            var open: Set<Int32> = []
        }
        private let lock = NSLock()
        private var state: State

        init(cutAfter: Int?) { state = State(cutAfter: cutAfter) }

        func withLock<T>(_ body: (inout State) -> T) -> T { lock.withLock { body(&state) } }
    }
}

/// Why the proxy could not listen.
public enum DroppingProxyError: Error, LocalizedError {
    case socket(String)

    public var errorDescription: String? {
        switch self {
        case .socket(let reason): "the dropping proxy cannot listen on 127.0.0.1: \(reason)"
        }
    }
}
