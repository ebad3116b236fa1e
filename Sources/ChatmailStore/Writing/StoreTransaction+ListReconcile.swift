import GRDB

/// What the list tables say is derived from the stored messages alone, so that a mailbox synced from
/// scratch and one kept up to date through deletions end in the same state.
///
/// Storing a message can only add to a list (`recordMailingList`); deleting one, or storing it again with
/// other list headers, can take away the last message that carried a posting address, a name, or the list
/// itself. `reconcileLists(after:in:)` then recomputes the affected `mailing_list` rows from the messages
/// left, forgets posting addresses no message carries any more, and moves the account's posts that were
/// routed by them back to the conversation the identity rule now gives them.
extension StoreTransaction {
    /// The list headers one stored message carried: the list and its raw posting address.
    struct ListCarrier: Hashable {
        var listID: String
        var postAddress: String?
    }

    /// The list headers the given messages carry now, read before they are deleted or rewritten.
    func listCarriers(of messages: [MessageID]) throws -> Set<ListCarrier> {
        guard !messages.isEmpty else { return [] }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.list_id, m.list_post_address FROM json_each(?) AS wanted
                    CROSS JOIN message m ON m.id = wanted.value
                    WHERE m.list_id IS NOT NULL
                    """),
            arguments: [Self.jsonArray(messages.map { String($0.rawValue) })])
        return Set(rows.map { ListCarrier(listID: $0["list_id"], postAddress: $0["list_post_address"]) })
    }

    /// Brings the list tables back in line with the stored messages after `lost` carriers went away.
    /// - returns: every conversation a post left or joined, for the rollups.
    func reconcileLists(after lost: Set<ListCarrier>, in account: AccountID) throws -> Set<ConversationID> {
        guard !lost.isEmpty else { return [] }
        var orphanedAddresses: Set<String> = []
        for listID in Set(lost.map(\.listID)).sorted() {
            if try recomputeMailingList(listID, in: account) {
                let lostAddresses = lost.filter { $0.listID == listID }.compactMap(\.postAddress)
                for normalized in Set(lostAddresses.map { EmailAddress(address: $0).normalizedAddress })
                where !normalized.isEmpty {
                    let carried = try listCarries(
                        listID, postAddressNormalized: normalized, rawHints: lostAddresses, in: account)
                    if !carried { orphanedAddresses.insert(try forgetPostAddress(normalized, of: listID, in: account)) }
                }
            } else {
                // No message of the list is left: neither is anything it taught.
                let addresses = try String.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT address_normalized FROM mailing_list_post_address
                            WHERE account_id = ? AND list_id = ?
                            """),
                    arguments: [account, listID])
                for address in addresses {
                    orphanedAddresses.insert(try forgetPostAddress(address, of: listID, in: account))
                }
            }
        }
        var touched: Set<ConversationID> = []
        for address in orphanedAddresses.sorted() {
            touched.formUnion(try regroupOwnPosts(addressedTo: address, in: account))
        }
        return touched
    }

    /// Rewrites the `mailing_list` row of `listID` from its stored messages, with the same choice
    /// `recordMailingList` makes incrementally (newest date wins; on equal dates, the greater value), or
    /// deletes it when none is left.
    /// - returns: `false` when the list has no stored message any more.
    private func recomputeMailingList(_ listID: String, in account: AccountID) throws -> Bool {
        let arguments: StatementArguments = [account, listID]
        guard
            let span = try Row.fetchOne(
                db.cachedStatement(sql: Self.listSpanSQL), arguments: arguments),
            let first: Int64 = span["first"]
        else {
            try db.cachedStatement(sql: "DELETE FROM mailing_list WHERE account_id = ? AND list_id = ?")
                .execute(arguments: arguments)
            return false
        }
        let name = try Row.fetchOne(db.cachedStatement(sql: Self.listNameSQL), arguments: arguments)
        let posting = try Row.fetchOne(db.cachedStatement(sql: Self.listPostingSQL), arguments: arguments)
        let postAddress: String? = posting?["list_post_address"]
        try db.cachedStatement(
            sql: """
                UPDATE mailing_list SET name = ?, name_seen_ms = ?, post_address = ?, post_address_normalized = ?,
                    is_read_only = ?, post_seen_ms = ?, first_seen_ms = ?, last_seen_ms = ?
                WHERE account_id = ? AND list_id = ?
                """
        ).execute(arguments: [
            name?["list_name"], name?["internal_date_ms"], postAddress,
            postAddress.map { EmailAddress(address: $0).normalizedAddress }, posting?["list_read_only"] ?? false,
            posting?["internal_date_ms"], first, span["last"], account, listID,
        ])
        return true
    }

    /// Whether a stored message of `listID` still carries the posting address `normalized`.
    ///
    /// The raw spellings just lost are tried first, through an exact match that stops at the first row;
    /// only when none is left are the list's other spellings read and normalized.
    private func listCarries(
        _ listID: String, postAddressNormalized normalized: String, rawHints: [String], in account: AccountID
    ) throws -> Bool {
        let exact = try db.cachedStatement(sql: Self.listCarriesSpellingSQL)
        for raw in Set(rawHints) where EmailAddress(address: raw).normalizedAddress == normalized {
            if try Bool.fetchOne(exact, arguments: [account, listID, raw]) != nil { return true }
        }
        let spellings = try String.fetchAll(
            db.cachedStatement(sql: Self.listPostSpellingsSQL), arguments: [account, listID])
        return spellings.contains { EmailAddress(address: $0).normalizedAddress == normalized }
    }

    /// Deletes one learned posting address of a list and returns it.
    private func forgetPostAddress(_ normalized: String, of listID: String, in account: AccountID) throws -> String {
        try db.cachedStatement(
            sql: "DELETE FROM mailing_list_post_address WHERE account_id = ? AND address_normalized = ? AND list_id = ?"
        ).execute(arguments: [account, normalized, listID])
        return normalized
    }
}

/// The reads of a list's messages (account, then list id), each through `message_by_list` (`QueryTests`).
extension StoreTransaction {
    /// The oldest and newest message dates of a list; both NULL when it has no message left.
    package static let listSpanSQL = """
        SELECT min(internal_date_ms) AS first, max(internal_date_ms) AS last
        FROM message WHERE account_id = ? AND list_id = ?
        """

    /// The list's newest name: newest date first, the greater name on equal dates.
    package static let listNameSQL = """
        SELECT list_name, internal_date_ms FROM message
        WHERE account_id = ? AND list_id = ? AND list_name IS NOT NULL
        ORDER BY internal_date_ms DESC, list_name DESC LIMIT 1
        """

    /// The list's newest List-Post: newest date first, the greater address on equal dates.
    package static let listPostingSQL = """
        SELECT list_post_address, list_read_only, internal_date_ms FROM message
        WHERE account_id = ? AND list_id = ? AND (list_post_address IS NOT NULL OR list_read_only = 1)
        ORDER BY internal_date_ms DESC, coalesce(list_post_address, '') DESC LIMIT 1
        """

    /// Whether a message of the list carries one spelling (third argument) of a posting address.
    package static let listCarriesSpellingSQL =
        "SELECT 1 FROM message WHERE account_id = ? AND list_id = ? AND list_post_address = ? LIMIT 1"

    /// Every spelling of a posting address the list's messages carry.
    package static let listPostSpellingsSQL = """
        SELECT DISTINCT list_post_address FROM message
        WHERE account_id = ? AND list_id = ? AND list_post_address IS NOT NULL
        """
}
