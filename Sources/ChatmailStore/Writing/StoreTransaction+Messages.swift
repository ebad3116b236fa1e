import GRDB

extension StoreTransaction {
    /// Inserts `message`, or updates it when its Gmail id is already stored, with its participants,
    /// labels and attachments.
    ///
    /// The conversation is chosen here against ALL of the account's aliases and known lists, so identity
    /// cannot depend on the caller: the list's conversation for a message with a List-Id or for the
    /// account's own post to a list's posting address, the participant set's otherwise (see
    /// `StoreTransaction+MailingLists.swift`). When the message teaches a list's posting address, the
    /// account's earlier posts to it move into the list (``MessageUpsert/regroupedConversations``).
    ///
    /// Rollups are NOT recomputed: pass ``MessageUpsert/affectedConversations`` to
    /// ``recomputeRollups(for:)`` once per batch, in the same transaction.
    @discardableResult
    public func upsert(_ message: MessageInput, in account: AccountID) throws -> MessageUpsert {
        let aliases = try aliases(of: account)
        let from = message.from ?? EmailAddress(address: "")
        let isFromMe = aliases.contains(from.normalizedAddress)
        let learnedPostAddress = try recordMailingList(of: message, in: account)
        // Only the account's own posts without a List-Id can be routed by a posting address.
        let ownPostRecipients =
            isFromMe && message.mailingList == nil ? (message.to + message.cc).map(\.normalizedAddress) : []
        let conversation: ConversationID
        if let list = message.mailingList {
            conversation = try findOrCreateListConversation(list.id, in: account)
            try addListParticipants(message.authors, to: conversation, excluding: aliases)
        } else if !ownPostRecipients.isEmpty, let list = try listPostedTo(ownPostRecipients, in: account) {
            conversation = try findOrCreateListConversation(list, in: account)
        } else {
            let participants = ParticipantSet(
                authors: message.authors, to: message.to, cc: message.cc, excluding: aliases)
            conversation = try findOrCreateConversation(for: participants, in: account)
        }

        let reasons = message.newsletterReasons.isEmpty ? nil : message.newsletterReasons.joined(separator: "; ")
        let historyID = message.historyID.map { String($0) }
        var listPostAddress: String?
        if case .address(let address) = message.listPosting { listPostAddress = address.address }
        let listReadOnly = message.listPosting == .readOnly
        let replyTo = try Self.addressListJSON(message.replyTo)
        let mailFollowupTo = try Self.addressListJSON(message.mailFollowupTo)
        let references = message.references.isEmpty ? nil : message.references.joined(separator: " ")
        let rule = try decidingRule(for: message, isFromMe: isFromMe, in: account)
        let subjectBase = self.subjectBase(message.subject)

        // New messages are the common case: try the insert first, and fall back to an update only when
        // the UNIQUE (account_id, gmail_id) constraint says the message is already stored.
        let insert = DirectBinding.prepare(
            try db.cachedStatement(
                sql: """
                    INSERT INTO message (account_id, gmail_id, thread_id, conversation_id, internal_date_ms,
                        from_address, from_name, subject, snippet, body_text, original_text,
                        quoted_text_removed, is_newsletter, newsletter_reason, is_from_me, size_estimate,
                        gmail_history_id, list_id, list_name, list_post_address, list_read_only, reply_to,
                        mail_followup_to, rfc822_message_id, references_header, verification_code,
                        verification_service, rule_id, rule_action, subject_base)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (account_id, gmail_id) DO NOTHING
                    """))
        insert.bind(account.rawValue, at: 1)
        insert.bind(message.gmailID, at: 2)
        insert.bind(message.threadID, at: 3)
        insert.bind(conversation.rawValue, at: 4)
        insert.bind(message.internalDateMs, at: 5)
        insert.bind(from.address, at: 6)
        insert.bind(from.name, at: 7)
        insert.bind(message.subject, at: 8)
        insert.bind(message.gmailSnippet, at: 9)
        insert.bind(message.bodyText, at: 10)
        insert.bind(message.originalText, at: 11)
        insert.bind(message.quotedTextRemoved, at: 12)
        insert.bind(message.isNewsletter, at: 13)
        insert.bind(reasons, at: 14)
        insert.bind(isFromMe, at: 15)
        insert.bind(message.sizeEstimate, at: 16)
        insert.bind(historyID, at: 17)
        insert.bind(message.mailingList?.id, at: 18)
        insert.bind(message.mailingList?.name, at: 19)
        insert.bind(listPostAddress, at: 20)
        insert.bind(listReadOnly, at: 21)
        insert.bind(replyTo, at: 22)
        insert.bind(mailFollowupTo, at: 23)
        insert.bind(message.rfc822MessageID, at: 24)
        insert.bind(references, at: 25)
        insert.bind(message.verificationCode?.code, at: 26)
        insert.bind(message.verificationCode?.service, at: 27)
        insert.bind(rule?.id.rawValue, at: 28)
        insert.bind(rule?.action.rawValue, at: 29)
        insert.bind(subjectBase, at: 30)
        try insert.execute()
        let messageID: MessageID
        var previousConversation: ConversationID?
        var replacedCarriers: Set<ListCarrier> = []
        let wasInserted = db.changesCount == 1
        if wasInserted {
            messageID = MessageID(rawValue: db.lastInsertedRowID)
            searchIndex.messageInserted(messageID)
        } else {
            guard
                let existing = try Row.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT id, conversation_id FROM message WHERE account_id = ? AND gmail_id = ?"),
                    arguments: [account, message.gmailID])
            else {
                preconditionFailure("A message that conflicted on insert is missing inside the same transaction")
            }
            messageID = existing["id"]
            replacedCarriers = try listCarriers(of: [messageID])
            let oldConversation: ConversationID = existing["conversation_id"]
            if oldConversation != conversation { previousConversation = oldConversation }
            try searchIndex.messageWillChange(messageID, in: db)
            try db.cachedStatement(
                sql: """
                    UPDATE message SET thread_id = ?, conversation_id = ?, internal_date_ms = ?, from_address = ?,
                        from_name = ?, subject = ?, snippet = ?, body_text = ?, original_text = ?,
                        quoted_text_removed = ?, is_newsletter = ?, newsletter_reason = ?,
                        is_from_me = ?, size_estimate = ?, gmail_history_id = ?, list_id = ?, list_name = ?,
                        list_post_address = ?, list_read_only = ?, reply_to = ?, mail_followup_to = ?,
                        rfc822_message_id = ?, references_header = ?, verification_code = ?,
                        verification_service = ?, rule_id = ?, rule_action = ?, subject_base = ?
                    WHERE id = ?
                    """
            ).execute(arguments: [
                message.threadID, conversation, message.internalDateMs, from.address, from.name,
                message.subject, message.gmailSnippet, message.bodyText, message.originalText,
                message.quotedTextRemoved, message.isNewsletter, reasons,
                isFromMe, message.sizeEstimate, historyID, message.mailingList?.id, message.mailingList?.name,
                listPostAddress, listReadOnly, replyTo, mailFollowupTo, message.rfc822MessageID, references,
                message.verificationCode?.code, message.verificationCode?.service, rule?.id, rule?.action,
                subjectBase, messageID,
            ])
            for table in ["message_participant", "message_label", "attachment", "own_post_recipient"] {
                try db.cachedStatement(sql: "DELETE FROM \(table) WHERE message_id = ?").execute(arguments: [messageID])
            }
            // Stored again in full, the message has its list headers now.
            try forgetListHeaderBackfill(gmailIDs: [message.gmailID], in: account)
        }

