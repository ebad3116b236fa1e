/// One response from an IMAP server, as ``IMAPResponseParser`` reads it from a frame.
public enum IMAPResponse: Sendable, Equatable {
    /// The completion of the command with that tag.
    case tagged(IMAPTaggedResponse)
    /// Data or status the server sends with `*`, solicited or not.
    case untagged(IMAPUntaggedResponse)
    /// `+`: the server waits for the next part of a command (a literal, an IDLE's `DONE`, SASL data).
    /// The text is what follows `+ `, for SASL base64 or a human-readable prompt.
    case continuation(String)
}

/// A response status: the first three complete commands; `bye` and `preauth` are untagged only.
public enum IMAPStatus: String, Sendable, Equatable {
    case ok = "OK"
    case no = "NO"
    case bad = "BAD"
    case bye = "BYE"
    case preauth = "PREAUTH"
}

/// A tagged completion: `A1 OK [APPENDUID 38505 3955] APPEND completed`. Its status is `ok`, `no` or `bad`.
public struct IMAPTaggedResponse: Sendable, Equatable {
    public var tag: String
    public var status: IMAPStatus
    public var code: IMAPResponseCode?
    /// The human-readable text after the status and code.
    public var text: String

    public init(tag: String, status: IMAPStatus, code: IMAPResponseCode?, text: String) {
        self.tag = tag
        self.status = status
        self.code = code
        self.text = text
    }
}

/// The untagged responses this client acts on; anything else is ``other(_:)``, never an error.
public enum IMAPUntaggedResponse: Sendable, Equatable {
    /// `* OK`, `* NO`, `* BAD`, `* BYE` or `* PREAUTH`, with its response code and text.
    case condition(status: IMAPStatus, code: IMAPResponseCode?, text: String)
    /// The capabilities, uppercased.
    case capability([String])
    /// The extensions ENABLE turned on, uppercased.
    case enabled([String])
    case list(IMAPListEntry)
    /// STATUS data: the mailbox (decoded from modified UTF-7) and each item's value by uppercased name.
    case status(mailbox: String, attributes: [String: UInt64])
    case exists(UInt32)
    case recent(UInt32)
    /// A message sequence number that was expunged.
    case expunge(UInt32)
    case flags([String])
    /// A message's data, by sequence number.
    case fetch(sequence: UInt32, IMAPFetchAttributes)
    /// UIDs expunged (QRESYNC); `earlier` when they answer a SELECT's or FETCH's VANISHED request.
    case vanished(earlier: Bool, uids: IMAPUIDSet)
    /// SEARCH results, with the highest mod-sequence of the matches when CONDSTORE asked for it.
    case search(uids: [UInt32], modSeq: UInt64?)
    case esearch(IMAPESearch)
    /// An untagged response of a kind not modelled here: everything after `* `.
    case other(String)
}

/// ESEARCH results (RFC 4731): only what was asked for is present.
public struct IMAPESearch: Sendable, Equatable {
    /// The tag of the command these results answer.
    public var tag: String?
    /// Whether the numbers are UIDs rather than sequence numbers.
    public var uid: Bool
    public var min: UInt32?
    public var max: UInt32?
    public var count: UInt32?
    public var all: IMAPUIDSet?
    public var modSeq: UInt64?

    public init(
        tag: String? = nil, uid: Bool = false, min: UInt32? = nil, max: UInt32? = nil, count: UInt32? = nil,
        all: IMAPUIDSet? = nil, modSeq: UInt64? = nil
    ) {
        self.tag = tag
        self.uid = uid
        self.min = min
        self.max = max
        self.count = count
        self.all = all
        self.modSeq = modSeq
    }
}

/// The SPECIAL-USE roles a mailbox can have.
public enum IMAPSpecialUse: String, Sendable, Equatable, CaseIterable {
    case all = "\\ALL"
    case archive = "\\ARCHIVE"
    case drafts = "\\DRAFTS"
    case flagged = "\\FLAGGED"
    case junk = "\\JUNK"
    case sent = "\\SENT"
    case trash = "\\TRASH"
}

/// One mailbox from LIST: `* LIST (\HasNoChildren \Sent) "/" Sent`.
public struct IMAPListEntry: Sendable, Equatable {
    /// The attributes as sent, such as `\HasNoChildren` or `\Sent`.
    public var attributes: [String]
    /// The hierarchy delimiter, nil for a flat namespace.
    public var delimiter: String?
    /// The name for people: decoded from modified UTF-7, or the raw bytes as UTF-8 when they are not
    /// valid modified UTF-7.
    public var name: String
    /// The exact bytes the server sent, to name the mailbox in later commands.
    public var rawName: [UInt8]

    public init(attributes: [String], delimiter: String?, name: String, rawName: [UInt8]) {
        self.attributes = attributes
        self.delimiter = delimiter
        self.name = name
        self.rawName = rawName
    }

    /// The mailbox's SPECIAL-USE role, if an attribute names one (case-insensitively).
    public var specialUse: IMAPSpecialUse? {
        attributes.lazy.compactMap { IMAPSpecialUse(rawValue: $0.uppercased()) }.first
    }

    /// Whether the mailbox can be selected: it is neither `\Noselect` nor `\NonExistent`.
    public var isSelectable: Bool {
        !attributes.contains { ["\\NOSELECT", "\\NONEXISTENT"].contains($0.uppercased()) }
    }
}

/// A response code, the bracketed part of a status response: `[UIDVALIDITY 1700000000]`.
public enum IMAPResponseCode: Sendable, Equatable {
    /// The text must be shown to the user; it is the response's text.
    case alert(String)
    case capability([String])
    case uidValidity(UInt32)
    case uidNext(UInt32)
    case unseen(UInt32)
    case highestModSeq(UInt64)
    case noModSeq
    case permanentFlags([String])
    case readOnly
    case readWrite
    case tryCreate
    case closed
    case appendUID(uidValidity: UInt32, uid: UInt32)
    /// UIDPLUS: the `n`th source UID was copied to the `n`th destination UID, both lists in the order the
    /// server wrote them (ranges expanded in the direction written). Not a set: Gmail's destination UIDs
    /// are not ascending, and sorting them would pair the wrong messages.
    case copyUID(uidValidity: UInt32, source: [UInt32], destination: [UInt32])
    case authenticationFailed
    /// A code not modelled here: its uppercased name and whatever followed it inside the brackets.
    case other(name: String, text: String)
}
