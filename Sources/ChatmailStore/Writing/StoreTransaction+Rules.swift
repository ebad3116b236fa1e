import Foundation
import GRDB

/// What adding, removing or importing rules changed.
public struct RuleChange: Sendable, Equatable {
    /// The rules added, oldest first.
    public var added: [Rule] = []
    /// Existing rules given again whose `archives` changed.
    public var updated: [Rule] = []
    /// The rules removed.
    public var removed: [Rule] = []
    /// Messages whose deciding rule changed.
    public var messagesRedecided = 0
    /// Conversations whose rollups the change affects: report them to the ModificationTracker.
    public var conversations: Set<ConversationID> = []
    /// Messages that deny rules archived locally, and queued for Gmail.
    public var messagesArchived = 0
    /// The queued archive actions, one per archiving rule.
    public var archiveActions: [PendingAction] = []

    public init() {}
}

extension StoreTransaction {
    /// The account's rules, prepared for judging messages; read once per transaction.
    func ruleSet(of account: AccountID) throws -> RuleSet {
        if let cached = ruleSetCache[account] { return cached }
        let set = RuleSet(try ChatmailStore.fetchRules(account, in: db))
        ruleSetCache[account] = set
        return set
    }

    /// The account's rules, oldest first.
    public func rules(in account: AccountID) throws -> [Rule] { try ruleSet(of: account).rules }

    /// Adds a rule and applies it to the mail already stored: only the messages it can match are judged
    /// again, and only their conversations need new rollups.
    ///
    /// The same action, field and pattern again is the same rule: it is not stored twice. Adding can
    /// only turn archiving on, so `rules add deny x --archive` upgrades an existing `deny x`, and a plain
    /// `deny x` later does not quietly stop an archiving rule.
    public func addRule(_ draft: Rule.Draft, in account: AccountID) throws -> RuleChange {
        try addRules([draft], in: account)
    }

    /// ``addRule(_:in:)`` for several rules, in one pass over the mail they can match.
    public func addRules(_ drafts: [Rule.Draft], in account: AccountID) throws -> RuleChange {
        try store(drafts, replacing: false, archivingOnlyTurnsOn: true, in: account)
    }

    /// Adds `drafts` as a file gives them: a rule given again takes the file's `archives`, on or off.
    /// With `replacing`, every rule not among them is removed first.
    public func importRules(_ drafts: [Rule.Draft], replacing: Bool, in account: AccountID) throws -> RuleChange {
        try store(drafts, replacing: replacing, archivingOnlyTurnsOn: false, in: account)
    }

