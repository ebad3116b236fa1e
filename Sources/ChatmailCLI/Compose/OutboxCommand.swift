import ChatmailStore
import ChatmailSync
import Foundation
import GmailAPI
import JSONOutput
import MailText
import TerminalUI
import TextFormatting

/// What `reply` and `send` share: queue the message (stored before any network call), then try to
/// send it at once, and say which of the two happened.
enum OutboxCommand {
    /// Gmail's limit for a message sent through the API.
    static let maximumBytes = GmailClient.sendSizeLimit

    /// An IMAP account's send, started before the message is composed and queued (see
    /// ``IMAPActionPusher/prepareSending(account:)``); `nil` for a Gmail account or settings that cannot
    /// be read, which the send then reports.
    struct IMAPSend: Sendable {
        let pusher: IMAPActionPusher
        let preparation: IMAPSendPreparation
    }

    /// Starts an IMAP account's send: the password command runs and the Sent copy's connection opens
    /// while chatmail composes and queues the message, which never waits for it.
    static func prepare(env: AppEnvironment, store: ChatmailStore, account: Account) -> Task<IMAPSend?, Never>? {
        guard account.provider == .imap,
            let pusher = try? IMAPSession.pusher(  // settings unreadable: the send itself says why
                for: account, in: store, env: env, crashes: (try? Sync.crashPoints(env.environment)) ?? CrashPoints())
        else { return nil }
        let id = account.id
        return Task { IMAPSend(pusher: pusher, preparation: await pusher.prepareSending(account: id)) }
    }

    static func queueAndSend(
        _ message: QueuedMessage, env: AppEnvironment, store: ChatmailStore, account: AccountID, json: Bool,
        imap: Task<IMAPSend?, Never>? = nil
    )
        async throws
    {
        try check(message)
        let crashes = try Sync.crashPoints(env.environment)
        let action = try await OutboxQueue.queue(message, in: store, account: account)
        let outcome: Outcome
        if let imap = await imap?.value {
            outcome = await sendNowIMAP(action, send: imap, store: store, account: account)
        } else {
            outcome = await sendNow(action, env: env, store: store, account: account, crashes: crashes)
        }
        let (entry, pending) = try await store.write { tx in
            (try tx.outboxEntry(action, in: account), try tx.pendingAction(action, in: account))
        }
        let status: String
        switch outcome {
        case .sent: status = "sent"
        case .abandoned: status = "abandoned"
        case .queued: status = "queued"
        case .unknown: status = "unknown"
        }
        if json {
            try env.write(
                try JSONRenderer(time: env.time).encode(
                    SendResultJSON(
                        actionId: action, status: status, gmailId: entry?.sentGmailID, threadId: entry?.sentThreadID,
                        lastError: pending?.lastError)))
        } else {
            try env.write(describe(outcome, action: action, message: message) + "\n")
            // A sent message's note: the copy in Sent could not be filed (the message went out all the same).
            if case .sent = outcome, let note = pending?.lastError { env.note(note) }
        }
        if case .abandoned(let reason) = outcome {
            let isIMAP = try store.accounts().first { $0.id == account }?.provider == .imap
            let refused = SendRefused(reason: reason, server: isIMAP ? "The SMTP server" : "Gmail")
            throw json ? ErrorReportedInJSON(error: refused) : refused
        }
        // Queued, but nothing can send it until the user logs in: say so with the login's exit code.
        if case .queued(let reason) = outcome, ExitStatus(for: reason) == .notLoggedIn {
            throw json ? ErrorReportedInJSON(error: reason) : reason
        }
    }

    enum Outcome {
        case sent
        /// Waiting safely in the queue, with why it was not sent now.
        case queued(any Error)
        case abandoned(String)
        /// The connection broke after the whole message was written: it may have gone out. Kept, never
        /// sent again without `pending retry`.
        case unknown(String)
    }

    /// Tries to send the queued action now; never throws, since the message is safely queued whatever
    /// happens here.
    static func sendNow(
        _ action: PendingActionID, env: AppEnvironment, store: ChatmailStore, account: AccountID, crashes: CrashPoints
    ) async -> Outcome {
        do {
            if let imap = try store.accounts().first(where: { $0.id == account }), imap.provider == .imap {
                return try await sendNowIMAP(action, account: imap, env: env, store: store, crashes: crashes)
            }
            let connection = try GmailConnection.open(env)
            defer { connection.close() }
            let sender = PendingActionSender(
                store: store, gmail: connection.client, clock: env.clock, crashes: crashes)
            switch try await sender.sendMessage(action, account: account) {
            case .completed: return .sent
            case .abandoned:
                return .abandoned(
                    try await lastError(of: action, store: store, account: account) ?? "Gmail refused it.")
            case .unreachable(let error): return .queued(error)
            case .failed, .skipped:
                let reason = try await lastError(of: action, store: store, account: account) ?? "it was not sent yet"
                return .queued(NotSentYet(reason: reason))
            }
        } catch {
            return .queued(error)
        }
    }

