import GRDB

extension StoreTransaction {
    /// What deny rules with `archives` did to a batch of messages.
    public struct RuleArchiving: Sendable, Equatable {
        public var messages = 0
        public var actions: [PendingAction] = []
        public var conversations: Set<ConversationID> = []

        public init() {}
    }

    /// Archives the messages among `ids` that a deny rule with `archives` decides: INBOX goes locally at
    /// once, and one archive action per rule is queued for Gmail, like a user's `archive`.
    ///
    /// A rule acts on a message once (`rule_archived`): when the message arrives or when the rule is
    /// added, never again, so a message the user moves back to the inbox stays there, even when a full
    /// sync stores it anew. A message with a live action that moves it in or out of the inbox is the
    /// user's to decide, and is left alone.
    public func archiveByRules(_ ids: [MessageID], in account: AccountID) throws -> RuleArchiving {
        var result = RuleArchiving()
        guard !ids.isEmpty else { return result }
        let json = "[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]"
        let inbox = try labelRowID(for: "INBOX", in: account)
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT m.id, m.gmail_id, m.rule_id,
                    EXISTS (SELECT 1 FROM message_label x WHERE x.message_id = m.id AND x.label_id = ?) AS in_inbox
                FROM message m JOIN rule r ON r.id = m.rule_id AND r.archives = 1
                WHERE m.id IN (SELECT value FROM json_each(?)) AND m.rule_archived = 0
                """,
            arguments: [inbox, json])
        guard !rows.isEmpty else { return result }
        try db.execute(
            sql: "UPDATE message SET rule_archived = 1 WHERE id IN (SELECT value FROM json_each(?))",
            arguments: ["[" + rows.map { String(($0["id"] as MessageID).rawValue) }.joined(separator: ",") + "]"])

        let inboxKinds: Set<PendingActionKind> = [.archive, .unarchive, .trash, .untrash]
        let userDecided = Set(
            try pendingActions(in: account, statuses: [.pending, .processing, .failed])
                .filter { inboxKinds.contains($0.kind) }.flatMap(\.targetIDs))
        var byRule: [RuleID: [String]] = [:]
        for row in rows where row["in_inbox"] as Bool {
            let gmailID: String = row["gmail_id"]
            guard !userDecided.contains(gmailID) else { continue }
            byRule[row["rule_id"], default: []].append(gmailID)
        }
        let rules = try rules(in: account)
        for (ruleID, gmailIDs) in byRule.sorted(by: { $0.key < $1.key }) {
            result.conversations.formUnion(
                try modifyLabels(adding: [], removing: ["INBOX"], onMessages: gmailIDs, in: account))
            let rule = rules.first { $0.id == ruleID }
            let target = rule.map { "rule \($0.id.rawValue) (deny \($0.field.rawValue) \($0.pattern))" } ?? "a rule"
            result.actions.append(
                try insertPendingAction(kind: .archive, target: target, gmailIDs: gmailIDs, in: account))
            result.messages += gmailIDs.count
        }
        return result
    }
}
