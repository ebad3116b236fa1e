import Foundation

/// Why an IMAP connection or command failed. Every message is one line for people; none carries a
/// password or a command's arguments.
public enum IMAPClientError: Error, Sendable, Equatable, LocalizedError {
    /// The server could not be reached: the name did not resolve, the connection was refused, or the
    /// TCP connection was not established in time.
    case unreachable(host: String, port: Int, reason: String)
    /// TLS could not be established: the handshake failed (a certificate that does not verify, a server
    /// that does not speak TLS), STARTTLS was refused, or it did not finish in time.
    case tlsFailed(host: String, port: Int, reason: String)
    /// The server answered NO (or BAD) to LOGIN or AUTHENTICATE; the text is the server's own words.
    case authenticationFailed(serverText: String)
    /// The server answered NO or BAD. `command` is the command's name only (`UID FETCH`), never its
    /// arguments.
    case commandFailed(command: String, status: String, serverText: String)
    /// No byte arrived for `seconds` while the command waited for its answer; the connection is closed.
    case timedOut(command: String, seconds: Int)
    /// The connection was closed or reset, possibly in the middle of a response.
    case disconnected(reason: String)
    /// The server said BYE: it is closing the connection.
    case serverClosed(serverText: String)
    /// The server sent bytes that are not IMAP; the connection is closed, since the stream's position
    /// is lost.
    case malformedResponse(String)
    /// The server lacks a capability this operation needs, such as `STARTTLS` or `AUTH=XOAUTH2`.
    case missingCapability(String)

    public var errorDescription: String? {
        switch self {
        case .unreachable(let host, let port, let reason):
            "Cannot reach \(host):\(port): \(Self.sentence(reason))"
        case .tlsFailed(let host, let port, let reason):
            "Cannot establish TLS with \(host):\(port): \(Self.sentence(reason))"
        case .authenticationFailed(let serverText):
            "The IMAP server refused the login: \(Self.sentence(serverText))"
        case .commandFailed(let command, let status, let serverText):
            "The IMAP server answered \(status) to \(command): \(Self.sentence(serverText))"
        case .timedOut(let command, let seconds):
            "The IMAP server sent nothing for \(seconds) s while \(command) waited for its answer."
        case .disconnected(let reason):
            "The IMAP connection was lost: \(Self.sentence(reason))"
        case .serverClosed(let serverText):
            "The IMAP server closed the connection: \(Self.sentence(serverText))"
        case .malformedResponse(let reason):
            "The IMAP server sent a response this client cannot read: \(Self.sentence(reason))"
        case .missingCapability(let capability):
            "The IMAP server does not support \(capability)."
        }
    }

    /// The text as the end of a one-line sentence: line breaks flattened, a full stop added if missing.
    private static func sentence(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard let last = line.last else { return "no reason given." }
        return ".!?".contains(last) ? line : line + "."
    }
}
