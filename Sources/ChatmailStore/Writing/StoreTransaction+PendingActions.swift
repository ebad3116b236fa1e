import Foundation
import GRDB

extension StoreTransaction {
    // MARK: The pending-action queue (005_queues, 007_pending_action_details)

    /// Queues an action, due at once.
    @discardableResult
    public func insertPendingAction(
        kind: PendingActionKind, target: String, gmailIDs: [String], in account: AccountID
    ) throws -> PendingAction {
        let now = nowMs
        try db.execute(
            sql: """
                INSERT INTO pending_action (account_id, kind, target, target_message_ids, add_labels, remove_labels,
                    status, attempts, next_attempt_at_ms, created_at_ms, updated_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)
                """,
            arguments: [
                account, kind.rawValue, target, Self.jsonArray(gmailIDs), Self.jsonArray(kind.addLabels),
                Self.jsonArray(kind.removeLabels), now, now, now,
            ])
        return PendingAction(
            id: PendingActionID(rawValue: db.lastInsertedRowID), account: account, kind: kind, target: target,
            targetIDs: gmailIDs, addLabels: kind.addLabels, removeLabels: kind.removeLabels, nextAttemptAtMs: now,
            createdAtMs: now, updatedAtMs: now)
    }

    /// The account's actions with one of `statuses` (every status when `nil`), oldest first.
    public func pendingActions(in account: AccountID, statuses: Set<PendingActionStatus>? = nil) throws
        -> [PendingAction]
    {
        try Self.fetchPendingActions(db, account: account, statuses: statuses)
    }

