import ChatmailStore
import Digest
import Foundation
import GmailAPI
import IMAPClient
import MailText
import SMTPClient

/// Sends one queued message of an IMAP account over SMTP, exactly once, and files its Sent copy.
///
/// SMTP cannot be asked whether a message arrived. The invariant: **a message whose submission may have
/// gone out is never submitted again without a person deciding.** Before the submission the outbox row
/// is marked `outcome_unknown` in a committed transaction; only an answer clears it. A refusal or a
/// failure before the whole message was written clears it and the queue's usual retries apply; a
/// connection lost after the final dot, or a process stopped mid-submission, leaves it set and the action
/// `abandoned`, shown as "outcome unknown", until `pending retry` (send again) or `pending dismiss`. Once
/// sync finds the message on the server by its Message-ID (a server that files its own Sent copy), the
/// question settles by itself.
struct IMAPOutboxSender {
    let store: ChatmailStore
    let link: IMAPAccountLink
    let schedule: BackoffSchedule
    let clock: ChatmailStore.Clock
    let random: any RandomSource
    let tracker: ModificationTracker
    let crashes: CrashPoints
    let timeZone: TimeZone

    typealias SendResult = IMAPActionPusher.SendResult

    /// The `last_error` of a send whose outcome is unknown.
    static func unknownOutcomeNote(_ action: PendingActionID, reason: String) -> String {
        "Outcome unknown: \(reason) after the whole message was sent, before the server answered; it may have "
            + "gone out. `chatmail pending retry \(action.rawValue)` sends it again, `chatmail pending dismiss "
            + "\(action.rawValue)` drops it."
    }

    /// The credentials, and the Sent copy's connection opening (unless the server files its own copy),
    /// the Sent folder taken from the store when sync knows it, which spares a LIST.
    func prepare(account: AccountID) async -> IMAPSendPreparation {
        let credentials: Result<IMAPAuthentication, any Error>
        do {
            credentials = .success(try await link.imap.authentication())
        } catch {
            credentials = .failure(error)
        }
        guard link.appendsSentCopy, case .success(let usable) = credentials else {
            return IMAPSendPreparation(credentials: credentials, filer: nil)
        }
        let knownSent = try? await store.write { tx in  // unknown: the filer LISTs the folders instead
            try tx.imapFolders(of: account).first { $0.labelID == "SENT" }?.name
        }
        let connector = link.imap
        let filer = Task {
            await IMAPSentCopyFiler.open(connector, credentials: usable, knownFolder: knownSent)
        }
        return IMAPSendPreparation(credentials: credentials, filer: filer)
    }

    /// Claims, submits and records one send action.
    func send(_ id: PendingActionID, account: AccountID, prepared given: IMAPSendPreparation?) async throws
        -> SendResult
    {
        let claimed = try await store.write { tx -> (PendingAction, PendingActionStatus, OutboxEntry)? in
            guard let entry = try tx.outboxEntry(id, in: account),
                let claim = try tx.claimPendingAction(id, in: account, kind: .send)
            else { return nil }
            return (claim.action, claim.previousStatus, entry)
        }
        guard let (action, previousStatus, claimedEntry) = claimed else {
            await given?.discard()
            return .skipped
        }
        var entry = claimedEntry
        // Only a send that goes ahead needs the server: a message already found there needs nothing.
        var preparation = given
        do {
            let raw = try await OutboxFreezer(store: store, clock: clock, timeZone: timeZone).frozenBytes(
                of: &entry, account: account
            ) { _ in nil }
            let headers = ParsedMessage(raw: raw)
            let messageID = headers.messageID
            // An earlier attempt made these bytes, and may have delivered them (its outcome unknown, then a
            // retry that failed before submitting): a copy sync has found on the server settles it.
            if claimedEntry.raw != nil, let messageID,
                let key = try await store.write({ tx in try tx.syncedMessageKey(withRFC822ID: messageID, in: account) })
            {
                await preparation?.discard()
                try await complete(action, key: key, headers: headers, account: account)
                return .completed
            }
            if preparation == nil { preparation = await prepare(account: account) }
            guard let prepared = preparation else { return .skipped }
            let credentials: IMAPAuthentication
            do {
                credentials = try prepared.credentials.get()
            } catch {
                // No credentials (a password command that failed): nothing was sent; it waits as it was.
                var restored = action
                restored.status = previousStatus
                restored.attempts -= 1
                try await store.write { [restored] tx in try tx.savePendingAction(restored) }
                throw error
            }
            // The Sent folder's connection opens while the message is marked and submitted.
            async let filer = prepared.filer?.value
            do {
                try await store.write { tx in try tx.setOutcomeUnknown(true, checkingFromHistory: nil, for: action.id) }
                crashes.reach(.sendMarked)
                let envelope = SMTPEnvelope(
                    from: entry.message.from.address, recipients: (entry.message.to + entry.message.cc).map(\.address))
                _ = try await link.submitter(credentials).submit(raw, envelope: envelope)
            } catch {
                if case .success(let opened)? = await filer { await opened.close() }
                throw error
            }
            crashes.reach(.sendAnswered)
            let key = "imap-" + SHA256.hexDigest(of: raw).prefix(32)
            // The APPEND travels while the store records the send.
            let opened = await filer
            async let filed = Self.appendSentCopy(raw, filer: opened, internalDateMs: clock())
            try await complete(action, key: key, headers: headers, account: account)
            try await record(await filed, raw: raw, key: key, action: action.id, account: account)
            return .completed
        } catch let error as SMTPError {
            return try await failed(action, previousStatus: previousStatus, entry: entry, error, account: account)
        } catch let error as ComposeError {
            var action = action
            action.status = .abandoned
            action.lastError = error.localizedDescription
            try await store.write { [action] tx in try tx.savePendingAction(action) }
            return .abandoned
        }
    }

