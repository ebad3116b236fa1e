import IMAPClient
import SMTPClient

/// What a failed IMAP command means for the queued action that sent it.
enum IMAPFailures {
    static func disposition(of error: IMAPClientError) -> FailureDisposition {
        switch error {
        // The connection is gone: nothing is counted, and a command that may have run is checked first
        // on the next attempt (the step runner looks before it moves).
        case .unreachable, .tlsFailed, .disconnected, .timedOut, .serverClosed: .unreachable
        case .authenticationFailed: .stopRun
        // A NO may be passing (a mailbox in use, a quota), and a garbled answer may not repeat.
        case .commandFailed, .malformedResponse: .retryLater(retryAfterMs: nil)
        case .missingCapability: .abandon
        }
    }

    /// Whether the connection can take another command after `error`.
    static func connectionSurvives(_ error: IMAPClientError) -> Bool {
        if case .commandFailed = error { return true }
        return false
    }

    /// What a failed submission means for the send action. An unknown outcome is not here: it is never
    /// retried by itself, so the sender records it apart.
    static func disposition(of error: SMTPError) -> FailureDisposition {
        switch error {
        case .refused: .abandon
        case .temporary: .retryLater(retryAfterMs: nil)
        case .authenticationFailed: .stopRun
        case .unreachable, .outcomeUnknown: .unreachable
        }
    }
}
