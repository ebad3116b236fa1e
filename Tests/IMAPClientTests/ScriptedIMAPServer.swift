import ChatmailTestSupport
import Foundation
import Glibc
import Synchronization

/// A loopback IMAP server that plays a script, for the failures a real server cannot be made to show:
/// garbage, a connection dropped in the middle of a literal, silence, a broken TLS handshake.
///
/// It accepts one connection and runs the script on a thread of its own with blocking sockets, so the
/// tests' cooperative pool never waits on it. ``finish()`` closes the sockets (unblocking a script that
/// waits for the client) and returns what the script threw, if anything.
final class ScriptedIMAPServer: Sendable {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let listener: Int32
    private let connection = Mutex<Int32?>(nil)
    /// What the script threw, described: set before `done` is signalled.
    private let scriptFailure = Mutex<String?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(script: @escaping @Sendable (ScriptedIMAPPeer) throws -> Void) throws {
        let loopback = try LoopbackListener(backlog: 1)
        listener = loopback.descriptor
        port = loopback.port
        Thread { [self] in
            do {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { throw ScriptError.socket("accept", errno) }
                connection.withLock { $0 = client }
                try script(ScriptedIMAPPeer(socket: client))
            } catch {
                scriptFailure.withLock { $0 = String(describing: error) }
            }
            done.signal()
        }.start()
    }

    /// Closes both sockets, waits for the script's thread and rethrows what the script threw.
    func finish() async throws {
        shutdown(listener, Int32(SHUT_RDWR))
        connection.withLock { socket in
            if let socket { shutdown(socket, Int32(SHUT_RDWR)) }
        }
        let failure = try await offThePool { [self] in
            done.wait()
            return scriptFailure.withLock { $0 }
        }
        close(listener)
        connection.withLock { socket in
            if let socket { close(socket) }
            socket = nil
        }
        if let failure { throw ScriptError.unexpected("the script failed: \(failure)") }
    }
}

/// Why a script stopped.
enum ScriptError: Error, CustomStringConvertible {
    case socket(String, Int32)
    case closedByClient
    case unexpected(String)

    var description: String {
        switch self {
        case .socket(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .closedByClient: "the client closed the connection"
        case .unexpected(let text): text
        }
    }
}

/// The server's side of one connection, with blocking reads and writes.
final class ScriptedIMAPPeer {
    private let socket: Int32
    private var buffered: [UInt8] = []

    init(socket: Int32) {
        self.socket = socket
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
            guard written > 0 else { throw ScriptError.socket("send", errno) }
            offset += written
        }
    }

    /// The next line the client sent, without its CRLF.
    func readLine() throws -> String {
        while true {
            if let end = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffered[..<end].filter { $0 != UInt8(ascii: "\r") }
                buffered.removeSubrange(...end)
                return String(decoding: line, as: UTF8.self)
            }
            try fill()
        }
    }

    /// The next command line, split into its tag and the rest.
    func readCommand() throws -> (tag: String, command: String) {
        let line = try readLine()
        guard let space = line.firstIndex(of: " ") else { throw ScriptError.unexpected("not a command: \(line)") }
        return (String(line[..<space]), String(line[line.index(after: space)...]))
    }

    /// Exactly `count` bytes from the client.
    func readBytes(_ count: Int) throws -> [UInt8] {
        while buffered.count < count { try fill() }
        defer { buffered.removeFirst(count) }
        return Array(buffered.prefix(count))
    }

    /// Whatever the client sends next (a TLS ClientHello, say), at least one byte.
    func readSome() throws -> [UInt8] {
        if buffered.isEmpty { try fill() }
        defer { buffered = [] }
        return buffered
    }

    /// Waits until the client closes the connection (or ``ScriptedIMAPServer/finish()`` shuts it down).
    func waitForClose() {
        do {
            while true {
                try fill()
                buffered = []
            }
        } catch {
            // The end of the connection is what this waits for.
        }
    }

    func close() {
        shutdown(socket, Int32(SHUT_RDWR))
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw count == 0 ? ScriptError.closedByClient : ScriptError.socket("recv", errno) }
        buffered += chunk.prefix(count)
    }
}
