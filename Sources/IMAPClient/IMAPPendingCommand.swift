import IMAPProtocol
import NIOCore
import Synchronization

/// A command on its way to the channel handler: its tag, its bytes, and the promise its answer fulfils.
struct IMAPPendingCommand: Sendable {
    /// What the handler must do besides writing parts on `+` continuations.
    enum Kind: Sendable {
        case ordinary
        /// SASL: the command keeps the write side until it completes, since the server may send more
        /// challenges than it has parts; an extra challenge is answered with an empty line.
        case authenticate
        /// On `OK`, TLS starts before any further byte is read.
        case startTLS
        /// The server's `* BYE` is the expected answer, not a failure.
        case logout
        /// IDLE: the command keeps the write side until it completes, since nothing but `DONE` may follow
        /// it; its untagged responses go to `idleListener` as they arrive, and silence after the server's
        /// `+` is normal until `DONE` is sent.
        case idle
    }

    var tag: String
    /// The command's name for errors (`UID FETCH`), never its arguments.
    var name: String
    /// The first part is written at once; each next one after a `+` continuation.
    var parts: [[UInt8]]
    var kind: Kind
    var promise: EventLoopPromise<IMAPCommandResponse>
    /// Set exactly for `.idle`.
    var idleListener: IMAPIdleListener? = nil
}

/// What the server answered to one command: the untagged responses routed to it, and its completion.
struct IMAPCommandResponse: Sendable {
    var untagged: [IMAPUntaggedResponse]
    var completion: IMAPTaggedResponse
}

/// The server's first response.
struct IMAPGreeting: Sendable {
    /// `* PREAUTH`: the connection is authenticated already.
    var preauthenticated: Bool
    /// The `[CAPABILITY ...]` code of the greeting, if it carried one.
    var capabilities: [String]?
}

/// Why the connection ended, shared between the channel handler (which records it) and the connection
/// (which reports it for commands that arrive after the channel closed).
final class IMAPLinkState: Sendable {
    private let storedFailure = Mutex<IMAPClientError?>(nil)

    var failure: IMAPClientError? { storedFailure.withLock { $0 } }

    /// Keeps the first failure: later ones are consequences of it.
    func record(_ failure: IMAPClientError) {
        storedFailure.withLock { stored in
            if stored == nil { stored = failure }
        }
    }
}