    private func store(
        _ drafts: [Rule.Draft], replacing: Bool, archivingOnlyTurnsOn: Bool, in account: AccountID
    ) throws -> RuleChange {
        var change = RuleChange()
        var redecide = Set<MessageID>()
        if replacing {
            // A rule is its action, field and pattern: one given again with another `archives` is kept
            // (and updated below), so it keeps its id and its age among rules of its action.
            let kept = Set(drafts.map(\.identity))
            for rule in try rules(in: account) where !kept.contains(rule.draft.identity) {
                redecide.formUnion(try messages(decidedBy: rule.id))
                try db.execute(sql: "DELETE FROM rule WHERE id = ?", arguments: [rule.id])
                change.removed.append(rule)
            }
            ruleSetCache[account] = nil
        }
        // Read once: the loop keeps it current, so a draft given twice finds the rule the first added.
        var stored = Dictionary(
            try rules(in: account).map { ($0.draft.identity, $0) }, uniquingKeysWith: { first, _ in first })
        for draft in drafts {
            if let existing = stored[draft.identity] {
                guard existing.archives != draft.archives, draft.archives || !archivingOnlyTurnsOn else { continue }
                try db.execute(
                    sql: "UPDATE rule SET archives = ? WHERE id = ?", arguments: [draft.archives, existing.id])
                var updated = existing
                updated.archives = draft.archives
                stored[draft.identity] = updated
                change.updated.append(updated)
                redecide.formUnion(try messages(decidedBy: existing.id))
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO rule (account_id, action, field, pattern, archives, created_at_ms)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [account, draft.action, draft.field, draft.pattern, draft.archives, nowMs])
                let rule = Rule(
                    id: RuleID(rawValue: db.lastInsertedRowID), action: draft.action, field: draft.field,
                    pattern: draft.pattern, archives: draft.archives, createdAtMs: nowMs)
                stored[draft.identity] = rule
                change.added.append(rule)
                redecide.formUnion(try candidates(for: rule, in: account))
            }
        }
        ruleSetCache[account] = nil
        try apply(redecide, in: account, to: &change)
        return change
    }

    /// Removes a rule, and judges again the messages it decided.
    public func removeRule(_ id: RuleID, in account: AccountID) throws -> RuleChange {
        guard let rule = try rules(in: account).first(where: { $0.id == id }) else {
            throw RuleError.unknownRule(id)
        }
        var change = RuleChange()
        let decided = try messages(decidedBy: id)
        try db.execute(sql: "DELETE FROM rule WHERE id = ?", arguments: [id])
        ruleSetCache[account] = nil
        change.removed = [rule]
        try apply(decided, in: account, to: &change)
        return change
    }

    /// Turns the screener on or off. Nothing is rewritten: which conversations it holds is worked out
    /// when a list is read, from the rollups and the people the account has written to.
    public func setScreener(enabled: Bool, in account: AccountID) throws {
        try db.execute(sql: "UPDATE account SET screener_enabled = ? WHERE id = ?", arguments: [enabled, account])
    }

    /// The rule that decides `message` in `account`, or `nil` (always `nil` for the account's own mail).
    func decidingRule(for message: MessageInput, isFromMe: Bool, in account: AccountID) throws -> Rule? {
        guard !isFromMe else { return nil }
        let set = try ruleSet(of: account)
        guard !set.isEmpty else { return nil }
        return set.decide(RuleSubject(message))
    }

    /// Records that the account wrote to `recipients` (identity keys), for the screener.
    func recordCorrespondents(_ recipients: [String], in account: AccountID) throws {
        guard !recipients.isEmpty else { return }
        let insert = try db.cachedStatement(
            sql: "INSERT INTO correspondent (account_id, address_normalized) VALUES (?, ?) ON CONFLICT DO NOTHING")
        for address in Set(recipients) { try insert.execute(arguments: [account, address]) }
    }

    // MARK: Judging stored mail again

    private func messages(decidedBy rule: RuleID) throws -> Set<MessageID> {
        Set(try MessageID.fetchAll(db, sql: "SELECT id FROM message WHERE rule_id = ?", arguments: [rule]))
    }

    /// The incoming messages `rule` may match: a superset, narrowed with an index where the field has one.
    ///
    /// Sender and domain rules go through the people of conversations (indexed by address). Subject and
    /// text rules whose words are plain ASCII keep the messages whose field contains the longest word;
    /// other scripts fold differently in SQLite, so those rules read every message.
    private func candidates(for rule: Rule, in account: AccountID) throws -> Set<MessageID> {
        let sql: String
        var arguments: StatementArguments = [account]
        switch rule.field {
        case .sender:
            sql = """
                SELECT m.id FROM conversation_participant p
                JOIN conversation c ON c.id = p.conversation_id AND c.account_id = ?
                JOIN message m ON m.conversation_id = c.id AND m.is_from_me = 0
                WHERE p.address_normalized = ?
                """
            arguments += [rule.pattern]
        case .domain:
            sql = """
                SELECT m.id FROM conversation_participant p
                JOIN conversation c ON c.id = p.conversation_id AND c.account_id = ?
                JOIN message m ON m.conversation_id = c.id AND m.is_from_me = 0
                WHERE p.address_normalized LIKE ? ESCAPE '\\' OR p.address_normalized LIKE ? ESCAPE '\\'
                """
            let escaped = Self.likeEscaped(rule.pattern)
            arguments += ["%@" + escaped, "%." + escaped]
        case .subject, .text:
            let column = rule.field == .subject ? "subject" : "body_text"
            switch RuleCandidates.prefilter(for: rule.pattern) {
            case .asciiWord(let word):
                // LIKE folds ASCII case, and every whole-word match of an ASCII pattern contains its
                // longest word: one scan of the column finds a superset (see RuleCandidates).
                // İ and the Kelvin sign fold to `i` and `k` too, which LIKE cannot know: those letters
                // match any one character.
                let like = Self.likeEscaped(word).map { $0 == "i" || $0 == "k" ? "_" : String($0) }.joined()
                sql = "SELECT id FROM message WHERE account_id = ? AND is_from_me = 0 AND \(column) LIKE ? ESCAPE '\\'"
                arguments += ["%" + like + "%"]
            case .character(let first):
                sql = "SELECT id FROM message WHERE account_id = ? AND is_from_me = 0 AND instr(\(column), ?) > 0"
                arguments += [first]
            case .none:
                sql = "SELECT id FROM message WHERE account_id = ? AND is_from_me = 0"
            }
        }
        return Set(try MessageID.fetchAll(db, sql: sql, arguments: arguments))
    }

    private static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// Judges `messages` again with the account's current rules, rewrites the decisions that changed,
    /// and archives what a deny rule with `archives` now decides.
    private func apply(_ messages: Set<MessageID>, in account: AccountID, to change: inout RuleChange) throws {
        guard !messages.isEmpty else { return }
        let set = try ruleSet(of: account)
        let update = try db.cachedStatement(sql: "UPDATE message SET rule_id = ?, rule_action = ? WHERE id = ?")
        var toArchive: [MessageID] = []
        let ids = messages.sorted()
        // Chunks keep the bodies read at once bounded, however many messages a rule touches.
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = ids[start..<min(ids.count, start + 500)]
            let json = "[" + chunk.map { String($0.rawValue) }.joined(separator: ",") + "]"
            var senders: [MessageID: [String]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT message_id, address_normalized FROM message_participant
                    WHERE message_id IN (SELECT value FROM json_each(?)) AND role = 'from'
                    """,
                arguments: [json])
            {
                senders[row["message_id"], default: []].append(row["address_normalized"])
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, conversation_id, rule_id, rule_action, subject, body_text FROM message
                    WHERE id IN (SELECT value FROM json_each(?)) AND is_from_me = 0
                    """,
                arguments: [json])
            for row in rows {
                let id: MessageID = row["id"]
                let decided = set.decide(
                    RuleSubject(senders: senders[id] ?? [], subject: row["subject"], text: row["body_text"]))
                if let decided, decided.archives { toArchive.append(id) }
                // The action is compared too: deleting a rule has already cleared `rule_id` (ON DELETE SET
                // NULL) but not the `rule_action` the rollups read.
                guard decided?.id != row["rule_id"] || decided?.action != row["rule_action"] else { continue }
                try update.execute(arguments: [decided?.id, decided?.action, id])
                change.messagesRedecided += 1
                change.conversations.insert(row["conversation_id"])
            }
        }
        let archived = try archiveByRules(toArchive, in: account)
        change.messagesArchived += archived.messages
        change.archiveActions += archived.actions
        change.conversations.formUnion(archived.conversations)
    }

}