    /// Completes every send whose outcome was unknown and whose message sync has since found on the
    /// server by its Message-ID.
    /// - returns: how many settled.
    func settleFromStore(account: AccountID) async throws -> Int {
        var settled = 0
        for id in try await store.write({ tx in try tx.sendsWithUnknownOutcome(in: account) }) {
            let found = try await store.write { tx -> (PendingAction, String, ParsedMessage)? in
                guard let action = try tx.pendingAction(id, in: account),
                    let raw = try tx.outboxEntry(id, in: account)?.raw
                else { return nil }
                let headers = ParsedMessage(raw: raw)
                guard let messageID = headers.messageID,
                    let key = try tx.syncedMessageKey(withRFC822ID: messageID, in: account)
                else { return nil }
                return (action, key, headers)
            }
            guard let (action, key, headers) = found else { continue }
            try await complete(action, key: key, headers: headers, account: account)
            settled += 1
        }
        return settled
    }

    /// Records the outcome of a failed submission.
    private func failed(
        _ action: PendingAction, previousStatus: PendingActionStatus, entry: OutboxEntry, _ error: SMTPError,
        account: AccountID
    ) async throws -> SendResult {
        var action = action
        let result: SendResult
        if case .outcomeUnknown(let reason) = error {
            // Never again by itself: the mark stays, and the person decides.
            action.status = .abandoned
            action.lastError = Self.unknownOutcomeNote(action.id, reason: reason)
            result = .unknown
        } else {
            let actionID = action.id
            try await store.write { tx in try tx.setOutcomeUnknown(false, checkingFromHistory: nil, for: actionID) }
            // Nothing went out when the server could not be reached: the message waits as queued.
            guard
                let recorded = action.recordFailure(
                    IMAPFailures.disposition(of: error), reason: error.localizedDescription,
                    unreachableStatus: .pending,
                    schedule: schedule, nowMs: clock(), random: random)
            else {
                action.status = previousStatus
                action.attempts -= 1
                try await store.write { [action] tx in try tx.savePendingAction(action) }
                throw error
            }
            switch recorded {
            case .failed: result = .failed
            case .abandoned: result = .abandoned
            case .unreachable: result = .unreachable(error.localizedDescription)
            }
        }
        let finished = action
        try await tracker.write(in: store) { tx, modifications in
            try tx.savePendingAction(finished)
            // The bubble's mark (queued, failed, abandoned, unknown) is part of the conversation's rollup.
            modifications.report(
                Set(try tx.messageRows(forGmailIDs: [entry.localGmailID], in: account).map(\.conversation)))
        }
        return result
    }

    /// The local copy takes the key the server's copy will have (its digest), or the key of the copy
    /// sync already stored, and the action completes.
    /// - parameter headers: the sent bytes, parsed once: their Message-ID and the References we wrote.
    private func complete(_ action: PendingAction, key: String, headers: ParsedMessage, account: AccountID)
        async throws
    {
        try await tracker.write(in: store) { tx, modifications in
            let entry = try tx.outboxEntry(action.id, in: account)
            modifications.report(
                try tx.completeSend(
                    action.id, gmailID: key, threadID: entry?.message.threadID ?? entry?.localGmailID ?? key,
                    rfc822MessageID: headers.messageID, references: headers.references, in: account))
        }
    }

    /// What filing the Sent copy came to: where it went, or why it could not be filed.
    typealias SentCopyOutcome = Result<(folder: String, appended: IMAPAppendedUID?), any Error>

    /// Appends the message to the Sent folder with `\Seen`; `nil` when the server files its own copy
    /// (no filer). The connection is closed either way.
    static func appendSentCopy(_ raw: [UInt8], filer: Result<IMAPSentCopyFiler, any Error>?, internalDateMs: Int64)
        async -> SentCopyOutcome?
    {
        switch filer {
        case nil: return nil
        case .failure(let error): return .failure(error)
        case .success(let opened):
            let outcome: SentCopyOutcome
            do {
                outcome = .success((opened.folder, try await opened.append(raw, internalDateMs: internalDateMs)))
            } catch {
                outcome = .failure(error)
            }
            await opened.close()
            return outcome
        }
    }

    /// Records the Sent copy's location, when its folder is one sync reads under the same UIDVALIDITY,
    /// so sync neither downloads nor doubles it. The message is sent by then: a copy that could not be
    /// filed is noted on the action, and one whose answer was lost is found by sync through its digest or
    /// its Message-ID.
    private func record(
        _ outcome: SentCopyOutcome?, raw: [UInt8], key: String, action: PendingActionID, account: AccountID
    ) async throws {
        switch outcome {
        case nil:
            return
        case .failure(let error):
            try await store.write { tx in
                guard var noted = try tx.pendingAction(action, in: account) else { return }
                noted.lastError = "Sent, but the copy in Sent could not be filed: \(error.localizedDescription)"
                try tx.savePendingAction(noted)
            }
        case .success(let filed):
            let digest = SHA256.hexDigest(of: raw)
            try await store.write { tx in
                guard let appended = filed.appended, let folder = try tx.imapFolder(named: filed.folder, in: account),
                    folder.uidValidity == appended.uidValidity,
                    let message = try tx.imapActionTarget(key: key, in: account)?.message
                else { return }
                try tx.setIMAPIdentity(of: message, digest: digest, internalDateMs: nil)
                try tx.setIMAPCopy(
                    message, folder: folder.id, uid: appended.uid, state: IMAPCopyState(seen: true, flagged: false))
            }
        }
    }
}
