import GRDB

/// A mail account in the store: a Gmail account synced through Gmail's API, or any IMAP account.
public struct Account: Sendable, Equatable, FetchableRecord, Decodable {
    public var id: AccountID
    public var email: String
    /// Where the account's mail comes from.
    public var provider: MailProviderKind = .gmail
    /// The last history id whose changes are all stored; `nil` before the first full sync completes.
    public var historyID: String?
    public var lastSyncAtMs: Int64?

    enum CodingKeys: String, CodingKey {
        case id, email, provider
        case historyID = "history_id"
        case lastSyncAtMs = "last_sync_at_ms"
    }
}

/// Where an account's mail comes from, as the `account.provider` column spells it.
public enum MailProviderKind: String, Sendable, Codable, Equatable, DatabaseValueConvertible {
    /// Gmail's REST API (OAuth).
    case gmail
    /// Any IMAP server, Gmail's included (an app password or XOAUTH2).
    case imap
}

/// How a command chooses the account it works on.
public enum AccountSelection: Sendable, Equatable {
    /// The only account; an error when there are none or several.
    case onlyAccount
    /// The account with this address (compared by identity key).
    case email(String)
}

/// A sendAs identity of the account.
public struct AliasInput: Sendable, Equatable {
    public var address: EmailAddress
    public var isPrimary: Bool

    public init(address: EmailAddress, isPrimary: Bool) {
        self.address = address
        self.isPrimary = isPrimary
    }
}

/// Whether a Gmail label is built in or made by the user.
public enum LabelType: String, Sendable, Codable, DatabaseValueConvertible {
    case system
    case user

    /// Gmail's user labels have ids like `Label_12`; everything else (`INBOX`, `CATEGORY_SOCIAL`) is built in.
    public init(gmailLabelID: String) {
        self = gmailLabelID.hasPrefix("Label_") ? .user : .system
    }
}
