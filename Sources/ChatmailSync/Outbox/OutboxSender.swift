import ChatmailStore
import Foundation
import GmailAPI
import GmailModel
import MailText

/// Sends one queued message exactly once.
///
/// Gmail's `messages.send` has no idempotency key, so a request whose answer is lost (a timeout after
/// it was written, a reset connection, a 5xx) may or may not have sent the message. The invariant:
/// **no request is written while an earlier one's outcome is unknown.** Before each request the outbox
/// row is marked `outcome_unknown`, with Gmail's history id from before it, in a committed transaction;
/// only an answer that settles the outcome clears it. A crash, a kill or a lost answer leaves it set,
/// and the next attempt first asks Gmail (``SendVerifier``) whether the message went out: if it did,
/// the action completes with the server's id; only if it provably did not is the message sent again.
///
/// The bytes are made once, before the first attempt, and kept: every attempt sends the same message
/// (same Date, same Message-ID), which is also what the verifier looks for.
struct OutboxSender {
    let store: ChatmailStore
    /// Reads (the answered message's headers, the verification) go through this client with retries.
    let gmail: GmailClient
    let schedule: BackoffSchedule
    let clock: ChatmailStore.Clock
    let random: any RandomSource
    let tracker: ModificationTracker
    let crashes: CrashPoints
    let timeZone: TimeZone

    /// Claims, sends (or verifies) and records one send action.
    func send(_ id: PendingActionID, account: AccountID) async throws -> PendingActionSender.SendResult {
        let claimed = try await store.write { tx -> (PendingAction, PendingActionStatus, OutboxEntry)? in
            guard let entry = try tx.outboxEntry(id, in: account),
                let claim = try tx.claimPendingAction(id, in: account, kind: .send)
            else { return nil }
            return (claim.action, claim.previousStatus, entry)
        }
        guard let (action, previousStatus, claimedEntry) = claimed else { return .skipped }
        var entry = claimedEntry
        do {
            if entry.outcomeUnknown {
                switch try await SendVerifier(gmail: gmail).find(entry) {
                case .sent(let gmailID, let threadID):
                    try await complete(action, gmailID: gmailID, threadID: threadID, account: account)
                    return .completed
                case .notSent:
                    try await store.write { tx in
                        try tx.setOutcomeUnknown(false, checkingFromHistory: nil, for: action.id)
                    }
                    entry.outcomeUnknown = false
                }
            }
            let raw = try await frozenBytes(of: &entry, account: account)
            let before = try await historyIDBeforeSending(account: account)
            try await store.write { tx in try tx.setOutcomeUnknown(true, checkingFromHistory: before, for: action.id) }
            crashes.reach(.sendMarked)
            let message = try await gmail.retrying(maxAttempts: 1).send(raw: raw, threadId: entry.message.threadID)
            crashes.reach(.sendAnswered)
            try await complete(action, gmailID: message.id, threadID: message.threadId ?? message.id, account: account)
            return .completed
        } catch let error as GmailAPIError {
            return try await failed(action, previousStatus: previousStatus, entry: entry, error, account: account)
        } catch let error as ComposeError {
            var action = action
            action.status = .abandoned
            action.lastError = error.localizedDescription
            try await store.write { [action] tx in try tx.savePendingAction(action) }
            return .abandoned
        }
    }

    /// Asks Gmail about every send whose outcome is unknown, without sending anything, and completes
    /// those that went out. A sync runs it after pulling: a message the pull just brought from Gmail must
    /// not stay beside its outbox copy until the action is due again.
    /// - returns: how many were found sent.
    func settleUnknownOutcomes(account: AccountID) async throws -> Int {
        var settled = 0
        for id in try await store.write({ tx in try tx.sendsWithUnknownOutcome(in: account) }) {
            guard let entry = try await store.write({ tx in try tx.outboxEntry(id, in: account) }),
                let action = try await store.write({ tx in try tx.pendingAction(id, in: account) })
            else { continue }
            if case .sent(let gmailID, let threadID) = try await SendVerifier(gmail: gmail).find(entry) {
                try await complete(action, gmailID: gmailID, threadID: threadID, account: account)
                settled += 1
            }
        }
        return settled
    }

