import Foundation

/// How the interactive browser login (``LoginFlow``, ``LoopbackReceiver``) can fail before any token
/// exists. The cure is always another `chatmail login`; the cases say why this one did not finish.
///
/// The token exchange at its end fails with ``GmailAPIError`` like any other call to Google.
public enum LoginFlowError: Error, Sendable, Equatable {
    /// The user declined access in the browser (`error=access_denied`).
    case authorizationDenied(reason: String)
    /// The browser came back with a `state` that this login did not send: possibly a forged redirect.
    case stateMismatch
    /// Nobody completed the browser login in time.
    case loginTimedOut
    /// The loopback listener for the OAuth redirect could not be set up.
    case loopback(description: String)
}

extension LoginFlowError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .authorizationDenied(let reason):
            "The Google sign-in was not approved (\(reason)). Run `chatmail login` again and allow access."
        case .stateMismatch:
            "The sign-in answer did not belong to this login attempt and was ignored. Run `chatmail login` again."
        case .loginTimedOut:
            "The browser sign-in was not completed in time. Run `chatmail login` again."
        case .loopback(let description):
            "Could not listen for the sign-in redirect on 127.0.0.1 (\(description))."
        }
    }
}

extension LoginFlowError: CustomStringConvertible {
    public var description: String { errorDescription ?? "LoginFlowError" }
}

/// Reading or writing the credentials file (``CredentialStore``) failed. Local, not Gmail's doing: the
/// detail names the file or directory and the errno, never the file's content.
public struct CredentialStoreError: Error, Sendable, Equatable {
    public var detail: String

    public init(_ detail: String) {
        self.detail = detail
    }
}

extension CredentialStoreError: LocalizedError {
    public var errorDescription: String? { "Could not access the saved credentials (\(detail))." }
}

extension CredentialStoreError: CustomStringConvertible {
    public var description: String { errorDescription ?? "CredentialStoreError" }
}