    /// ``sendNow(_:env:store:account:crashes:)`` for an IMAP account: SMTP, then the Sent copy.
    static func sendNowIMAP(
        _ action: PendingActionID, account: Account, env: AppEnvironment, store: ChatmailStore, crashes: CrashPoints
    ) async throws -> Outcome {
        let pusher = try IMAPSession.pusher(for: account, in: store, env: env, crashes: crashes)
        return try await sendNowIMAP(action, pusher: pusher, prepared: nil, store: store, account: account.id)
    }

    /// ``sendNowIMAP(_:account:env:store:crashes:)`` with the send started before the message was queued;
    /// never throws, like ``sendNow(_:env:store:account:crashes:)``.
    static func sendNowIMAP(_ action: PendingActionID, send: IMAPSend, store: ChatmailStore, account: AccountID)
        async -> Outcome
    {
        do {
            return try await sendNowIMAP(
                action, pusher: send.pusher, prepared: send.preparation, store: store, account: account)
        } catch {
            return .queued(error)
        }
    }

    private static func sendNowIMAP(
        _ action: PendingActionID, pusher: IMAPActionPusher, prepared: IMAPSendPreparation?, store: ChatmailStore,
        account: AccountID
    ) async throws -> Outcome {
        switch try await pusher.sendMessage(action, account: account, prepared: prepared) {
        case .completed: return .sent
        case .abandoned:
            return .abandoned(
                try await lastError(of: action, store: store, account: account) ?? "the server refused it.")
        case .unknown:
            return .unknown(try await lastError(of: action, store: store, account: account) ?? "")
        case .unreachable(let reason): return .queued(ServerUnreachable(reason: reason))
        case .failed, .skipped:
            let reason = try await lastError(of: action, store: store, account: account) ?? "it was not sent yet"
            return .queued(NotSentYet(reason: reason))
        }
    }

    static func lastError(of action: PendingActionID, store: ChatmailStore, account: AccountID) async throws -> String?
    {
        try await store.write { tx in try tx.pendingAction(action, in: account)?.lastError }
    }

    static func describe(_ outcome: Outcome, action: PendingActionID, message: QueuedMessage) -> String {
        let to = TerminalSafeText.singleLine((message.to + message.cc).map(\.address).joined(separator: ", "))
        switch outcome {
        case .sent:
            return "Sent to \(to) (#\(action.rawValue))."
        case .abandoned(let reason):
            return "Not sent to \(to): \(TerminalSafeText.singleLine(reason)) (#\(action.rawValue), abandoned; "
                + "`chatmail pending retry \(action.rawValue)` or `dismiss \(action.rawValue)`)."
        case .unknown:
            return "Sent to \(to), but the connection broke before the server answered: it may or may not have "
                + "arrived (#\(action.rawValue), outcome unknown; `chatmail pending retry \(action.rawValue)` sends it "
                + "again, `chatmail pending dismiss \(action.rawValue)` drops it)."
        case .queued(let error):
            let reason = TerminalSafeText.singleLine(ExitStatus.summary(of: error))
            return "Queued for \(to) (#\(action.rawValue)); not sent yet: \(reason) "
                + "It is sent on the next `chatmail sync` or `chatmail pending run`."
        }
    }

    /// Refuses, before anything is queued, a message Gmail would refuse whatever happens.
    static func check(_ message: QueuedMessage) throws {
        let probe = OutgoingMessage(
            from: ReplyPlanner.mail(message.from), to: message.to.map(ReplyPlanner.mail),
            cc: message.cc.map(ReplyPlanner.mail), subject: message.subject,
            date: Date(timeIntervalSince1970: 0),
            timeZone: TimeZone(secondsFromGMT: 0) ?? .current, messageID: "<probe@chatmail.invalid>",
            body: message.body)
        let bytes: [UInt8]
        do {
            bytes = try probe.rfc5322()
        } catch {
            throw CommandError.cannotSend(error.localizedDescription)
        }
        if bytes.count > maximumBytes {
            throw CommandError.cannotSend(
                "The message is \(bytes.count / 1_048_576) MB; Gmail sends at most \(maximumBytes / 1_048_576) MB.")
        }
    }
}

/// Why a queued message waits: the last attempt's error as the queue recorded it.
struct NotSentYet: Error, LocalizedError {
    var reason: String
    var errorDescription: String? { reason }
}

/// A send Gmail refused for good: the message stays in `chatmail pending` as abandoned.
struct SendRefused: Error, LocalizedError {
    var reason: String
    /// Who refused it: Gmail, or an IMAP account's SMTP server.
    var server = "Gmail"
    var errorDescription: String? { "\(server) refused the message: \(reason)" }
}
