import IMAPProtocol
import NIOCore

extension IMAPConnection {
    /// ENABLE: returns the extensions the server's `* ENABLED` listed, uppercased.
    public func enable(_ extensions: [String]) async throws(IMAPClientError) -> Set<String> {
        let response = try await execute(.enable(extensions), name: "ENABLE")
        var enabled: Set<String> = []
        for case .enabled(let names) in response.untagged {
            enabled.formUnion(names.map { $0.uppercased() })
        }
        return enabled
    }

    /// Every mailbox: `LIST "" "*"`, with `RETURN (SPECIAL-USE)` when the server has SPECIAL-USE so each
    /// entry carries its role.
    public func listFolders() async throws(IMAPClientError) -> [IMAPListEntry] {
        let command = IMAPCommand.list(reference: "", pattern: "*", returnSpecialUse: has("SPECIAL-USE"))
        let response = try await execute(command, name: "LIST")
        var entries: [IMAPListEntry] = []
        for case .list(let entry) in response.untagged { entries.append(entry) }
        return entries
    }

    /// SELECT, with CONDSTORE or QRESYNC parameters. A QRESYNC select reports vanished UIDs and changes.
    public func select(_ mailbox: String, parameters: IMAPSelectParameters? = nil) async throws(IMAPClientError)
        -> IMAPSelection
    {
        let response = try await execute(.select(mailbox: mailbox, parameters: parameters), name: "SELECT")
        var uidValidity: UInt32?
        var selection = IMAPSelection(uidValidity: 0, uidNext: nil, highestModSeq: nil, exists: 0)
        var noModSeq = false
        for untagged in response.untagged {
            switch untagged {
            case .exists(let count): selection.exists = count
            case .condition(_, .uidValidity(let value)?, _): uidValidity = value
            case .condition(_, .uidNext(let value)?, _): selection.uidNext = value
            case .condition(_, .highestModSeq(let value)?, _): selection.highestModSeq = value
            case .condition(_, .noModSeq?, _): noModSeq = true
            case .vanished(_, let uids): selection.vanished += try uids.expandedFromServer()
            case .fetch(_, let attributes): selection.changed.append(attributes)
            default: break
            }
        }
        guard let uidValidity else { throw .malformedResponse("SELECT was answered without UIDVALIDITY") }
        selection.uidValidity = uidValidity
        if noModSeq { selection.highestModSeq = nil }
        selection.vanished.sort()
        return selection
    }

    /// UID FETCH of raw items (`UID`, `FLAGS`, `BODY.PEEK[]`), with CONDSTORE's CHANGEDSINCE and QRESYNC's
    /// VANISHED modifiers.
    public func uidFetch(
        _ uids: IMAPUIDSet, items: [String], changedSince: UInt64? = nil, vanished: Bool = false
    ) async throws(IMAPClientError) -> IMAPFetchResult {
        let future = submitFetch(uids, items: items, changedSince: changedSince, vanished: vanished)
        return try await fetchResult(of: future)
    }

    /// Pipelined batches: keeps up to `window` UID FETCH commands in flight and yields each batch's result
    /// in order. The next batch is sent as each result is taken, so a slow consumer holds at most
    /// `window` results' worth of data in flight. The first failure ends the stream.
    public func uidFetchBatches(_ batches: [IMAPUIDSet], items: [String], window: Int = 3)
        -> AsyncThrowingStream<IMAPFetchResult, any Error>
    {
        let pipeline = IMAPFetchPipeline(connection: self, batches: batches, items: items, window: max(1, window))
        return AsyncThrowingStream { try await pipeline.next() }
    }

    /// UID SEARCH with raw criteria (`ALL`, `UID 100:*`). With ESEARCH it asks for `RETURN (ALL)`, whose
    /// compact ranges matter for large mailboxes.
    public func uidSearch(_ criteria: String) async throws(IMAPClientError) -> [UInt32] {
        let useESearch = has("ESEARCH")
        let command = IMAPCommand.uidSearch(useESearch ? "RETURN (ALL) \(criteria)" : criteria)
        let response = try await execute(command, name: "UID SEARCH")
        var uids: [UInt32] = []
        for untagged in response.untagged {
            switch untagged {
            case .esearch(let result): uids += try result.all?.expandedFromServer() ?? []
            case .search(let found, _): uids += found
            default: break
            }
        }
        return uids
    }

    /// NOOP: lets the server report changes, and checks that the connection is alive.
    public func noop() async throws(IMAPClientError) {
        _ = try await execute(.noop, name: "NOOP")
    }

    /// LOGOUT as a courtesy, then closes the connection. Never throws: the connection is gone either way.
    public func logout() async {
        if link.failure == nil {
            do {
                _ = try await executeUnchecked(.logout, name: "LOGOUT", kind: .logout)
            } catch {
                // The server went away first: there is nothing left to log out of.
            }
        }
        do {
            try await channel.close().get()
        } catch {
            // Already closed, by the server after its BYE or by a failure.
        }
    }

    /// Closes the connection without LOGOUT, for a caller whose last command has been answered and that
    /// must not wait for the server to tidy up (IMAP servers take a dropped connection as a logout).
    public func close() async {
        do {
            try await channel.close().get()
        } catch {
            // Already closed, by the server or by a failure.
        }
    }

    func submitFetch(_ uids: IMAPUIDSet, items: [String], changedSince: UInt64?, vanished: Bool)
        -> EventLoopFuture<IMAPCommandResponse>
    {
        submit(.uidFetch(uids, items: items, changedSince: changedSince, vanished: vanished), name: "UID FETCH")
    }

    func fetchResult(of future: EventLoopFuture<IMAPCommandResponse>) async throws(IMAPClientError)
        -> IMAPFetchResult
    {
        let response = try await finish(future, name: "UID FETCH")
        var result = IMAPFetchResult(messages: [])
        for untagged in response.untagged {
            switch untagged {
            // A FETCH without UID is an unsolicited flag change of another message: a UID FETCH's own
            // responses always carry the UID.
            case .fetch(_, let attributes) where attributes.uid != nil: result.messages.append(attributes)
            case .vanished(_, let uids): result.vanished += try uids.expandedFromServer()
            default: break
            }
        }
        result.vanished.sort()
        return result
    }
}

/// The state of one ``IMAPConnection/uidFetchBatches(_:items:window:)`` stream: the batches not yet sent
/// and the futures of those in flight, oldest first.
private actor IMAPFetchPipeline {
    private let connection: IMAPConnection
    private let items: [String]
    private let window: Int
    private var unsent: ArraySlice<IMAPUIDSet>
    private var inFlight: [EventLoopFuture<IMAPCommandResponse>] = []

    init(connection: IMAPConnection, batches: [IMAPUIDSet], items: [String], window: Int) {
        self.connection = connection
        self.unsent = batches[...]
        self.items = items
        self.window = window
    }

    func next() async throws(IMAPClientError) -> IMAPFetchResult? {
        fillWindow()
        guard !inFlight.isEmpty else { return nil }
        let oldest = inFlight.removeFirst()
        let result = try await connection.fetchResult(of: oldest)
        fillWindow()
        return result
    }

    private func fillWindow() {
        while inFlight.count < window, let batch = unsent.popFirst() {
            inFlight.append(connection.submitFetch(batch, items: items, changedSince: nil, vanished: false))
        }
    }
}
