import ChatmailApp
import ChatmailStore
import ChatmailSync
import Foundation
import GmailAPI
import IMAPClient

/// Runs the app's effects against the store, the queue and Gmail, off the UI loop, and answers each with
/// an event. It holds no state of its own beyond its dependencies: everything the app shows is in
/// `AppState`.
public struct AppEffects: Sendable {
    public let store: ChatmailStore
    public let account: Account
    /// A Gmail client for sync and sending; it throws when there is no usable login (the app then works
    /// offline, and a send stays queued).
    public let gmail: @Sendable () throws -> GmailClient
    /// The engine each sync runs with: by default a Gmail engine on ``gmail``; an IMAP account's otherwise.
    public let syncEngine: @Sendable () throws -> SyncEngine
    public let clock: ChatmailStore.Clock
    public let timeZone: TimeZone
    /// An IMAP account's queue: it sends what the app queues (SMTP for messages); `nil` for Gmail.
    public let imapPusher: (@Sendable () throws -> IMAPActionPusher)?
    /// What tells the app the server's mailbox changed (IMAP IDLE); `nil` where only periodic syncs run.
    public let serverChanges: (@Sendable () -> AsyncStream<Void>)?

    public init(
        store: ChatmailStore, account: Account, gmail: @escaping @Sendable () throws -> GmailClient,
        syncEngine: (@Sendable () throws -> SyncEngine)? = nil, clock: @escaping ChatmailStore.Clock,
        timeZone: TimeZone = .current, imapPusher: (@Sendable () throws -> IMAPActionPusher)? = nil,
        serverChanges: (@Sendable () -> AsyncStream<Void>)? = nil
    ) {
        self.store = store
        self.account = account
        self.gmail = gmail
        self.syncEngine = syncEngine ?? { SyncEngine(store: store, gmail: try gmail()) }
        self.clock = clock
        self.timeZone = timeZone
        self.imapPusher = imapPusher
        self.serverChanges = serverChanges
    }

    /// The event that answers `effect`, or `nil` for effects the run loop handles itself (quit, editor,
    /// ticks, redraws).
    public func run(_ effect: AppEffect) async -> AppEvent? {
        switch effect {
        case .loadConversations(let filter):
            return await answer({
                .conversationsLoaded(filter, try store.conversations(in: account.id, filter: filter))
            }) {
                .loadFailed($0)
            }
        case .loadScreener:
            return await answer({
                .screenerLoaded(
                    ScreenerStatus(
                        isEnabled: try store.screenerEnabled(in: account.id),
                        heldCount: try store.screenerCount(in: account.id)))
            }) { .loadFailed($0) }
        case .loadCodes(let sinceMs, let limit):
            return await answer({
                let codes = try store.verificationCodes(in: account.id, sinceMs: sinceMs, limit: limit)
                return .codesLoaded(codes.items, omittedCount: codes.omittedCount)
            }) { .codesFailed($0) }
        case .loadTranscript(let id, let limit):
            return await answer({
                guard let transcript = try store.transcript(of: id, limit: limit) else {
                    return .loadFailed("That conversation is gone.")
                }
                return .transcriptLoaded(transcript)
            }) { .loadFailed($0) }
        case .search(let text):
            return await answer({
                guard let live = Self.liveQuery(text) else { return .searchResults(query: text, []) }
                return .searchResults(query: text, try store.search(try SearchQuery(live), in: account.id, limit: 50))
            }) { .searchFailed(query: text, message: $0) }
        case .perform(let kind, let conversation, let title):
            return await perform(kind, conversation: conversation, title: title, isUndo: false)
        case .undo(let last):
            guard let opposite = last.kind.opposite else { return .actionFailed("A sent message cannot be unsent.") }
            return await perform(opposite, conversation: last.conversation, title: last.title, isUndo: true)
        case .reply(let conversation, let text):
            return await answer({
                guard let context = try store.replyContext(of: conversation) else {
                    return .sendFailed("That conversation is gone.")
                }
                let message = try ReplyPlanner.reply(to: context, text: text, quote: false, timeZone: timeZone)
                return await queueAndSend(message)
            }) { .sendFailed($0) }
        case .send(let addresses, let subject, let text):
            return await answer({
                let recipients = try addresses.map(ReplyPlanner.recipient)
                let own = try await store.write { tx in try tx.ownAddresses(of: account.id) }
                return await queueAndSend(
                    try ReplyPlanner.newMessage(to: recipients, subject: subject, text: text, ownAddresses: own))
            }) { .sendFailed($0) }
        case .syncNow:
            return await sync()
        case .loadPending:
            return await answer({ .pendingLoaded(try store.pendingActions(of: account.id)) }) { .pendingFailed($0) }
        case .retryPending(let id):
            return await answer({
                _ = try await ActionQueue(store: store).retry(.one(id), account: account.id)
                return .pendingChanged("Requeued #\(id.rawValue).")
            }) { .pendingFailed($0) }
        case .dismissPending(let id):
            return await answer({
                _ = try await ActionQueue(store: store).dismiss(.one(id), account: account.id)
                return .pendingChanged("Dismissed #\(id.rawValue).")
            }) { .pendingFailed($0) }
        case .openEditor, .quit, .scheduleTick, .redrawAll:
            return nil
        }
    }

