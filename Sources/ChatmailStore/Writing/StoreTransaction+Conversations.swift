import GRDB

extension StoreTransaction {
    /// Returns the conversation for `participants`, creating it when it does not exist yet.
    ///
    /// Safe under concurrent callers, even in other processes: the insert is `ON CONFLICT DO NOTHING`
    /// against the UNIQUE (account_id, participant_hash) constraint, and the id is read back in the
    /// same transaction, so two writers racing on one new participant set end with ONE conversation.
    public func findOrCreateConversation(for participants: ParticipantSet, in account: AccountID) throws
        -> ConversationID
    {
        let cacheKey = participants.hashInput
        if let cached = conversationCache[account]?[cacheKey] { return cached }
        let hash = participants.hash
        let select = try db.cachedStatement(
            sql: "SELECT id FROM conversation WHERE account_id = ? AND participant_hash = ?")
        let id: ConversationID
        if let existing = try ConversationID.fetchOne(select, arguments: [account, hash]) {
            id = existing
        } else {
            let title = ConversationTitle.make(
                for: participants.members.map { EmailAddress(address: $0.address, name: $0.name) })
            try db.cachedStatement(
                sql: """
                    INSERT INTO conversation (account_id, participant_hash, title, created_at_ms)
                    VALUES (?, ?, ?, ?) ON CONFLICT (account_id, participant_hash) DO NOTHING
                    """
            ).execute(arguments: [account, hash, title, nowMs])
            guard let created = try ConversationID.fetchOne(select, arguments: [account, hash]) else {
                preconditionFailure("Conversation row vanished inside its own transaction")
            }
            id = created
            let insertMember = try db.cachedStatement(
                sql: """
                    INSERT INTO conversation_participant (conversation_id, address_normalized, address, display_name)
                    VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """)
            for member in participants.members {
                try insertMember.execute(arguments: [id, member.normalizedAddress, member.address, member.name])
            }
        }
        conversationCache[account, default: [:]][cacheKey] = id
        return id
    }
}

extension StoreTransaction {
    /// Drops deleted conversations from this transaction's cache, so a later message from the same
    /// people creates a new conversation instead of pointing at a deleted row.
    func forgetConversations(_ deleted: Set<ConversationID>) {
        guard !deleted.isEmpty else { return }
        for (account, byKey) in conversationCache {
            conversationCache[account] = byKey.filter { !deleted.contains($0.value) }
        }
    }
}