        try insertParticipants(of: message, into: messageID)
        try insertLabels(message.labelIDs, into: messageID, in: account)
        try insertAttachments(message.attachments, into: messageID)
        try recordOwnPostRecipients(ownPostRecipients, of: messageID, in: account)
        if isFromMe {
            try recordCorrespondents((message.to + message.cc + message.bcc).map(\.normalizedAddress), in: account)
        }
        var regrouped = try learnedPostAddress.map { try regroupOwnPosts(addressedTo: $0, in: account) } ?? []
        if let list = message.mailingList {
            replacedCarriers.remove(ListCarrier(listID: list.id, postAddress: listPostAddress))
        }
        regrouped.formUnion(try reconcileLists(after: replacedCarriers, in: account))
        return MessageUpsert(
            messageID: messageID, conversationID: conversation, previousConversationID: previousConversation,
            regroupedConversations: regrouped, wasInserted: wasInserted, decidedByArchivingRule: rule?.archives ?? false
        )
    }

    private func insertParticipants(of message: MessageInput, into messageID: MessageID) throws {
        let insert = DirectBinding.prepare(
            try db.cachedStatement(
                sql: """
                    INSERT INTO message_participant (message_id, role, address_normalized, address, name)
                    VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                    """))
        insert.bind(messageID.rawValue, at: 1)
        func insertAll(_ role: ParticipantRole, _ addresses: [EmailAddress]) throws {
            insert.bind(role.rawValue, at: 2)
            for address in addresses {
                insert.bind(address.normalizedAddress, at: 3)
                insert.bind(address.address, at: 4)
                insert.bind(address.name, at: 5)
                try insert.execute()
            }
        }
        try insertAll(.from, message.authors)
        try insertAll(.to, message.to)
        try insertAll(.cc, message.cc)
        try insertAll(.bcc, message.bcc)
    }

    private func insertLabels(_ labelIDs: [String], into messageID: MessageID, in account: AccountID) throws {
        let insert = DirectBinding.prepare(
            try db.cachedStatement(
                sql: "INSERT INTO message_label (message_id, label_id) VALUES (?, ?) ON CONFLICT DO NOTHING"))
        insert.bind(messageID.rawValue, at: 1)
        for gmailID in labelIDs {
            insert.bind(try labelRowID(for: gmailID, in: account), at: 2)
            try insert.execute()
        }
    }

    private func insertAttachments(_ attachments: [MessageInput.Attachment], into messageID: MessageID) throws {
        guard !attachments.isEmpty else { return }
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO attachment (message_id, part_id, filename, mime_type, size, content_id, is_inline,
                    gmail_attachment_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (message_id, part_id) DO NOTHING
                """)
        for item in attachments {
            try insert.execute(arguments: [
                messageID, item.partID, item.filename, item.mimeType, item.size, item.contentID, item.isInline,
                item.gmailAttachmentID,
            ])
        }
    }

    /// Adds and removes labels on stored messages, looked up in one batch by Gmail id.
    ///
    /// Unknown Gmail ids are ignored: a label change on a message we never stored has nothing to change.
    /// - returns: the conversations of the messages that exist, for the ModificationTracker.
    @discardableResult
    public func modifyLabels(
        adding added: [String], removing removed: [String], onMessages gmailIDs: [String], in account: AccountID
    ) throws -> Set<ConversationID> {
        let rows = try messageRows(forGmailIDs: gmailIDs, in: account)
        guard !rows.isEmpty else { return [] }
        let addRows = try added.map { try labelRowID(for: $0, in: account) }
        let removeRows = try removed.map { try labelRowID(for: $0, in: account) }
        let insert = try db.cachedStatement(
            sql: "INSERT INTO message_label (message_id, label_id) VALUES (?, ?) ON CONFLICT DO NOTHING")
        let delete = try db.cachedStatement(sql: "DELETE FROM message_label WHERE message_id = ? AND label_id = ?")
        for row in rows {
            for label in addRows { try insert.execute(arguments: [row.message, label]) }
            for label in removeRows { try delete.execute(arguments: [row.message, label]) }
        }
        return Set(rows.map(\.conversation))
    }

    /// Replaces the whole label set of stored messages (used when labels are re-fetched from Gmail).
    @discardableResult
    public func replaceLabels(_ labelIDs: [String], onMessage gmailID: String, in account: AccountID) throws
        -> ConversationID?
    {
        guard let row = try messageRows(forGmailIDs: [gmailID], in: account).first else { return nil }
        try db.cachedStatement(sql: "DELETE FROM message_label WHERE message_id = ?").execute(arguments: [row.message])
        try insertLabels(labelIDs, into: row.message, in: account)
        return row.conversation
    }

    /// Deletes stored messages by Gmail id; unknown ids are ignored (deleting twice is not an error).
    ///
    /// A list whose last carrier of a name or posting address goes is brought back in line with the
    /// messages left, and the account's posts routed by a forgotten address go back to their people.
    /// - returns: the conversations that lost a message, and those posts left or joined.
    @discardableResult
    public func deleteMessages(gmailIDs: [String], in account: AccountID) throws -> Set<ConversationID> {
        let rows = try messageRows(forGmailIDs: gmailIDs, in: account)
        let lost = try listCarriers(of: rows.map(\.message))
        let delete = try db.cachedStatement(sql: "DELETE FROM message WHERE id = ?")
        for row in rows {
            try searchIndex.messageWillBeDeleted(row.message, in: db)
            try delete.execute(arguments: [row.message])
        }
        return Set(rows.map(\.conversation)).union(try reconcileLists(after: lost, in: account))
    }

    /// Local ids and conversations of stored messages, in one query however many ids are asked for.
    package func messageRows(forGmailIDs gmailIDs: [String], in account: AccountID) throws -> [(
        message: MessageID, conversation: ConversationID
    )] {
        guard !gmailIDs.isEmpty else { return [] }
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT m.id, m.conversation_id \(Self.wantedMessagesJoin)"),
            arguments: [Self.jsonArray(gmailIDs), account])
        return rows.map { (message: $0["id"], conversation: $0["conversation_id"]) }
    }

    /// `FROM` clause matching a JSON array of Gmail ids (first argument) to the account's (second) messages.
    ///
    /// CROSS JOIN pins `json_each` as the outer loop. With a plain JOIN, SQLite (which has no statistics
    /// for `json_each`) scans every message of the account instead, which made incremental sync cost grow
    /// with the mailbox. `QueryPlanTests` holds this in place.
    package static let wantedMessagesJoin =
        "FROM json_each(?) AS wanted CROSS JOIN message m ON m.account_id = ? AND m.gmail_id = wanted.value"

    /// A JSON array of strings, for `json_each` parameters.
    static func jsonArray(_ strings: [String]) -> String {
        var json = "["
        for (index, string) in strings.enumerated() {
            if index > 0 { json += "," }
            json += "\""
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": json += "\\\""
                case "\\": json += "\\\\"
                case _ where scalar.value < 0x20:
                    json +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                default: json.unicodeScalars.append(scalar)
                }
            }
            json += "\""
        }
        return json + "]"
    }
}

extension StoreTransaction {
    /// The Gmail label ids of the stored messages among `gmailIDs`, in one query; unknown ids are absent.
    public func labelIDs(ofMessages gmailIDs: [String], in account: AccountID) throws -> [String: Set<String>] {
        guard !gmailIDs.isEmpty else { return [:] }
        var result: [String: Set<String>] = [:]
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT m.gmail_id, l.gmail_id AS label \(Self.wantedMessagesJoin)
                LEFT JOIN message_label ml ON ml.message_id = m.id
                LEFT JOIN label l ON l.id = ml.label_id
                """,
            arguments: [Self.jsonArray(gmailIDs), account])
        for row in rows {
            let id: String = row["gmail_id"]
            var labels = result[id] ?? []
            if let label: String = row["label"] { labels.insert(label) }
            result[id] = labels
        }
        return result
    }
}
