import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A tiny OAuth token introspection endpoint (RFC 7662) on 127.0.0.1, for a test Dovecot's oauth2
/// passdb: every POST whose form names `acceptedToken` is answered `{"active":"true","email":USER}`,
/// any other `{"active":"false"}`.
///
/// Plain blocking sockets on a thread of its own, one connection at a time (`Connection: close`), so it
/// needs no event loop and never touches the cooperative pool.
public final class IntrospectionEndpoint: Sendable {
    /// Where to POST, such as `http://127.0.0.1:PORT/introspect`.
    public let url: URL
    private let listener: Int32
    private let state: Mutex
    private let finished = DispatchSemaphore(value: 0)

    /// The tokens asked about so far, oldest first.
    public var receivedTokens: [String] { state.withLock { $0.tokens } }

    public init(acceptedToken: String, user: String) throws(IntrospectionEndpointError) {
        let loopback: LoopbackListener
        do { loopback = try LoopbackListener() } catch { throw .socket(error.reason) }
        listener = loopback.descriptor
        let port = loopback.port
        url = URL(string: "http://127.0.0.1:\(port)/introspect")!
        state = Mutex()
        let accepted = Array(acceptedToken.utf8)
        let answer = #"{"active":"true","email":"\#(user)"}"#
        Thread.detachNewThread { [listener, state, finished] in
            defer { finished.signal() }
            Self.serve(listener: listener, state: state, acceptedToken: accepted, activeAnswer: answer)
        }
    }

    deinit { stop() }

    /// Stops answering and closes the port; returns once the serving thread has ended. Idempotent.
    public func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        finished.wait()
        close(listener)
    }

    private static func serve(listener: Int32, state: Mutex, acceptedToken: [UInt8], activeAnswer: String) {
        while !state.withLock({ $0.stopped }) {
            // A short poll, so `stop()` is noticed without closing a descriptor another thread waits on.
            var waiting = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let token = readFormToken(connection)
            if let token { state.withLock { $0.tokens.append(String(decoding: token, as: UTF8.self)) } }
            let body = token == acceptedToken ? activeAnswer : #"{"active":"false"}"#
            let response =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(body)"
            let bytes = Array(response.utf8)
            var sent = 0
            while sent < bytes.count {
                let written = bytes.withUnsafeBytes { write(connection, $0.baseAddress! + sent, $0.count - sent) }
                if written <= 0 { break }
                sent += written
            }
            close(connection)
        }
    }

    /// Reads one request (headers, then `Content-Length` bytes of body) and returns its form's `token`,
    /// percent-decoded; nil for a request without one.
    private static func readFormToken(_ connection: Int32) -> [UInt8]? {
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var bodyStart: Int?
        var bodyLength = 0
        while request.count < 1 << 20 {
            if let start = bodyStart, request.count - start >= bodyLength { break }
            let count = chunk.withUnsafeMutableBytes { read(connection, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            request += chunk[..<count]
            if bodyStart == nil, let end = headerEnd(request) {
                bodyStart = end
                let headers = String(decoding: request[..<end], as: UTF8.self).lowercased()
                for line in headers.split(separator: "\r\n") where line.hasPrefix("content-length:") {
                    bodyLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        guard let start = bodyStart else { return nil }
        let body = String(decoding: request[start...].prefix(bodyLength), as: UTF8.self)
        for pair in body.split(separator: "&") where pair.hasPrefix("token=") {
            let value = pair.dropFirst("token=".count).replacingOccurrences(of: "+", with: " ")
            return Array((value.removingPercentEncoding ?? value).utf8)
        }
        return nil
    }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    /// What the serving thread and the test share.
    private final class Mutex: @unchecked Sendable {
        struct State {
            var stopped = false
            var tokens: [String] = []
        }
        private let lock = NSLock()
        private var state = State()

        func withLock<T>(_ body: (inout State) -> T) -> T { lock.withLock { body(&state) } }
    }
}

/// Why the introspection endpoint could not listen.
public enum IntrospectionEndpointError: Error, LocalizedError {
    case socket(String)

    public var errorDescription: String? {
        switch self {
        case .socket(let reason): "the introspection endpoint cannot listen on 127.0.0.1: \(reason)"
        }
    }
}
