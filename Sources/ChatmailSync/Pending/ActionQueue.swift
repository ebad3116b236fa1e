import ChatmailStore
import Foundation

/// The local side of the pending-action queue: applies an action to the store at once and queues it
/// for Gmail, in ONE transaction; and the user's `retry` and `dismiss`.
///
/// The invariant it keeps: the local labels of a message equal Gmail's labels with every live action
/// on that message applied in queue order. Sending (``PendingActionSender``) preserves it too.
/// Each write reports the conversations it relabels to a ``ModificationTracker``, which recomputes their
/// rollups in the same transaction.
public struct ActionQueue: Sendable {
    public let store: ChatmailStore

    public init(store: ChatmailStore) {
        self.store = store
    }

    /// What the user asked an action to act on.
    public enum Subject: Sendable, Equatable {
        case conversation(ConversationID, description: String)
        /// One message, by Gmail id.
        case message(gmailID: String)
    }

    /// What ``perform(_:on:account:)`` did.
    public struct Outcome: Sendable, Equatable {
        /// Messages whose local labels changed.
        public var messagesChanged = 0
        /// The queued action, or `nil` when nothing is left to send.
        public var action: PendingAction?
        /// Messages on which an earlier opposite action was cancelled instead of sending both.
        public var cancelled = 0
        /// Messages an identical earlier action already sends.
        public var alreadyQueued = 0
    }

    public enum Failure: Error, Sendable, Equatable {
        /// `--message` named a Gmail id the store does not hold.
        case messageNotFound(String)
        /// `retry`/`dismiss` named an action that does not exist or is not in a state it applies to.
        case actionNotFound(PendingActionID, expected: String)
    }

    /// Applies `kind` locally (labels and rollups) and queues what Gmail still has to be told.
    public func perform(_ kind: PendingActionKind, on subject: Subject, account: AccountID) async throws -> Outcome {
        try await ModificationTracker().write(in: store) { tx, modifications -> Outcome in
            let ids: [String]
            let target: String
            switch subject {
            case .conversation(let conversation, let description):
                ids = ActionTargeting.targets(of: kind, among: try tx.actionCandidates(in: conversation))
                target = description
            case .message(let gmailID):
                guard let candidate = try tx.actionCandidate(gmailID: gmailID, in: account) else {
                    throw Failure.messageNotFound(gmailID)
                }
                ids = kind.changes(candidate.labels) ? [gmailID] : []
                target = "message \(gmailID)"
            }
            var outcome = Outcome()
            guard !ids.isEmpty else { return outcome }
            modifications.report(
                try tx.modifyLabels(adding: kind.addLabels, removing: kind.removeLabels, onMessages: ids, in: account))
            outcome.messagesChanged = ids.count

            let live = try tx.pendingActions(in: account, statuses: [.pending, .processing, .failed])
            let plan = Coalescing.plan(kind: kind, gmailIDs: ids, live: live)
            for (id, remaining) in plan.shrunk {
                if remaining.isEmpty {
                    try tx.deletePendingAction(id, in: account)
                } else if var earlier = live.first(where: { $0.id == id }) {
                    earlier.targetIDs = remaining
                    try tx.savePendingAction(earlier)
                }
            }
            try tx.enqueueLabelRecheck(plan.cancelled, in: account)
            if !plan.newTargets.isEmpty {
                outcome.action = try tx.insertPendingAction(
                    kind: kind, target: target, gmailIDs: plan.newTargets, in: account)
            }
            outcome.cancelled = plan.cancelled.count
            outcome.alreadyQueued = plan.alreadyQueued.count
            return outcome
        }
    }

    /// Which actions `retry` or `dismiss` applies to.
    public enum Selection: Sendable, Equatable {
        case one(PendingActionID)
        /// Every failed or abandoned action.
        case all
    }

