/// The commands this client sends. ``IMAPEncodedCommand/encode(_:tag:literalPlus:)`` turns one into bytes.
///
/// Mailbox names are given as people read them and encoded to modified UTF-7 on the way out. Arguments
/// documented as raw (search criteria, FETCH items, STORE operations, flags, capability names) are IMAP
/// syntax passed through as they are, except that CR, LF and NUL become spaces, so a caller's mistake
/// can never smuggle a second command onto the wire.
public enum IMAPCommand: Sendable, Equatable {
    case capability
    case noop
    case logout
    case startTLS
    /// LOGIN; the user name and password are always quoted or sent as literals.
    case login(user: String, password: String)
    /// AUTHENTICATE with SASL-IR: the initial response is sent base64-encoded (`=` when empty), or not
    /// at all when nil.
    case authenticate(mechanism: String, initialResponse: [UInt8]?)
    /// ENABLE with raw extension names, such as `QRESYNC`.
    case enable([String])
    /// ID with the client's fields (sent sorted by name for a stable line), or `ID NIL`.
    case id([String: String]?)
    /// LIST, asking for SPECIAL-USE attributes with `RETURN (SPECIAL-USE)` when `returnSpecialUse`.
    case list(reference: String, pattern: String, returnSpecialUse: Bool)
    /// STATUS with raw item names, such as `UIDNEXT`, `UIDVALIDITY`, `HIGHESTMODSEQ`.
    case status(mailbox: String, items: [String])
    case select(mailbox: String, parameters: IMAPSelectParameters?)
    case examine(mailbox: String, parameters: IMAPSelectParameters?)
    /// UID FETCH with raw items (`UID`, `FLAGS`, `BODY.PEEK[]`) and the CONDSTORE/QRESYNC modifiers
    /// `CHANGEDSINCE` and `VANISHED` (which servers accept only together with `CHANGEDSINCE`).
    case uidFetch(IMAPUIDSet, items: [String], changedSince: UInt64?, vanished: Bool)
    /// UID SEARCH with raw criteria, such as `ALL` or `UID 1:*`.
    case uidSearch(String)
    /// UID STORE with a raw operation (`+FLAGS.SILENT`) and raw flags.
    case uidStore(IMAPUIDSet, String, [String])
    case uidCopy(IMAPUIDSet, mailbox: String)
    case uidMove(IMAPUIDSet, mailbox: String)
    case uidExpunge(IMAPUIDSet)
    /// EXPUNGE of every message marked `\Deleted`, for servers without UIDPLUS's UID EXPUNGE.
    case expunge
    case create(mailbox: String)
    /// APPEND a message (always sent as a literal) with raw flags and an optional INTERNALDATE.
    case append(mailbox: String, flags: [String], internalDateMs: Int64?, message: [UInt8])
    case idle
    /// Ends IDLE: the bare line `DONE`, sent without a tag.
    case done
}

/// SELECT and EXAMINE parameters for CONDSTORE and QRESYNC.
public enum IMAPSelectParameters: Sendable, Equatable {
    /// `(CONDSTORE)`: turn on mod-sequences for this mailbox.
    case condstore
    /// `(QRESYNC (uidValidity modSeq knownUIDs))`: resynchronize from a known state; the server answers
    /// with VANISHED (EARLIER) and the FETCHes of what changed since `modSeq`.
    case qresync(uidValidity: UInt32, modSeq: UInt64, knownUIDs: IMAPUIDSet?)
}
