import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one-shot HTTP listener on 127.0.0.1 that receives Google's redirect.
///
/// Binds port 0 so the OS picks a free port; the redirect URI is `http://127.0.0.1:<port>`. Waiting
/// runs on a dedicated thread with `poll()` timeouts, never on the cooperative pool. It answers every
/// request with a small HTML page, ignores requests without OAuth parameters (e.g. `/favicon.ico`),
/// and rejects a redirect whose `state` is not this login's.
public final class LoopbackReceiver: Sendable {
    /// The port the OS chose.
    public let port: UInt16
    private let socketFD: Int32

    /// Binds and listens on 127.0.0.1 with an OS-chosen port.
    /// - Throws: `.loopback` when the socket cannot be created or bound.
    public init() throws(LoginFlowError) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw .loopback(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let code = errno
            close(fd)
            throw .loopback(description: "bind/listen on 127.0.0.1 failed: errno \(code)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw .loopback(description: "getsockname failed: errno \(errno)")
        }
        self.socketFD = fd
        self.port = UInt16(bigEndian: actual.sin_port)
    }

    deinit {
        close(socketFD)
    }

    /// The redirect URI to put in the authorization URL and the code exchange.
    public var redirectURI: String { "http://127.0.0.1:\(port)" }

    /// Starts answering on a thread of its own, at once, and returns the wait for the authorization code.
    ///
    /// Serving does not wait for the caller's task to be scheduled: a browser that follows the URL the
    /// moment it is shown is answered however busy the caller's executor is.
    /// - Parameter timeoutSeconds: how long to wait for the redirect, from now.
    public func startServing(expectedState: String, timeoutSeconds: Int = 300) -> PendingAuthorizationCode {
        let pending = PendingAuthorizationCode()
        // The thread holds `self`, so the socket stays open until it is done.
        let thread = Thread {
            pending.finish(Self.serve(fd: self.socketFD, expectedState: expectedState, timeoutSeconds: timeoutSeconds))
        }
        thread.name = "chatmail-oauth-loopback"
        thread.start()
        return pending
    }

    /// Waits for the browser's redirect and returns the authorization code.
    /// - Throws: `.stateMismatch` for a foreign `state`, `.authorizationDenied` for `error=...`,
    ///   `.loginTimedOut` when nothing arrives within `timeoutSeconds`.
    public func waitForCode(expectedState: String, timeoutSeconds: Int = 300) async throws(LoginFlowError) -> String {
        try await startServing(expectedState: expectedState, timeoutSeconds: timeoutSeconds).code()
    }

    /// Accepts connections until one carries OAuth parameters or the deadline passes. Blocking: thread only.
    private static func serve(fd: Int32, expectedState: String, timeoutSeconds: Int) -> Result<String, LoginFlowError> {
        let deadline = Date().addingTimeInterval(TimeInterval(timeoutSeconds))
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return .failure(.loginTimedOut) }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pollFD, 1, Int32(min(remaining * 1000, 1000)))
            if ready < 0 && errno != EINTR { return .failure(.loopback(description: "poll failed: errno \(errno)")) }
            if ready <= 0 { continue }
            if pollFD.revents & Int16(POLLNVAL | POLLERR) != 0 {
                return .failure(.loopback(description: "the listening socket closed"))
            }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            defer { close(client) }
            // A browser that connects but never sends must not hang the login.
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            guard let target = readRequestTarget(client) else { continue }
            switch LoopbackRedirect.interpret(target: target, expectedState: expectedState) {
            case .ignore:
                respond(client, status: "404 Not Found", text: "Nothing here.")
            case .code(let code):
                respond(client, status: "200 OK", text: "chatmail is signed in. You can close this tab.")
                return .success(code)
            case .failure(let error):
                respond(
                    client, status: "400 Bad Request",
                    text: "chatmail sign-in failed: \(error.errorDescription ?? "error")")
                return .failure(error)
            }
        }
    }

    /// Reads the request head and returns the request target of `GET <target> HTTP/1.1`.
    private static func readRequestTarget(_ client: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 16_384 {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received.append(contentsOf: buffer[0..<count])
            // The request line is all we need; stop at the end of the head (or the first line break).
            if received.contains(10) { break }
        }
        let head = String(decoding: received, as: UTF8.self)
        guard
            let line = head.split(separator: "\r\n", maxSplits: 1).first
                ?? head.split(separator: "\n", maxSplits: 1).first
        else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0] == "GET" else { return nil }
        return String(parts[1])
    }

    private static func respond(_ client: Int32, status: String, text: String) {
        let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        let html =
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>chatmail</title></head><body><p>\(escaped)</p></body></html>"
        let body = Array(html.utf8)
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }
}

/// Interprets the redirect's request target; pure, so its rules are unit-tested without sockets.
enum LoopbackRedirect: Equatable {
    /// Not an OAuth redirect (favicon, probe): answer and keep waiting.
    case ignore
    case code(String)
    case failure(LoginFlowError)

    static func interpret(target: String, expectedState: String) -> LoopbackRedirect {
        guard let questionMark = target.firstIndex(of: "?") else { return .ignore }
        let items = FormEncoding.decode(target[target.index(after: questionMark)...])
        func value(_ name: String) -> String? { items.first { $0.0 == name }?.1 }
        let code = value("code")
        let error = value("error")
        guard code != nil || error != nil else { return .ignore }
        // State first: a forged redirect must not even report its error text.
        guard value("state") == expectedState else { return .failure(.stateMismatch) }
        if let error { return .failure(.authorizationDenied(reason: error)) }
        guard let code, !code.isEmpty else { return .failure(.authorizationDenied(reason: "no code")) }
        return .code(code)
    }
}

/// The outcome a ``LoopbackReceiver`` is serving for: set once by its thread, awaited by any number of
/// callers, before or after it is set.
public final class PendingAuthorizationCode: Sendable {
    private typealias Outcome = Result<String, LoginFlowError>

    private enum State {
        case waiting([CheckedContinuation<Outcome, Never>])
        case finished(Outcome)
    }

    private let state = Mutex(State.waiting([]))

    init() {}

    /// The authorization code, once the browser's redirect has arrived.
    /// - Throws: `.stateMismatch`, `.authorizationDenied`, `.loginTimedOut` or `.loopback`, as the
    ///   receiver found.
    public func code() async throws(LoginFlowError) -> String {
        let outcome: Outcome = await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Outcome? in
                switch state {
                case .finished(let outcome): return outcome
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return nil
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try outcome.get()
    }

    /// Records the outcome and wakes every waiter; only the first call counts.
    func finish(_ outcome: Result<String, LoginFlowError>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .finished(outcome)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}
