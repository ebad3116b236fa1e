import GRDB

/// The list headers a message was stored without: what a metadata-format read of it returns.
public struct ListHeaderValues: Sendable, Equatable {
    public var mailingList: MessageInput.MailingList?
    public var listPosting: MessageInput.ListPosting?
    public var replyTo: [EmailAddress]?
    public var mailFollowupTo: [EmailAddress]?

    public init(
        mailingList: MessageInput.MailingList? = nil, listPosting: MessageInput.ListPosting? = nil,
        replyTo: [EmailAddress]? = nil, mailFollowupTo: [EmailAddress]? = nil
    ) {
        self.mailingList = mailingList
        self.listPosting = listPosting
        self.replyTo = replyTo
        self.mailFollowupTo = mailFollowupTo
    }
}

/// Messages stored before the store kept list headers are listed in `list_header_backfill` (by the
/// migration that added them); a sync reads their headers from Gmail and hands them here.
extension StoreTransaction {
    /// Every Gmail id of the account still waiting for its list headers.
    public func listHeaderBackfillIDs(in account: AccountID) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT gmail_id FROM list_header_backfill WHERE account_id = ? ORDER BY gmail_id",
            arguments: [account])
    }

    /// Stores the list headers of an already stored message, moves it to the conversation the identity
    /// rule now gives it (and the account's earlier posts to a posting address it teaches), and takes it
    /// off the backfill list.
    /// - returns: every conversation a message left or joined, for the rollups; empty when the message is
    ///   not stored (it is only taken off the list).
    public func applyListHeaders(_ headers: ListHeaderValues, toMessage gmailID: String, in account: AccountID)
        throws -> Set<ConversationID>
    {
        try forgetListHeaderBackfill(gmailIDs: [gmailID], in: account)
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT id, conversation_id, internal_date_ms FROM message WHERE account_id = ? AND gmail_id = ?"
                ),
                arguments: [account, gmailID])
        else { return [] }
        let message: MessageID = row["id"]
        let current: ConversationID = row["conversation_id"]
        var listPostAddress: String?
        if case .address(let address) = headers.listPosting { listPostAddress = address.address }
        try db.cachedStatement(
            sql: """
                UPDATE message SET list_id = ?, list_name = ?, list_post_address = ?, list_read_only = ?,
                    reply_to = ?, mail_followup_to = ?
                WHERE id = ?
                """
        ).execute(arguments: [
            headers.mailingList?.id, headers.mailingList?.name, listPostAddress, headers.listPosting == .readOnly,
            try Self.addressListJSON(headers.replyTo), try Self.addressListJSON(headers.mailFollowupTo), message,
        ])
        guard let list = headers.mailingList else { return [] }

        var touched: Set<ConversationID> = []
        let learned = try recordMailingList(
            list, posting: headers.listPosting, seenAtMs: row["internal_date_ms"], in: account)
        // A message that came through a list is never routed by its recipients.
        try db.cachedStatement(sql: "DELETE FROM own_post_recipient WHERE message_id = ?").execute(arguments: [message])
        let target = try findOrCreateListConversation(list.id, in: account)
        let authors = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT address, name FROM message_participant WHERE message_id = ? AND role = 'from'"),
            arguments: [message]
        ).map { EmailAddress(address: $0["address"], name: $0["name"]) }
        try addListParticipants(authors, to: target, excluding: try aliases(of: account))
        if target != current {
            try db.cachedStatement(sql: "UPDATE message SET conversation_id = ? WHERE id = ?").execute(arguments: [
                target, message,
            ])
            touched.formUnion([current, target])
        }
        if let learned { touched.formUnion(try regroupOwnPosts(addressedTo: learned, in: account)) }
        return touched
    }

    /// Those of `gmailIDs` that are still waiting for their list headers, in one query.
    public func awaitingListHeaders(_ gmailIDs: [String], in account: AccountID) throws -> Set<String> {
        guard !gmailIDs.isEmpty else { return [] }
        return Set(
            try String.fetchAll(
                db,
                sql: """
                    SELECT b.gmail_id FROM json_each(?) AS wanted
                    CROSS JOIN list_header_backfill b ON b.account_id = ? AND b.gmail_id = wanted.value
                    """,
                arguments: [Self.jsonArray(gmailIDs), account]))
    }

    /// Takes messages off the backfill list without headers: Gmail no longer has them.
    public func forgetListHeaderBackfill(gmailIDs: [String], in account: AccountID) throws {
        guard !gmailIDs.isEmpty else { return }
        try db.execute(
            sql: """
                DELETE FROM list_header_backfill
                WHERE account_id = ? AND gmail_id IN (SELECT value FROM json_each(?))
                """,
            arguments: [account, Self.jsonArray(gmailIDs)])
    }
}
