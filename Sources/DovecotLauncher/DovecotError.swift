import Foundation

/// Why a test Dovecot did not do what it was asked. Every case carries enough of Dovecot's own words
/// (its log tail, a command's stderr) for a failing test to explain itself.
public enum DovecotError: Error, Sendable, Equatable, LocalizedError {
    /// `/usr/sbin/dovecot` or `doveadm` is missing (Debian: `apt-get install dovecot-imapd`).
    case notInstalled
    /// The configuration cannot be written: a user name Dovecot cannot take, an unusable directory.
    case invalidConfiguration(String)
    /// Writing the server's files or a message failed.
    case fileSystem(path: String, reason: String)
    /// Dovecot exited, or did not greet on its port in time; `log` is the tail of its log and output.
    case startFailed(reason: String, log: String)
    /// Dovecot did not exit, or its port stayed open, after being asked to stop.
    case stopFailed(reason: String)
    /// A `doveadm` run exited non-zero; `stderr` is the end of what it wrote.
    case commandFailed(arguments: [String], status: Int32, stderr: String)
    /// Rawlog was asked for on a server configured without it.
    case rawlogDisabled

    public var errorDescription: String? {
        switch self {
        case .notInstalled:
            "Dovecot is not installed: /usr/sbin/dovecot and /usr/bin/doveadm are needed (apt-get install dovecot-imapd)"
        case .invalidConfiguration(let reason): "cannot configure Dovecot: \(reason)"
        case .fileSystem(let path, let reason): "cannot write \(path): \(reason)"
        case .startFailed(let reason, let log): "Dovecot did not start: \(reason)\n--- log tail ---\n\(log)"
        case .stopFailed(let reason): "Dovecot did not stop: \(reason)"
        case .commandFailed(let arguments, let status, let stderr):
            "doveadm \(arguments.joined(separator: " ")) exited with \(status): \(stderr)"
        case .rawlogDisabled: "the server was started without rawlog, so no client commands were recorded"
        }
    }
}
