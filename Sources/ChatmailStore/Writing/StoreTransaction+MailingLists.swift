import Foundation
import GRDB

/// Mailing lists: each list is one conversation.
///
/// The rule, in order: a message with a List-Id belongs to its list's conversation; a message from the
/// account without a List-Id whose To or Cc holds a known posting address of a list (the first such address
/// in To order, then Cc order) belongs to that list's conversation; any other message belongs to its
/// participant set's conversation. Posting addresses are learned from List-Post headers, and learning one
/// moves the account's earlier posts to it, so the order messages arrive in cannot change where any of them
/// ends up; deleting the last message that carried one undoes it (`StoreTransaction+ListReconcile.swift`).
extension StoreTransaction {
    /// Records what `message` says about its list, and returns the posting address it teaches for the
    /// first time, if any (its normalized form).
    func recordMailingList(of message: MessageInput, in account: AccountID) throws -> String? {
        guard let list = message.mailingList else { return nil }
        return try recordMailingList(list, posting: message.listPosting, seenAtMs: message.internalDateMs, in: account)
    }

    /// Records `list` as seen on a message dated `date` with `posting`; returns the posting address it
    /// teaches for the first time, if any (normalized).
    func recordMailingList(
        _ list: MessageInput.MailingList, posting: MessageInput.ListPosting?, seenAtMs date: Int64,
        in account: AccountID
    ) throws -> String? {
        var postAddress: EmailAddress?
        var isReadOnly = false
        switch posting {
        case .address(let address): postAddress = address
        case .readOnly: isReadOnly = true
        case nil: break
        }
        let nameSeen: Int64? = list.name == nil ? nil : date
        let postSeen: Int64? = posting == nil ? nil : date
        // Every right-hand side reads the row as it was, so each column group compares its own date.
        // Equal dates pick the greater value, as `recomputeMailingList` does, so no order of arrival or
        // deletion can leave a different name or posting address.
        try db.cachedStatement(
            sql: """
                INSERT INTO mailing_list (account_id, list_id, name, name_seen_ms, post_address,
                    post_address_normalized, is_read_only, post_seen_ms, first_seen_ms, last_seen_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (account_id, list_id) DO UPDATE SET
                    name = CASE WHEN \(Self.newerName) THEN excluded.name ELSE name END,
                    name_seen_ms = CASE WHEN \(Self.newerName) THEN excluded.name_seen_ms ELSE name_seen_ms END,
                    post_address = CASE WHEN \(Self.newerPosting) THEN excluded.post_address ELSE post_address END,
                    post_address_normalized = CASE WHEN \(Self.newerPosting)
                        THEN excluded.post_address_normalized ELSE post_address_normalized END,
                    is_read_only = CASE WHEN \(Self.newerPosting) THEN excluded.is_read_only ELSE is_read_only END,
                    post_seen_ms = CASE WHEN \(Self.newerPosting) THEN excluded.post_seen_ms ELSE post_seen_ms END,
                    first_seen_ms = min(first_seen_ms, excluded.first_seen_ms),
                    last_seen_ms = max(last_seen_ms, excluded.last_seen_ms)
                """
        ).execute(arguments: [
            account, list.id, list.name, nameSeen, postAddress?.address, postAddress?.normalizedAddress,
            isReadOnly, postSeen, date, date,
        ])
        guard let postAddress, !postAddress.normalizedAddress.isEmpty else { return nil }
        try db.cachedStatement(
            sql: """
                INSERT INTO mailing_list_post_address (account_id, address_normalized, list_id) VALUES (?, ?, ?)
                ON CONFLICT DO NOTHING
                """
        ).execute(arguments: [account, postAddress.normalizedAddress, list.id])
        return db.changesCount == 1 ? postAddress.normalizedAddress : nil
    }

    /// The list whose known posting address comes first among `recipients` (normalized, in header order),
    /// or `nil` when none is one. An address two lists share picks the smaller list id.
    func listPostedTo(_ recipients: [String], in account: AccountID) throws -> String? {
        let select = try db.cachedStatement(
            sql: """
                SELECT list_id FROM mailing_list_post_address WHERE account_id = ? AND address_normalized = ?
                ORDER BY list_id LIMIT 1
                """)
        for recipient in recipients where !recipient.isEmpty {
            if let list = try String.fetchOne(select, arguments: [account, recipient]) { return list }
        }
        return nil
    }

    /// Returns the conversation of the list `listID`, creating it when it does not exist yet.
    ///
    /// Concurrent callers end with one conversation for the same reason as participant sets: the insert
    /// yields to the UNIQUE (account_id, participant_hash) constraint and the id is read back.
    func findOrCreateListConversation(_ listID: String, in account: AccountID) throws -> ConversationID {
        let cacheKey = ListConversationKey.hashInput(listID: listID)
        if let cached = conversationCache[account]?[cacheKey] { return cached }
        let hash = ListConversationKey.hash(listID: listID)
        let select = try db.cachedStatement(
            sql: "SELECT id FROM conversation WHERE account_id = ? AND participant_hash = ?")
        if try ConversationID.fetchOne(select, arguments: [account, hash]) == nil {
            let name = try String.fetchOne(
                db.cachedStatement(sql: "SELECT name FROM mailing_list WHERE account_id = ? AND list_id = ?"),
                arguments: [account, listID])
            try db.cachedStatement(
                sql: """
                    INSERT INTO conversation (account_id, participant_hash, list_id, title, created_at_ms)
                    VALUES (?, ?, ?, ?, ?) ON CONFLICT (account_id, participant_hash) DO NOTHING
                    """
            ).execute(arguments: [account, hash, listID, name ?? listID, nowMs])
        }
        guard let id = try ConversationID.fetchOne(select, arguments: [account, hash]) else {
            preconditionFailure("Conversation row vanished inside its own transaction")
        }
        conversationCache[account, default: [:]][cacheKey] = id
        return id
    }

