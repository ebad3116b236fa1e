/// One message as the mailbox keeps it: immutable RFC 5322 bytes plus mutable Gmail metadata.
public struct StoredMessage: Sendable {
    /// 16 lowercase hex digits, like Gmail's ids.
    public var id: String
    public var threadId: String
    /// Label ids in insertion order (Gmail's order is unspecified; ours is stable).
    public var labelIds: [String]
    /// Epoch milliseconds from the Date header (or delivery time).
    public var internalDateMs: Int64
    /// Id of the last history record that changed this message.
    public var historyId: UInt64
    public var raw: [UInt8]
    /// `INBOX` was present before `trash`, so `untrash` restores it (the emulator's choice: Gmail's is undocumented).
    var hadInboxBeforeTrash = false
    /// Lazily computed plain-text excerpt (parsing 100k messages up front would slow start-up).
    var snippet: String?

    public var sizeEstimate: Int { raw.count }

    /// The reference carried by history records: id, thread and the label set at that moment.
    var reference: MessageReference { MessageReference(id: id, threadId: threadId, labelIds: labelIds) }
}

/// A message as embedded in a history record: id, threadId and labels as of the record.
public struct MessageReference: Sendable, Equatable {
    public var id: String
    public var threadId: String
    public var labelIds: [String]
}

/// One entry of a history record's typed lists.
public enum HistoryChange: Sendable, Equatable {
    case messageAdded(MessageReference)
    case messageDeleted(MessageReference)
    case labelsAdded(MessageReference, [String])
    case labelsRemoved(MessageReference, [String])

    var message: MessageReference {
        switch self {
        case .messageAdded(let m), .messageDeleted(let m), .labelsAdded(let m, _), .labelsRemoved(let m, _): m
        }
    }

    /// The `historyTypes` enum value this change belongs to.
    var typeName: String {
        switch self {
        case .messageAdded: "messageAdded"
        case .messageDeleted: "messageDeleted"
        case .labelsAdded: "labelAdded"
        case .labelsRemoved: "labelRemoved"
        }
    }
}

/// One history record: a mailbox change touching one message.
public struct MailboxChangeRecord: Sendable, Equatable {
    public var id: UInt64
    public var changes: [HistoryChange]
}
