import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A real SMTP server on 127.0.0.1 for tests: Debian's python3-aiosmtpd, run as a child process with
/// everything it has (its script, certificate, log and the messages it accepted) under one directory.
///
/// It offers PLAIN, LOGIN and, given a token, XOAUTH2; what it does with the next message is switched
/// at run time with ``setBehaviour(_:)``; ``received()`` reads back every message it stored, byte for byte.
///
/// Invariant: the child is killed by ``stop()`` or, at the latest, when this object is released; if the
/// test process dies first, the server notices it lost its parent and exits within a second.
public final class SMTPTestServer: Sendable {
    /// How the server's port is protected.
    public enum Security: String, Sendable, CaseIterable {
        case plain, starttls, tls
    }

    /// SASL mechanisms the server can offer.
    public enum Mechanism: String, Sendable, CaseIterable {
        case plain = "PLAIN"
        case login = "LOGIN"
        case xoauth2 = "XOAUTH2"
    }

    /// What the server does with the messages that follow.
    public enum Behaviour: Sendable, Hashable {
        /// 250, after storing the message.
        case accept
        /// 554 5.7.1 to the end of data, naming "the test server refuses this message"; nothing stored.
        case refuse
        /// 451 4.3.0 to the end of data; nothing stored.
        case tempfail
        /// Stores the message, then drops the connection without answering the end of data.
        case dropAfterData
        /// 550 5.1.1 to RCPT TO of this one address; the others are accepted.
        case refuseRecipient(String)
    }

    /// One stored message: its envelope and its exact bytes (dot-stuffing undone).
    public struct Message: Sendable, Hashable {
        public let from: String
        public let recipients: [String]
        public let raw: [UInt8]
    }

    static let python = "/usr/bin/python3"

    public let host = "127.0.0.1"
    public let port: Int
    /// The self-signed certificate of a TLS or STARTTLS server, to trust as its CA; nil when plain.
    public let certificatePath: String?
    public let directory: URL
    private let child: Mutex<pid_t?>

    private init(port: Int, certificatePath: String?, directory: URL, pid: pid_t) {
        self.port = port
        self.certificatePath = certificatePath
        self.directory = directory
        child = Mutex(pid)
    }

    deinit { stop() }

    /// Whether Debian's python3 can import aiosmtpd (`scripts/install-deps` installs it).
    public static var isAvailable: Bool {
        get async {
            // A python3 that cannot even be started has no aiosmtpd either.
            let status = try? await offThePool {
                let pid = try ChildProcess.spawn(
                    [python, "-c", "import aiosmtpd.smtp"], output: "/dev/null", errors: "/dev/null")
                return ChildProcess.waitForExit(pid)
            }
            return status == 0
        }
    }