    /// The query a search keystroke runs: the text as typed, with the word being typed searched as a
    /// prefix (`pro` finds "project"), so results narrow with each key rather than appearing only once
    /// a word is complete. A word followed by a space is complete; FTS5 syntax is left as written.
    /// `nil` for nothing to search.
    static func liveQuery(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard !text.hasSuffix(" "), let last = trimmed.split(separator: " ").last, last.count >= 2,
            last.allSatisfy({ $0.isLetter || $0.isNumber })
        else { return trimmed }
        return trimmed + "*"
    }

    func perform(_ kind: PendingActionKind, conversation: ConversationID, title: String, isUndo: Bool) async
        -> AppEvent
    {
        await answer({
            let outcome = try await ActionQueue(store: store).perform(
                kind, on: .conversation(conversation, description: title), account: account.id)
            return .actionFinished(
                ActionReport(
                    kind: kind, conversation: conversation, title: title,
                    actionIDs: outcome.action.map { [$0.id] } ?? [], messagesChanged: outcome.messagesChanged,
                    isUndo: isUndo))
        }) { .actionFailed($0) }
    }

    /// Queues the message (stored before any network call), then tries to send it once now.
    func queueAndSend(_ message: QueuedMessage) async -> AppEvent {
        await answer({
            let action = try await OutboxQueue.queue(message, in: store, account: account.id)
            let to = (message.to + message.cc).map(\.address).joined(separator: ", ")
            if let imapPusher { return await sendIMAP(action, to: to, pusher: imapPusher) }
            do {
                let sender = PendingActionSender(store: store, gmail: try gmail(), clock: clock, timeZone: timeZone)
                switch try await sender.sendMessage(action, account: account.id) {
                case .completed: return .sendFinished("Sent to \(to).")
                case .abandoned: return .sendFailed("Gmail refused the message to \(to); see the queue (p).")
                default: return .sendFinished("Queued for \(to); it is sent on the next sync.")
                }
            } catch {
                return .sendFinished("Queued for \(to); it is sent on the next sync.")
            }
        }) { .sendFailed($0) }
    }

    /// Sends a queued message of an IMAP account now; it stays queued whatever goes wrong.
    func sendIMAP(_ action: PendingActionID, to: String, pusher: @Sendable () throws -> IMAPActionPusher) async
        -> AppEvent
    {
        do {
            switch try await pusher().sendMessage(action, account: account.id) {
            case .completed: return .sendFinished("Sent to \(to).")
            case .abandoned: return .sendFailed("The server refused the message to \(to); see the queue (p).")
            case .unknown:
                return .sendFinished(
                    "Sent to \(to), but the server never answered: outcome unknown; see the queue (p).")
            case .failed, .skipped, .unreachable:
                return .sendFinished("Queued for \(to); it is sent on the next sync.")
            }
        } catch {
            return .sendFinished("Queued for \(to); it is sent on the next sync.")
        }
    }

    func sync() async -> AppEvent {
        do {
            _ = try await syncEngine().run(account: account)
            let actions = try store.pendingActions(of: account.id)
            return .syncFinished(
                SyncSummary(
                    finishedAtMs: clock(),
                    pendingCount: actions.filter { $0.status == .pending || $0.status == .processing }.count,
                    failedCount: actions.filter { $0.status == .failed || $0.status == .abandoned }.count))
        } catch let error as GmailAPIError {
            if case .retryLater(.transport) = error {
                return .syncFailed(message: error.localizedDescription, isOffline: true)
            }
            return .syncFailed(message: error.localizedDescription, isOffline: false)
        } catch let error as IMAPClientError {
            if case .unreachable = error {
                return .syncFailed(message: error.localizedDescription, isOffline: true)
            }
            return .syncFailed(message: error.localizedDescription, isOffline: false)
        } catch {
            return .syncFailed(message: error.localizedDescription, isOffline: false)
        }
    }

    /// Runs `body`, turning any error into the failure event `failure` makes from its one-line message.
    func answer(_ body: () async throws -> AppEvent, failure: (String) -> AppEvent) async -> AppEvent {
        do {
            return try await body()
        } catch {
            let message = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
            return failure(message.replacingOccurrences(of: "\n", with: " "))
        }
    }
}
