import ChatmailTestSupport
import DovecotLauncher
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A minimal blocking IMAP conversation over a plain socket: send a tagged command, read lines up to its
/// tagged answer. Deliberately independent of the project's IMAP client, which these tests must not
/// rely on. Blocking: use it inside ``offThePool(_:)``.
final class IMAPProbe {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The server's first line, `* OK ...`.
    private(set) var greeting = ""
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var nextTag = 1

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed") }
        // Bounds a broken run only: a healthy server answers in milliseconds.
        var limit = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port)).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(description: "cannot connect to 127.0.0.1:\(port)")
        }
        guard let line = try readLine() else { throw Failure(description: "no greeting") }
        greeting = line
    }

    deinit { close(descriptor) }

    /// Sends `command` with a fresh tag and returns every line up to and including the tagged one. With
    /// `answeringContinuations`, each `+` line is answered with an empty line, as a SASL client that has
    /// nothing more to say does (a failed XOAUTH2 sends its error as such a challenge).
    func run(_ command: String, answeringContinuations: Bool = false) throws -> [String] {
        let tag = "a\(nextTag)"
        nextTag += 1
        try send("\(tag) \(command)\r\n")
        var lines: [String] = []
        while let line = try readLine() {
            lines.append(line)
            if line.hasPrefix(tag + " ") { return lines }
            if answeringContinuations && line.hasPrefix("+") { try send("\r\n") }
        }
        throw Failure(description: "the connection closed before \(tag) was answered; got \(lines)")
    }

    /// The tagged answer's status word (`OK`, `NO`, `BAD`) of `lines` from ``run(_:)``.
    static func status(_ lines: [String]) -> String {
        lines.last.map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "" } ?? ""
    }

    func login(_ user: String, _ password: String) throws -> [String] {
        try run("LOGIN \"\(user)\" \"\(password)\"")
    }

    /// Whether the server has closed the connection: true once a read returns end-of-file.
    func isClosedByServer() throws -> Bool {
        var byte: UInt8 = 0
        return read(descriptor, &byte, 1) == 0
    }

    private func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + sent, $0.count - sent) }
            guard written > 0 else { throw Failure(description: "write failed") }
            sent += written
        }
    }

    /// One line without its CRLF, or nil at end of stream.
    private func readLine() throws -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == 0x0D { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 8192)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return nil }
            guard count > 0 else { throw Failure(description: "read failed: \(String(cString: strerror(errno)))") }
            buffer += chunk[..<count]
        }
    }
}

/// Starts a server in a scratch directory of its own, runs `body` with it on a thread off the pool, and
/// stops it and removes the directory however `body` ends.
func withDovecot<T: Sendable>(
    _ configuration: DovecotConfiguration = DovecotConfiguration(),
    _ body: @escaping @Sendable (DovecotServer) throws -> T
) async throws -> T {
    try await offThePool {
        let directory = try scratchDirectory("dovecot")
        defer { try? FileManager.default.removeItem(at: directory) }  // best-effort cleanup
        let server = try DovecotServer.start(in: directory, configuration: configuration)
        do {
            let result = try body(server)
            try server.stop()
            return result
        } catch {
            // The log says what the server thought of it; stopping must not hide the original error.
            let log = server.logTail
            do { try server.stop() } catch {}
            throw IMAPProbe.Failure(description: "\(error)\n--- dovecot log ---\n\(log)")
        }
    }
}

/// A small RFC 5322 message whose subject is `subject`.
func message(subject: String) -> [UInt8] {
    Array(
        """
        From: Bob <bob@example.org>\r
        To: Alice <alice@example.org>\r
        Subject: \(subject)\r
        Message-ID: <\(UUID().uuidString)@example.org>\r
        Date: Mon, 02 Jun 2025 10:00:00 +0000\r
        \r
        Hello, \(subject).\r

        """.utf8)
}

/// The number in `* N EXISTS` among `lines`.
func existsCount(_ lines: [String]) -> Int? {
    lines.lazy.compactMap { line -> Int? in
        let words = line.split(separator: " ")
        guard words.count == 3, words[0] == "*", words[2] == "EXISTS" else { return nil }
        return Int(words[1])
    }.first
}

/// The value of `[UIDVALIDITY N]` among `lines`.
func uidValidity(_ lines: [String]) -> UInt32? {
    for line in lines {
        guard let range = line.range(of: "[UIDVALIDITY ") else { continue }
        return UInt32(line[range.upperBound...].prefix { $0.isNumber })
    }
    return nil
}
