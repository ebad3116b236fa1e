import GRDB

/// How chatmail reaches an IMAP account, as `login --imap` stored it. The password is not part of it.
public struct IMAPAccountSettings: Sendable, Equatable, Codable {
    /// How a connection is secured: TLS from the first byte, STARTTLS on the plain port, or nothing.
    public enum Security: String, Sendable, Codable, CaseIterable, DatabaseValueConvertible {
        case tls, starttls, none
    }

    /// Whether chatmail files a copy of what it sends in the Sent folder: `auto` unless the server files
    /// its own, `always`, or `never`.
    public enum SentCopy: String, Sendable, Codable, CaseIterable, DatabaseValueConvertible {
        case auto, always, never
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var login: String
    /// Run through `sh -c` whenever a connection opens; its first output line is the password.
    public var passwordCommand: String?
    /// Run through `sh -c` whenever a connection opens; its first output line is an OAuth2 access token.
    public var tokenCommand: String?
    public var smtpHost: String
    public var smtpPort: Int
    public var smtpSecurity: Security
    public var sentCopy: SentCopy

    public init(
        host: String, port: Int, security: Security, login: String, passwordCommand: String? = nil,
        tokenCommand: String? = nil, smtpHost: String, smtpPort: Int, smtpSecurity: Security,
        sentCopy: SentCopy = .auto
    ) {
        self.sentCopy = sentCopy
        self.host = host
        self.port = port
        self.security = security
        self.login = login
        self.passwordCommand = passwordCommand
        self.tokenCommand = tokenCommand
        self.smtpHost = smtpHost
        self.smtpPort = smtpPort
        self.smtpSecurity = smtpSecurity
    }
}

/// The row id of an `imap_folder`.
public struct IMAPFolderID: RawRepresentable, Hashable, Comparable, Sendable, Codable, DatabaseValueConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A folder sync reads, and how far it has read it.
///
/// `uidValidity` is `nil` until the folder's first sync commits; `uidNext` is the lowest UID not yet
/// accounted for under that UIDVALIDITY; `highestModSeq` is the CONDSTORE state the stored flags match.
public struct IMAPFolderState: Sendable, Equatable {
    public var id: IMAPFolderID
    public var name: String
    public var labelID: String?
    public var uidValidity: UInt32?
    public var uidNext: UInt32
    public var highestModSeq: UInt64?

    public init(
        id: IMAPFolderID, name: String, labelID: String?, uidValidity: UInt32?, uidNext: UInt32,
        highestModSeq: UInt64?
    ) {
        self.id = id
        self.name = name
        self.labelID = labelID
        self.uidValidity = uidValidity
        self.uidNext = uidNext
        self.highestModSeq = highestModSeq
    }
}

/// What one copy of a message in one folder says about it: its flags, and on Gmail its labels.
public struct IMAPCopyState: Sendable, Equatable {
    public var seen: Bool
    public var flagged: Bool
    /// X-GM-LABELS already mapped to label ids; `nil` on servers without them.
    public var gmailLabels: [String]?

    public init(seen: Bool, flagged: Bool, gmailLabels: [String]? = nil) {
        self.seen = seen
        self.flagged = flagged
        self.gmailLabels = gmailLabels
    }
}

/// A stored message a new copy may turn out to be.
public struct IMAPStoredCandidate: Sendable, Equatable {
    public var messageID: MessageID
    /// The message's provider key (`message.gmail_id`).
    public var key: String
    /// The folders that already hold a copy of it: a second copy in one of these is another message.
    public var folders: Set<IMAPFolderID>

    public init(messageID: MessageID, key: String, folders: Set<IMAPFolderID>) {
        self.messageID = messageID
        self.key = key
        self.folders = folders
    }
}