    /// Starts a server in `directory` (created if needed; a directory used before keeps its received
    /// messages and its behaviour) and returns once it listens.
    ///
    /// - Parameters:
    ///   - requireAuthentication: MAIL FROM before a login gets 530.
    ///   - port: 0 for a free port, or one to take again (a server stopped and started on the same port).
    public static func start(
        security: Security = .plain, user: String = "me@example.org", password: String = "secret",
        token: String? = nil, mechanisms: [Mechanism] = Mechanism.allCases, requireAuthentication: Bool = true,
        port: Int = 0, in directory: URL
    ) async throws(SMTPTestServerError) -> SMTPTestServer {
        let script = directory.appendingPathComponent("smtp-test-server.py")
        let output = directory.appendingPathComponent("server.out")
        let log = directory.appendingPathComponent("server.log")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(smtpTestServerScript.utf8).write(to: script)
            try Data().write(to: output)
        } catch {
            throw .fileSystem("cannot prepare \(directory.path): \(error)")
        }
        var arguments = [
            python, script.path, "--directory", directory.path, "--security", security.rawValue, "--user", user,
            "--password", password, "--mechanisms", mechanisms.map(\.rawValue).joined(separator: ","),
            "--port", String(port),
        ]
        if let token { arguments += ["--token", token] }
        if requireAuthentication { arguments.append("--require-auth") }
        let pid: pid_t
        do { pid = try ChildProcess.spawn(arguments, output: output.path, errors: log.path, appending: true) } catch {
            throw .startFailed(reason: "cannot run \(python): \(error)", log: "")
        }
        let certificatePath = security == .plain ? nil : directory.appendingPathComponent("certificate.pem").path
        // A bound for a broken run only: the server is ready in well under a second.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            let said = (try? String(contentsOf: output, encoding: .utf8)) ?? ""  // not written yet: nothing said
            if let line = said.split(separator: "\n").first(where: { $0.hasPrefix("READY ") }),
                let bound = Int(line.dropFirst("READY ".count))
            {
                return SMTPTestServer(port: bound, certificatePath: certificatePath, directory: directory, pid: pid)
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let tail = fileTail(log)
                if tail.contains("No module named 'aiosmtpd'") { throw .notInstalled }
                throw .startFailed(
                    reason: "the server exited with status \(ChildProcess.exitStatus(status))", log: tail)
            }
            do { try await Task.sleep(for: .milliseconds(20)) } catch {
                kill(andReap: pid)
                throw .startFailed(reason: "cancelled while starting", log: "")
            }
        }
        kill(andReap: pid)
        throw .startFailed(reason: "no READY line within 60 s", log: fileTail(log))
    }

    /// What the server does with the messages that follow (until the next call).
    public func setBehaviour(_ behaviour: Behaviour) throws(SMTPTestServerError) {
        let text =
            switch behaviour {
            case .accept: "accept"
            case .refuse: "refuse"
            case .tempfail: "tempfail"
            case .dropAfterData: "dropAfterData"
            case .refuseRecipient(let address): "refuseRecipient\n\(address)"
            }
        let file = directory.appendingPathComponent("behaviour")
        do { try Data(text.utf8).write(to: file, options: .atomic) } catch {
            throw .fileSystem("cannot write \(file.path): \(error)")
        }
    }

    /// Every message stored so far, in the order the server accepted them.
    public func received() throws(SMTPTestServerError) -> [Message] {
        let folder = directory.appendingPathComponent("received")
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            throw .fileSystem("cannot list \(folder.path): \(error)")
        }
        return try names.filter { $0.hasSuffix(".json") }.sorted().map { name throws(SMTPTestServerError) in
            let file = folder.appendingPathComponent(name)
            do {
                let stored = try JSONDecoder().decode(StoredMessage.self, from: Data(contentsOf: file))
                guard let raw = Data(base64Encoded: stored.data) else {
                    throw SMTPTestServerError.fileSystem("\(file.path) holds no base64 message")
                }
                return Message(from: stored.from, recipients: stored.recipients, raw: Array(raw))
            } catch let error as SMTPTestServerError {
                throw error
            } catch {
                throw .fileSystem("cannot read \(file.path): \(error)")
            }
        }
    }

    /// The end of the server's log, for failure messages.
    public var log: String { fileTail(directory.appendingPathComponent("server.log")) }

    /// Kills the server (SIGKILL: it keeps nothing unwritten) and returns at once; the child is reaped on
    /// a thread of its own. Does nothing once stopped.
    public func stop() {
        guard
            let pid = child.withLock({ pid in
                defer { pid = nil }
                return pid
            })
        else { return }
        Self.kill(andReap: pid)
    }

    /// Kills the server and returns once it has exited, so its port is free to listen on again.
    public func stopAndWait() async {
        guard
            let pid = child.withLock({ pid in
                defer { pid = nil }
                return pid
            })
        else { return }
        _ = Glibc.kill(pid, SIGKILL)
        // waitForExit itself cannot fail; a thread that could not start would leave only a zombie.
        _ = try? await offThePool { ChildProcess.waitForExit(pid) }
    }

    private struct StoredMessage: Decodable {
        var from: String
        var recipients: [String]
        var data: String
    }
}

/// Why a test SMTP server could not start or be read.
public enum SMTPTestServerError: Error, CustomStringConvertible {
    case notInstalled
    case startFailed(reason: String, log: String)
    case fileSystem(String)

    public var description: String {
        switch self {
        case .notInstalled: "python3-aiosmtpd is not installed for \(SMTPTestServer.python): run scripts/install-deps"
        case .startFailed(let reason, let log): "the test SMTP server did not start: \(reason)\n\(log)"
        case .fileSystem(let reason): reason
        }
    }
}

extension SMTPTestServer {
    /// SIGKILL, and the child reaped on a thread of its own.
    fileprivate static func kill(andReap pid: pid_t) {
        _ = Glibc.kill(pid, SIGKILL)
        Thread.detachNewThread { _ = ChildProcess.waitForExit(pid) }
    }
}

/// The last `limit` bytes of a file as text; empty when it does not exist.
private func fileTail(_ url: URL, limit: Int = 4096) -> String {
    guard let handle = FileHandle(forReadingAtPath: url.path) else { return "" }
    defer { handle.closeFile() }
    let size = handle.seekToEndOfFile()
    handle.seek(toFileOffset: size > UInt64(limit) ? size - UInt64(limit) : 0)
    return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
}
