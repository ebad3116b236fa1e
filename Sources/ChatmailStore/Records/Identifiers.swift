import GRDB

/// The row id of an `account`.
public struct AccountID: RawRepresentable, Hashable, Comparable, Sendable, Codable, DatabaseValueConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The row id of a `conversation`. Stable for the life of the conversation; `conversations --json`
/// shows it as `id`.
public struct ConversationID: RawRepresentable, Hashable, Comparable, Sendable, Codable, DatabaseValueConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The row id of a `message` in the local store (not Gmail's id, and not the Message-ID header).
/// It is also the rowid of the message's full-text index entry.
public struct MessageID: RawRepresentable, Hashable, Comparable, Sendable, Codable, DatabaseValueConvertible {
    public var rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
