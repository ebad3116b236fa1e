import ChatmailStore

/// How a new action combines with the actions already queued for the same messages.
///
/// For each message, only the LATEST live action on it matters (it decides what Gmail will end up with):
/// - the same kind, not yet sent for this message: already queued, nothing more to send;
/// - the opposite kind, never tried (``PendingAction/mayHaveReachedGmail`` is false): the two cancel out
///   (read then unread → nothing left to send), and the message's labels are re-read from Gmail
///   afterwards, because sync skipped remote changes to it while it was protected;
/// - anything else (another kind, already sent, being sent right now, or tried before): the new action
///   sends it, after the earlier ones, so Gmail sees the changes in the order the user made them.
///
/// An action that was tried may have reached Gmail even though its id is not in `sentIDs`: a timeout or
/// a dropped connection after Gmail applied the change, or a crash between Gmail's answer and the local
/// commit. Cancelling against it could leave Gmail with the first change and drop the user's undo, so
/// only an action that never left the machine is cancelled.
public enum Coalescing {
    public struct Plan: Sendable, Equatable {
        /// Ids the new action still has to send, in the order given.
        public var newTargets: [String] = []
        /// Earlier actions that lose targets, with what is left (empty: the action is dropped).
        public var shrunk: [PendingActionID: [String]] = [:]
        /// Ids on which the new action cancelled an earlier, opposite one.
        public var cancelled: [String] = []
        /// Ids an identical earlier action will already send.
        public var alreadyQueued: [String] = []
    }

    /// - parameter live: the account's live actions (pending, processing, failed), in any order.
    public static func plan(kind: PendingActionKind, gmailIDs: [String], live: [PendingAction]) -> Plan {
        var latest: [String: Int] = [:]  // gmail id → index in `ordered` of the newest live action on it
        let ordered = live.filter(\.isLive).sorted { $0.id < $1.id }
        for (index, action) in ordered.enumerated() {
            for id in action.targetIDs { latest[id] = index }
        }
        var plan = Plan()
        var removed: [Int: Set<String>] = [:]
        for id in gmailIDs {
            guard let index = latest[id] else {
                plan.newTargets.append(id)
                continue
            }
            let earlier = ordered[index]
            // Same kind: the earlier action sends (or resends) this message anyway, so nothing is lost.
            let stillToSend = earlier.status != .processing && !earlier.sentIDs.contains(id)
            if stillToSend && earlier.kind == kind {
                plan.alreadyQueued.append(id)
            } else if stillToSend && !earlier.mayHaveReachedGmail && earlier.kind == kind.opposite {
                plan.cancelled.append(id)
                removed[index, default: []].insert(id)
            } else {
                plan.newTargets.append(id)
            }
        }
        for (index, ids) in removed {
            plan.shrunk[ordered[index].id] = ordered[index].targetIDs.filter { !ids.contains($0) }
        }
        return plan
    }
}
