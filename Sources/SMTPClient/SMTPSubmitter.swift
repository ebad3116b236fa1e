import Foundation

/// Submits messages to one SMTP server with one login: a new connection per message, through libcurl.
///
/// What matters most is the difference between the failures (see ``SMTPError``): a message the server
/// refused, or never fully received, was certainly not sent, while one whose final reply was lost may
/// have been; sending exactly once depends on never taking the second for the first.
public struct SMTPSubmitter: Sendable {
    private let endpoint: SMTPEndpoint
    private let authentication: SMTPAuthentication
    private let timeouts: SMTPTimeouts

    public init(endpoint: SMTPEndpoint, authentication: SMTPAuthentication, timeouts: SMTPTimeouts = SMTPTimeouts()) {
        self.endpoint = endpoint
        self.authentication = authentication
        self.timeouts = timeouts
    }

    /// Sends the bytes exactly as given (CRLF line ends expected; libcurl dot-stuffs), MAIL FROM =
    /// envelope.from, RCPT TO each recipient. A recipient the server refuses fails the whole submission.
    ///
    /// An envelope that cannot be sent (no recipients, an address with a line break) is refused before
    /// connecting, with code 0 and the reason. A message that does not end in CRLF gets one before the
    /// final ".", as SMTP requires. The submission runs on a thread of its own, since libcurl blocks; it
    /// is not cancellable, and the timeouts bound it.
    public func submit(_ message: [UInt8], envelope: SMTPEnvelope) async throws(SMTPError) -> SMTPReceipt {
        if let problem = Self.envelopeProblem(envelope) {
            throw .refused(code: 0, serverText: problem)
        }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<SMTPReceipt, SMTPError>, Never>) in
            // The transfer is made on its thread and never leaves it: libcurl calls back into it there.
            let thread = Thread { [endpoint, authentication, timeouts] in
                let transfer = SMTPTransfer(
                    endpoint: endpoint, authentication: authentication, timeouts: timeouts, envelope: envelope,
                    message: message)
                transfer.run { continuation.resume(returning: $0) }
            }
            thread.name = "SMTP submission to \(endpoint.name)"
            thread.start()
        }
        return try result.get()
    }

    /// What makes `envelope` impossible to send, checked before connecting: no recipients, or an address
    /// with a line break or NUL, which would end the SMTP command early and let the rest be read as another.
    static func envelopeProblem(_ envelope: SMTPEnvelope) -> String? {
        if envelope.recipients.isEmpty { return "the message has no recipients; nothing was sent" }
        let unsafe: Set<Character> = ["\r", "\n", "\r\n", "\0"]
        for address in [envelope.from] + envelope.recipients where address.contains(where: unsafe.contains) {
            return "the address \(address.debugDescription) contains a line break; nothing was sent"
        }
        return nil
    }
}