    /// Adds the authors of a list message (except the account) to the list conversation's participants:
    /// a list conversation is with everyone who has written to it.
    func addListParticipants(_ authors: [EmailAddress], to conversation: ConversationID, excluding aliases: Set<String>)
        throws
    {
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO conversation_participant (conversation_id, address_normalized, address, display_name)
                VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING
                """)
        for author in authors where !author.normalizedAddress.isEmpty && !aliases.contains(author.normalizedAddress) {
            try insert.execute(arguments: [conversation, author.normalizedAddress, author.address, author.name])
        }
    }

    /// Remembers the To and Cc recipients of one of the account's own posts without a List-Id, in order,
    /// so that learning a posting address later finds it.
    func recordOwnPostRecipients(_ recipients: [String], of message: MessageID, in account: AccountID) throws {
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO own_post_recipient (message_id, position, account_id, address_normalized)
                VALUES (?, ?, ?, ?)
                """)
        for (position, recipient) in recipients.enumerated() {
            try insert.execute(arguments: [message, position, account, recipient])
        }
    }

    /// Moves the account's stored posts addressed to `postAddress` (normalized), just learned or just
    /// forgotten as a list's posting address, into the conversation the rule now gives them.
    ///
    /// Only posts with that recipient are read, through `own_post_recipient_by_address`.
    /// - returns: every conversation a post left or joined, for the rollups.
    func regroupOwnPosts(addressedTo postAddress: String, in account: AccountID) throws -> Set<ConversationID> {
        let candidates = try Row.fetchAll(
            db.cachedStatement(sql: Self.ownPostsToAddressSQL), arguments: [account, postAddress])
        guard !candidates.isEmpty else { return [] }
        let recipientsOf = try db.cachedStatement(
            sql: "SELECT address_normalized FROM own_post_recipient WHERE message_id = ? ORDER BY position")
        let move = try db.cachedStatement(sql: "UPDATE message SET conversation_id = ? WHERE id = ?")
        var touched: Set<ConversationID> = []
        for candidate in candidates {
            let message: MessageID = candidate["message_id"]
            let current: ConversationID = candidate["conversation_id"]
            let recipients = try String.fetchAll(recipientsOf, arguments: [message])
            let target: ConversationID
            if let list = try listPostedTo(recipients, in: account) {
                target = try findOrCreateListConversation(list, in: account)
            } else {
                // The address no longer routes anywhere (its last carrier is gone): back to its people.
                target = try participantConversation(ofStoredMessage: message, in: account)
            }
            guard target != current else { continue }
            try move.execute(arguments: [target, message])
            touched.formUnion([current, target])
        }
        return touched
    }
}

extension StoreTransaction {
    /// Whether the row being upserted has a newer list name than the stored row (date, then value).
    private static let newerName = """
        (excluded.name_seen_ms > coalesce(name_seen_ms, -1) OR (excluded.name_seen_ms = name_seen_ms
            AND excluded.name > name))
        """

    /// Whether the row being upserted has a newer List-Post than the stored row (date, then address).
    private static let newerPosting = """
        (excluded.post_seen_ms > coalesce(post_seen_ms, -1) OR (excluded.post_seen_ms = post_seen_ms
            AND coalesce(excluded.post_address, '') > coalesce(post_address, '')))
        """

    /// The participant-set conversation of a stored message, from its stored From, To and Cc.
    func participantConversation(ofStoredMessage message: MessageID, in account: AccountID) throws
        -> ConversationID
    {
        var byRole: [String: [EmailAddress]] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT role, address, name FROM message_participant WHERE message_id = ?"),
            arguments: [message])
        {
            byRole[row["role"], default: []].append(EmailAddress(row, address: "address", name: "name"))
        }
        let participants = ParticipantSet(
            authors: byRole["from"] ?? [], to: byRole["to"] ?? [], cc: byRole["cc"] ?? [],
            excluding: try aliases(of: account))
        return try findOrCreateConversation(for: participants, in: account)
    }

    /// The account's (first argument) own posts without a List-Id that were sent to an address (second),
    /// with their conversations. `QueryPlanTests` holds it on `own_post_recipient_by_address`.
    package static let ownPostsToAddressSQL = """
        SELECT DISTINCT r.message_id, m.conversation_id
        FROM own_post_recipient r JOIN message m ON m.id = r.message_id
        WHERE r.account_id = ? AND r.address_normalized = ?
        """

    /// A JSON array of `{"address", "name"}` objects for the Reply-To and Mail-Followup-To columns, or
    /// `nil` when the header named nobody.
    static func addressListJSON(_ addresses: [EmailAddress]?) throws -> String? {
        guard let addresses, !addresses.isEmpty else { return nil }
        // Sorted keys: the same addresses always give the same bytes, so re-storing a message is a no-op.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(addresses), as: UTF8.self)
    }
}
