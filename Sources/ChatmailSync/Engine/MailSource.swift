import ChatmailStore
import GmailAPI
import IMAPClient

/// Where sync reads an account's mail: the seam between sync and the providers.
///
/// Each provider brings its own client and its own orchestrators, and they all write through the same
/// store operations (``MessagePersister`` and the store's IMAP copies), so conversations, identity, lists,
/// rules, codes and rollups never depend on where a message came from. A third provider (JMAP) would be a
/// client module beside GmailAPI and IMAPClient, a case here, and its orchestrator under `ChatmailSync`.
public enum MailSource: Sendable {
    /// Gmail's REST API: history ids, labels by id, batch downloads.
    case gmail(GmailClient)
    /// Any IMAP server: folders as labels, UIDs under UIDVALIDITY, CONDSTORE/QRESYNC when announced.
    case imap(IMAPConnector)
}

/// Opens authenticated IMAP connections to one account, asking for the password or token each time (a
/// password command may hand out a fresh one).
public struct IMAPConnector: Sendable {
    public let endpoint: IMAPEndpoint
    public let timeouts: IMAPTimeouts
    private let credentials: @Sendable () async throws -> IMAPAuthentication

    public init(
        endpoint: IMAPEndpoint, timeouts: IMAPTimeouts = IMAPTimeouts(),
        authentication: @escaping @Sendable () async throws -> IMAPAuthentication
    ) {
        self.endpoint = endpoint
        self.timeouts = timeouts
        self.credentials = authentication
    }

    public func connect() async throws -> IMAPConnection {
        try await IMAPConnection.connect(to: endpoint, authentication: try await credentials(), timeouts: timeouts)
    }

    /// The account's credentials, asked for afresh: SMTP logs in with the same ones.
    public func authentication() async throws -> IMAPAuthentication {
        try await credentials()
    }
}

/// A pusher that sends nothing: queued actions stay in the queue, untouched, and their local change stays
/// visible. For the tests and benchmarks of the pull alone.
public struct QueueHoldingPusher: PendingActionPusher {
    public init() {}
    public func pushDue(account: AccountID) async throws -> Int { 0 }
}
