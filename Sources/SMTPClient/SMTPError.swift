import Foundation

/// Why a submission did not end with a receipt, sorted by what the sender may do next.
///
/// The cases differ in what is known about the message: ``refused(code:serverText:)``,
/// ``temporary(code:serverText:)``, ``authenticationFailed(serverText:)`` and ``unreachable(reason:)``
/// each mean the server did not take it, and only ``outcomeUnknown(reason:)`` means it may have.
public enum SMTPError: Error, Sendable, Hashable, LocalizedError {
    /// A 5xx reply to MAIL FROM, RCPT TO, DATA or the end of the message: permanent, never retry as is.
    /// Code 0: refused here, before connecting, for an envelope no server could take (no recipients, an
    /// address with a line break).
    case refused(code: Int, serverText: String)
    /// A 4xx reply: the server asks to try again later.
    case temporary(code: Int, serverText: String)
    /// The login was refused (535 and the like), or the server wants a login it did not get (530).
    case authenticationFailed(serverText: String)
    /// No connection, a failed TLS handshake, a server that turned the session away, or a connection that
    /// broke before the whole message, its final "." included, was handed to the server: certainly not
    /// delivered.
    case unreachable(reason: String)
    /// The whole message was handed over, so its final "." may have reached the server, and no final
    /// reply came (the connection dropped or timed out): the server may or may not have accepted it.
    case outcomeUnknown(reason: String)

    /// One line for people: the server's own words for refusals, `host:port` in the reasons.
    public var errorDescription: String? {
        switch self {
        case .refused(0, let text):
            "The message cannot be sent: \(Self.oneLine(text))"
        case .refused(let code, let text):
            "The mail server refused the message: \(code) \(Self.oneLine(text))"
        case .temporary(let code, let text):
            "The mail server cannot take the message now: \(code) \(Self.oneLine(text))"
        case .authenticationFailed(let text):
            "The mail server refused the login: \(Self.oneLine(text))"
        case .unreachable(let reason):
            "Could not reach the mail server: \(Self.oneLine(reason))"
        case .outcomeUnknown(let reason):
            "Unknown whether the mail server accepted the message: \(Self.oneLine(reason))"
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