    /// Puts failed or abandoned actions back in the queue, due now, with their attempts reset and every
    /// target to send again, and applies them locally again (an abandoned action's messages had been
    /// given Gmail's labels back).
    ///
    /// `last_error` is kept: it tells why the action failed before, and marks it as one that may have
    /// reached Gmail (``PendingAction/mayHaveReachedGmail``), which an opposite action must not cancel.
    ///
    /// A requeued action keeps its id, so it keeps its place in the queue: live actions queued after it
    /// on the same messages are sent after it, and win. Locally, they are applied again on top of it, so
    /// the invariant holds (local labels = Gmail's with the live actions applied in queue order) and the
    /// labels do not flip once the queue has been sent.
    /// - returns: the requeued actions.
    public func retry(_ selection: Selection, account: AccountID) async throws -> [PendingAction] {
        try await ModificationTracker().write(in: store) { tx, modifications -> [PendingAction] in
            var actions = try Self.select(selection, tx: tx, account: account)
            // Over SMTP nothing can tell whether a send of unknown outcome arrived: sending it again is a
            // decision about that message, taken by its id, never swept up by `--all`.
            if case .all = selection, try tx.imapSettings(of: account) != nil {
                actions = try actions.filter { action in
                    guard action.kind == .send else { return true }
                    return try tx.outboxEntry(action.id, in: account)?.outcomeUnknown != true
                }
            }
            guard let first = actions.map(\.id).min() else { return [] }
            var requeued = Set<PendingActionID>()
            var affected = Set<String>()
            for index in actions.indices {
                actions[index].status = .pending
                actions[index].attempts = 0
                actions[index].nextAttemptAtMs = tx.nowMs
                // Send every target again: Gmail's copy may have changed since, and resending is harmless.
                actions[index].sentIDs = []
                try tx.savePendingAction(actions[index])
                requeued.insert(actions[index].id)
                affected.formUnion(actions[index].targetIDs)
            }
            // Re-apply, in queue order from the first requeued action, the requeued actions and every live
            // action after them, on the messages the requeued ones target. Label changes are absolute, so
            // each label ends as the last action touching it in the queue leaves it.
            let live = try tx.pendingActions(in: account, statuses: [.pending, .processing, .failed])
            for action in live.sorted(by: { $0.id < $1.id }) where action.id >= first {
                let ids = requeued.contains(action.id) ? action.targetIDs : action.targetIDs.filter(affected.contains)
                guard !ids.isEmpty else { continue }
                modifications.report(
                    try tx.modifyLabels(
                        adding: action.addLabels, removing: action.removeLabels, onMessages: ids, in: account))
            }
            return actions
        }
    }

    /// Drops failed or abandoned actions and asks for their messages' labels to be re-read from Gmail
    /// (``PendingActionSender/recheckLabels(account:)`` does it; the next sync does it otherwise).
    /// - returns: the dropped actions.
    ///
    /// A dismissed send drops its message too: the bubble goes with it. (If an earlier attempt did
    /// reach Gmail, sync brings the server's copy like any other message.)
    public func dismiss(_ selection: Selection, account: AccountID) async throws -> [PendingAction] {
        try await ModificationTracker().write(in: store) { tx, modifications -> [PendingAction] in
            let actions = try Self.select(selection, tx: tx, account: account)
            for action in actions {
                if action.kind == .send {
                    modifications.report(try tx.dropOutboxMessage(of: action.id, in: account))
                } else {
                    try tx.enqueueLabelRecheck(action.targetIDs, in: account)
                }
                try tx.deletePendingAction(action.id, in: account)
            }
            return actions
        }
    }

    private static func select(_ selection: Selection, tx: StoreTransaction, account: AccountID) throws
        -> [PendingAction]
    {
        switch selection {
        case .all:
            return try tx.pendingActions(in: account, statuses: [.failed, .abandoned])
        case .one(let id):
            guard let action = try tx.pendingAction(id, in: account),
                action.status == .failed || action.status == .abandoned
            else {
                throw Failure.actionNotFound(id, expected: "failed or abandoned")
            }
            return [action]
        }
    }
}

extension ActionQueue.Failure: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .messageNotFound(let id):
            "No stored message has the Gmail id \(id). `chatmail show <person> --json` lists them (gmailId)."
        case .actionNotFound(let id, let expected):
            "There is no \(expected) action #\(id.rawValue). `chatmail pending` lists the queue."
        }
    }
}
