import Foundation
import GmailEmulator
import Testing

/// The two reset faults, seen by a real socket client: the connection must end (closed or reset by the
/// server), never be left half-open for the client's time-out to find. The client tells the two apart by
/// how its read ended, not by how long it took, so a busy machine cannot change the verdict.
@Suite struct ConnectionDropTests {
    static let batchBody = Array(
        "--b\r\nContent-Type: application/http\r\nContent-ID: <item-0>\r\n\r\nGET /gmail/v1/users/me/profile\r\n\r\n--b--\r\n"
            .utf8)

    @Test(
        "a reset before the body is read: a raw socket sees the connection end, body unsent",
        arguments: [false, true])
    func rawSocketBeforeBody(batch: Bool) async throws {
        try await withEmulator { h in
            let method = batch ? "batch" : "messages.modify"
            _ = try await h.control(
                "faults", #"{"rules":[{"method":"\#(method)","probability":1,"kind":"dropBeforeBody","count":1}]}"#,
                method: "PUT")
            let path = batch ? "/batch/gmail/v1" : Harness.me + "/messages/0123abcd/modify"
            // Announce a large body but send none of it: only an early reset can end this exchange.
            let head =
                "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Harness.token)\r\nContent-Type: multipart/mixed; boundary=b\r\nContent-Length: 1000000\r\n\r\n"
            let outcome = try await RawSocket.exchange(
                port: h.running.port, send: Array(head.utf8), timeoutSeconds: 120)
            #expect(outcome.end != .timedOut, "the server left the connection open")
            #expect(outcome.response.isEmpty, "no response bytes before a reset")
            let log = await h.running.requestLog.all
            #expect(log.contains { $0.status == 0 && $0.gmailMethod == method }, "\(log)")
        }
    }

    @Test(
        "a drop after the body is read: a raw socket gets a truncated answer and the end of the connection",
        arguments: [false, true])
    func rawSocketAfterBody(batch: Bool) async throws {
        try await withEmulator { h in
            let method = batch ? "batch" : "getProfile"
            _ = try await h.control(
                "faults", #"{"rules":[{"method":"\#(method)","probability":1,"kind":"drop","count":1}]}"#, method: "PUT"
            )
            let path = batch ? "/batch/gmail/v1" : Harness.me + "/profile"
            let body = batch ? Self.batchBody : []
            let head =
                "\(batch ? "POST" : "GET") \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(Harness.token)\r\nContent-Type: multipart/mixed; boundary=b\r\nContent-Length: \(body.count)\r\n\r\n"
            let outcome = try await RawSocket.exchange(
                port: h.running.port, send: Array(head.utf8) + body, timeoutSeconds: 120)
            #expect(outcome.end != .timedOut, "the server left the connection open")
            let text = String(decoding: outcome.response, as: UTF8.self)
            #expect(!text.contains("emailAddress"), "a complete answer: \(text)")
        }
    }
}

/// A blocking TCP client: connect, send, read until the server closes, resets or `timeoutSeconds` pass.
enum RawSocket {
    struct Outcome {
        /// How the exchange ended: by the server (closed or reset) or by our own receive time-out.
        enum End: Equatable {
            case closed
            case reset
            case timedOut
            case failed(errno: Int32)
        }

        var response: [UInt8]
        var end: End
    }

    struct Failure: Error {
        var step: String
        var code: Int32
    }

    /// Runs the blocking exchange on a Dispatch thread: blocking a thread of the cooperative pool (two
    /// threads on a two-core machine) would starve the in-process emulator it is talking to.
    static func exchange(port: Int, send bytes: [UInt8], timeoutSeconds: Int) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try blockingExchange(port: port, send: bytes, timeoutSeconds: timeoutSeconds) })
            }
        }
    }

    private static func blockingExchange(port: Int, send bytes: [UInt8], timeoutSeconds: Int) throws -> Outcome {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(step: "socket", code: errno) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(step: "connect", code: errno) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                response += buffer[0..<count]
                continue
            }
            if count == 0 { return Outcome(response: response, end: .closed) }
            switch errno {
            case EINTR: continue
            case ECONNRESET: return Outcome(response: response, end: .reset)
            case EAGAIN, EWOULDBLOCK: return Outcome(response: response, end: .timedOut)
            case let code: return Outcome(response: response, end: .failed(errno: code))
            }
        }
    }
}
