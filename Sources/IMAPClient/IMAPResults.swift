import IMAPProtocol

/// The state of a mailbox as SELECT reported it.
public struct IMAPSelection: Sendable, Equatable {
    /// Required: a SELECT answered without it is a malformed response.
    public var uidValidity: UInt32
    public var uidNext: UInt32?
    /// Nil with `[NOMODSEQ]` or when the server has no CONDSTORE.
    public var highestModSeq: UInt64?
    public var exists: UInt32
    /// The UIDs of `* VANISHED (EARLIER)` during a QRESYNC select, expanded and ascending.
    public var vanished: [UInt32]
    /// The untagged FETCH responses of a QRESYNC select: what changed since the known mod-sequence.
    public var changed: [IMAPFetchAttributes]

    public init(
        uidValidity: UInt32, uidNext: UInt32?, highestModSeq: UInt64?, exists: UInt32, vanished: [UInt32] = [],
        changed: [IMAPFetchAttributes] = []
    ) {
        self.uidValidity = uidValidity
        self.uidNext = uidNext
        self.highestModSeq = highestModSeq
        self.exists = exists
        self.vanished = vanished
        self.changed = changed
    }
}

/// What one UID FETCH returned.
public struct IMAPFetchResult: Sendable, Equatable {
    /// The FETCH responses that carry a UID, in the order the server sent them. `n:*` also returns the
    /// last message when its UID is below `n`: the caller filters by the UIDs it expects.
    public var messages: [IMAPFetchAttributes]
    /// UIDs the server reported expunged during the command: `* VANISHED (EARLIER)` answering a
    /// `CHANGEDSINCE … VANISHED` fetch, and any `* VANISHED` of an expunge meanwhile.
    public var vanished: [UInt32]

    public init(messages: [IMAPFetchAttributes], vanished: [UInt32] = []) {
        self.messages = messages
        self.vanished = vanished
    }
}

extension IMAPUIDSet {
    /// The most UIDs a server-sent set may expand to: a lying server must not make the client allocate
    /// gigabytes from a one-line `1:4294967295`.
    static let maximumExpandedCount: UInt64 = 10_000_000

    /// The set's UIDs, or a malformed-response error if it is open (`n:*`) or absurdly large.
    func expandedFromServer() throws(IMAPClientError) -> [UInt32] {
        guard isBounded else { throw .malformedResponse("the server sent a UID set with *: \(self)") }
        guard boundedCount <= Self.maximumExpandedCount else {
            throw .malformedResponse("the server sent a UID set of \(boundedCount) UIDs")
        }
        return uids
    }
}
