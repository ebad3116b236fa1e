import GRDB

/// A one-time code from recent mail, as `chatmail codes` lists it.
public struct VerificationCodeHit: Sendable, Equatable {
    public var code: String
    public var service: String?
    public var from: EmailAddress
    public var receivedAtMs: Int64
    public var gmailID: String
    public var conversation: ConversationID

    public init(
        code: String, service: String?, from: EmailAddress, receivedAtMs: Int64, gmailID: String,
        conversation: ConversationID
    ) {
        self.code = code
        self.service = service
        self.from = from
        self.receivedAtMs = receivedAtMs
        self.gmailID = gmailID
        self.conversation = conversation
    }
}

extension ChatmailStore {
    /// The codes found in the account's messages received since `sinceMs`, newest first, at most `limit`
    /// of them (nil: all), and how many more the window holds; trashed and spam messages are left out.
    /// Reads `message_with_code` alone: the cost follows the codes, not the mailbox.
    public func verificationCodes(in account: AccountID, sinceMs: Int64, limit: Int? = nil) throws
        -> LimitedList<VerificationCodeHit>
    {
        try read { db in
            let hits = try VerificationCodeHit.fetchAll(
                db, sql: Self.verificationCodesSQL, arguments: [account, sinceMs, limit ?? -1])
            return try LimitedList.cut(hits, limit: limit) {
                try Int.fetchOne(
                    db, sql: "SELECT count(*) \(Self.verificationCodesWindowSQL)", arguments: [account, sinceMs]) ?? 0
            }
        }
    }

    /// Codes of an account (first argument) since a time (second), newest first, at most the third
    /// (-1: all).
    package static let verificationCodesSQL = """
        SELECT m.verification_code, m.verification_service, m.from_address, m.from_name, m.internal_date_ms,
               m.gmail_id, m.conversation_id
        \(verificationCodesWindowSQL)
        ORDER BY m.internal_date_ms DESC
        LIMIT ?
        """

    /// The messages with a code of an account (first argument) since a time (second), which the list and
    /// its count share.
    static let verificationCodesWindowSQL = """
        FROM message m
        WHERE m.account_id = ? AND m.verification_code IS NOT NULL AND m.internal_date_ms >= ?
          AND NOT EXISTS (SELECT 1 FROM message_label x JOIN label l ON l.id = x.label_id
                          WHERE x.message_id = m.id AND l.gmail_id IN ('TRASH', 'SPAM'))
        """
}

extension VerificationCodeHit: FetchableRecord {
    /// A row of ``ChatmailStore/verificationCodesSQL``.
    public init(row: Row) {
        self.init(
            code: row["verification_code"], service: row["verification_service"], from: EmailAddress(authorOf: row),
            receivedAtMs: row["internal_date_ms"], gmailID: row["gmail_id"], conversation: row["conversation_id"])
    }
}
