import GRDB

extension StoreTransaction {
    /// Returns the conversation for `participants`, creating it when it does not exist yet.
    ///
    /// Safe under concurrent callers, even in other processes: the insert is `ON CONFLICT DO NOTHING`
    /// against the UNIQUE (account_id, participant_hash) constraint, and the id is read back in the
    /// same transaction, so two writers racing on one new participant set end with ONE conversation.
    public func findOrCreateConversation(for participants: ParticipantSet, in account: AccountID) throws -> ConversationID {
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

    /// Keeps participants' display names current: the name on the newest message that had one wins,
    /// whatever order messages are stored in.
    ///
    /// Most messages repeat what the store already has, so what this transaction wrote is remembered
    /// and the statement is skipped when it could not change anything.
    func refreshParticipantNames(_ participants: ParticipantSet, in conversation: ConversationID, seenAtMs: Int64) throws {
        var update: DirectBinding?
        for member in participants.members {
            guard let name = member.name else { continue }
            let key = ParticipantKey(conversation: conversation, address: member.normalizedAddress)
            if let known = knownParticipantNames[key], known.name == name || known.seenAtMs >= seenAtMs { continue }
            if update == nil {
                update = DirectBinding.prepare(try db.cachedStatement(
                    sql: """
                        UPDATE conversation_participant SET display_name = ?1, display_name_at_ms = ?2
                        WHERE conversation_id = ?3 AND address_normalized = ?4
                          AND (display_name_at_ms IS NULL OR display_name_at_ms <= ?2)
                        """))
            }
            update?.bind(name, at: 1)
            update?.bind(seenAtMs, at: 2)
            update?.bind(conversation.rawValue, at: 3)
            update?.bind(member.normalizedAddress, at: 4)
            try update?.execute()
            knownParticipantNames[key] = (name, seenAtMs)
        }
    }
}

/// A participant of one conversation, as a cache key.
struct ParticipantKey: Hashable {
    var conversation: ConversationID
    var address: String
}