    /// One action of the account, or `nil` when there is no such action.
    public func pendingAction(_ id: PendingActionID, in account: AccountID) throws -> PendingAction? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM pending_action WHERE id = ? AND account_id = ?", arguments: [id, account]
        ).map(Self.pendingAction(from:))
    }

    /// Claims a waiting action (`pending` or `failed`) for one attempt: it becomes `processing` and its
    /// attempts count one more, before any request goes out. `nil` when it no longer waits (dismissed,
    /// coalesced away, sent by another run) or is not of `kind`.
    /// - returns: the claimed action and the status it had, to put back when the attempt is not its fault.
    public func claimPendingAction(_ id: PendingActionID, in account: AccountID, kind: PendingActionKind? = nil)
        throws -> (action: PendingAction, previousStatus: PendingActionStatus)?
    {
        guard var action = try pendingAction(id, in: account), action.status == .pending || action.status == .failed,
            kind.map({ $0 == action.kind }) ?? true
        else { return nil }
        let previous = action.status
        action.status = .processing
        action.attempts += 1
        try savePendingAction(action)
        return (action, previous)
    }

    /// Writes back everything about an action that the queue changes; `updated_at_ms` becomes now.
    public func savePendingAction(_ action: PendingAction) throws {
        try db.execute(
            sql: """
                UPDATE pending_action SET target_message_ids = ?, sent_message_ids = ?, status = ?, attempts = ?,
                    next_attempt_at_ms = ?, last_error = ?, updated_at_ms = ?
                WHERE id = ? AND account_id = ?
                """,
            arguments: [
                Self.jsonArray(action.targetIDs), Self.jsonArray(action.sentIDs), action.status.rawValue,
                action.attempts,
                action.nextAttemptAtMs, action.lastError, nowMs, action.id, action.account,
            ])
    }

    /// Removes an action from the queue (coalesced away or dismissed).
    public func deletePendingAction(_ id: PendingActionID, in account: AccountID) throws {
        try db.execute(sql: "DELETE FROM pending_action WHERE id = ? AND account_id = ?", arguments: [id, account])
    }

    /// Forgets completed actions finished before `cutoffMs`, so the table does not grow forever.
    public func pruneCompletedActions(before cutoffMs: Int64, in account: AccountID) throws {
        try db.execute(
            sql: "DELETE FROM pending_action WHERE account_id = ? AND status = 'completed' AND updated_at_ms < ?",
            arguments: [account, cutoffMs])
    }

    // MARK: Label rechecks

    /// Asks for the labels of `gmailIDs` to be re-read from Gmail on the next send run.
    public func enqueueLabelRecheck(_ gmailIDs: [String], in account: AccountID) throws {
        let insert = try db.cachedStatement(
            sql: "INSERT INTO label_recheck (account_id, gmail_id) VALUES (?, ?) ON CONFLICT DO NOTHING")
        for id in gmailIDs { try insert.execute(arguments: [account, id]) }
    }

    /// Ids whose labels are waiting to be re-read.
    public func labelRechecks(in account: AccountID, limit: Int) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT gmail_id FROM label_recheck WHERE account_id = ? ORDER BY gmail_id LIMIT ?",
            arguments: [account, limit])
    }

    /// Marks ids as re-read.
    public func clearLabelRechecks(_ gmailIDs: [String], in account: AccountID) throws {
        guard !gmailIDs.isEmpty else { return }
        try db.execute(
            sql: "DELETE FROM label_recheck WHERE account_id = ? AND gmail_id IN (SELECT value FROM json_each(?))",
            arguments: [account, Self.jsonArray(gmailIDs)])
    }

    // MARK: Choosing an action's messages

    /// Every stored message of a conversation with its labels, newest first.
    public func actionCandidates(in conversation: ConversationID) throws -> [ActionCandidate] {
        try candidates(
            where: "m.conversation_id = ?", arguments: [conversation])
    }

    /// The stored message with Gmail id `gmailID`, or `nil`.
    public func actionCandidate(gmailID: String, in account: AccountID) throws -> ActionCandidate? {
        try candidates(where: "m.account_id = ? AND m.gmail_id = ?", arguments: [account, gmailID]).first
    }

    private func candidates(where condition: String, arguments: StatementArguments) throws -> [ActionCandidate] {
        var result: [ActionCandidate] = []
        var index: [String: Int] = [:]
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT m.gmail_id, m.internal_date_ms, m.is_from_me, l.gmail_id AS label
                FROM message m
                LEFT JOIN message_label ml ON ml.message_id = m.id
                LEFT JOIN label l ON l.id = ml.label_id
                WHERE \(condition) AND m.gmail_id NOT LIKE 'out-%'
                ORDER BY m.internal_date_ms DESC, m.id DESC
                """,
            arguments: arguments)
        for row in rows {
            let id: String = row["gmail_id"]
            let position: Int
            if let existing = index[id] {
                position = existing
            } else {
                position = result.count
                index[id] = position
                result.append(
                    ActionCandidate(
                        gmailID: id, labels: [], internalDateMs: row["internal_date_ms"], isFromMe: row["is_from_me"]))
            }
            if let label: String = row["label"] { result[position].labels.insert(label) }
        }
        return result
    }

    // MARK: Rows

    static func fetchPendingActions(_ db: Database, account: AccountID, statuses: Set<PendingActionStatus>?) throws
        -> [PendingAction]
    {
        let wanted = (statuses ?? Set(PendingActionStatus.allCases)).map(\.rawValue)
        return try Row.fetchAll(
            db,
            sql: """
                SELECT * FROM pending_action
                WHERE account_id = ? AND status IN (SELECT value FROM json_each(?))
                ORDER BY id
                """,
            arguments: [account, jsonArray(wanted)]
        ).map(pendingAction(from:))
    }

    static func pendingAction(from row: Row) throws -> PendingAction {
        // The CHECK constraints admit only known kinds and statuses; anything else means a newer schema.
        guard let kind = PendingActionKind(rawValue: row["kind"]),
            let status = PendingActionStatus(rawValue: row["status"])
        else {
            throw StoreError.schemaFromNewerVersion
        }
        return PendingAction(
            id: row["id"], account: row["account_id"], kind: kind, target: row["target"],
            targetIDs: try decodeStrings(row["target_message_ids"]),
            sentIDs: try decodeStrings(row["sent_message_ids"]),
            addLabels: try decodeStrings(row["add_labels"]), removeLabels: try decodeStrings(row["remove_labels"]),
            status: status, attempts: row["attempts"], nextAttemptAtMs: row["next_attempt_at_ms"],
            lastError: row["last_error"],
            createdAtMs: row["created_at_ms"], updatedAtMs: row["updated_at_ms"])
    }

    /// A JSON array of strings from a column the schema keeps `json_valid`.
    static func decodeStrings(_ json: String) throws -> [String] {
        do {
            return try JSONDecoder().decode([String].self, from: Data(json.utf8))
        } catch {
            throw StoreError.unreadableDatabase(
                path: "pending_action", reason: "a label or id list is not a JSON array of strings")
        }
    }
}