    /// Records the outcome of a failed attempt.
    private func failed(
        _ action: PendingAction, previousStatus: PendingActionStatus, entry: OutboxEntry, _ error: GmailAPIError,
        account: AccountID
    ) async throws -> PendingActionSender.SendResult {
        var action = action
        let actionID = action.id
        let unknown: Bool
        if case .retryLater(.outcomeUnknown) = error { unknown = true } else { unknown = false }
        if unknown {
            // The message may be on Gmail already: look now, so a send that did go out completes at once.
            // Should the look fail too, the mark stays and the next attempt looks again before sending.
            let marked = try await store.write { tx in try tx.outboxEntry(actionID, in: account) } ?? entry
            do {
                if case .sent(let gmailID, let threadID) = try await SendVerifier(gmail: gmail).find(marked) {
                    try await complete(action, gmailID: gmailID, threadID: threadID, account: account)
                    return .completed
                }
            } catch is GmailAPIError {
                // Gmail could not be asked either: the mark stays, so the next attempt asks before sending.
            }
        } else {
            // Gmail answered, and the answer says nothing was sent (or no request was written at all).
            try await store.write { tx in try tx.setOutcomeUnknown(false, checkingFromHistory: nil, for: actionID) }
        }
        // Nothing was sent when Gmail could not be reached, and nothing is wrong with the message: it
        // waits in the queue, shown as queued, with the reason kept.
        guard
            let result = action.recordFailure(
                error, unreachableStatus: .pending, schedule: schedule, nowMs: clock(), random: random)
        else {
            action.status = previousStatus
            action.attempts -= 1
            try await store.write { [action] tx in try tx.savePendingAction(action) }
            throw error
        }
        let finished = action
        try await tracker.write(in: store) { tx, modifications in
            try tx.savePendingAction(finished)
            // The bubble's mark (queued, failed, abandoned) is part of the conversation's rollup.
            modifications.report(
                Set(try tx.messageRows(forGmailIDs: [entry.localGmailID], in: account).map(\.conversation)))
        }
        return result
    }

    /// The local copy takes the server's id, with the Message-ID Gmail gave it (which may not be ours).
    private func complete(_ action: PendingAction, gmailID: String, threadID: String, account: AccountID) async throws {
        // Best effort: without it the next reply reads the Message-ID from Gmail when it is sent.
        let sent = try? await gmail.getMessage(id: gmailID, format: .metadata(headers: ["Message-ID"]))
        let messageID = sent?.payload?.header("Message-ID").flatMap { ReplyReferences.parse($0).first }
        // The References we wrote: the next reply continues the chain from them.
        let entry = try await store.write { tx in try tx.outboxEntry(action.id, in: account) }
        let references = entry?.raw.map { ParsedMessage(raw: $0).references } ?? []
        try await tracker.write(in: store) { tx, modifications in
            modifications.report(
                try tx.completeSend(
                    action.id, gmailID: gmailID, threadID: threadID, rfc822MessageID: messageID,
                    references: references, in: account))
        }
    }

    /// The bytes every attempt sends, made and kept on the first attempt.
    private func frozenBytes(of entry: inout OutboxEntry, account: AccountID) async throws -> [UInt8] {
        try await OutboxFreezer(store: store, clock: clock, timeZone: timeZone).frozenBytes(
            of: &entry, account: account
        ) { [gmail] parentID in
            // Stored before Message-IDs were kept: read them from Gmail.
            let parent = try await gmail.getMessage(
                id: parentID, format: .metadata(headers: ["Message-ID", "References", "In-Reply-To"]))
            return (
                parent.payload?.header("Message-ID").flatMap { ReplyReferences.parse($0).first },
                parent.payload?.header("References").map { ReplyReferences.parse($0) } ?? []
            )
        }
    }

    /// Gmail's history id now, from which the verifier would read: the store's, when it has synced.
    private func historyIDBeforeSending(account: AccountID) async throws -> String {
        if let stored = try await store.write({ tx in try tx.historyID(of: account) }) { return String(stored) }
        return String(try await gmail.getProfile().historyID)
    }
}
