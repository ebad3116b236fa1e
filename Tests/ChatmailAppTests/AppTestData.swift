import ChatmailApp
import Foundation
import MailText
import TerminalKit
import TerminalUI
import TextSafety

// `SearchHit` has no public initializer: the store is its only producer. The tests build hits directly.
@testable import ChatmailStore

/// Values for the app's tests, built directly: no store, no terminal.
enum AppTestData {
    static let utc = TimeZone(identifier: "UTC")!
    /// 2025-03-04 12:00 UTC.
    static let nowMs: Int64 = 1_741_089_600_000

    static func summary(
        _ id: Int64, title: String = "", unread: Int = 0, archived: Bool = false, snippet: String = "Hello there",
        atMs: Int64? = nil
    ) -> ConversationSummary {
        ConversationSummary(
            id: ConversationID(rawValue: id), title: title.isEmpty ? "Conversation \(id)" : title,
            participants: [EmailAddress(address: "p\(id)@example.com", name: "Person \(id)")],
            lastMessageAtMs: atMs ?? nowMs - id * 60_000, snippet: snippet, messageCount: 3, unreadCount: unread,
            hasInbox: !archived, archivedAtMs: archived ? nowMs - 1000 : nil, isNewsletter: false)
    }

    static func list(_ count: Int) -> [ConversationSummary] {
        (1...count).map { summary(Int64($0)) }
    }

    static func message(
        _ id: Int64, in conversation: Int64, text: String = "A message", fromMe: Bool = false,
        labels: [String] = ["INBOX"], subject: String = "Topic"
    ) -> TranscriptMessage {
        TranscriptMessage(
            id: MessageID(rawValue: id), gmailID: "g\(id)", threadID: "t\(conversation)",
            from: EmailAddress(address: fromMe ? "me@example.com" : "p\(conversation)@example.com", name: "Person"),
            isFromMe: fromMe, internalDateMs: nowMs - 3_600_000 + id * 60_000, subject: subject,
            subjectBase: ReplySubject.topicBase(subject), text: text,
            originalText: nil, isNewsletter: false, labels: labels, attachments: [])
    }

    /// A conversation with `count` messages, ids `conversation * 100 + 1 …`, alternating senders.
    static func transcript(_ conversation: Int64, messages count: Int, title: String = "") -> Transcript {
        Transcript(
            conversation: summary(conversation, title: title),
            messages: (1...max(1, count)).map {
                message(
                    conversation * 100 + Int64($0), in: conversation, text: "Message number \($0)", fromMe: $0 % 2 == 0)
            }, earlierMessageCount: 0)
    }

    static func hit(_ message: Int64, in conversation: Int64, text: String = "lunch") -> SearchHit {
        SearchHit(
            messageID: MessageID(rawValue: message), gmailID: "g\(message)", conversation: summary(conversation),
            from: EmailAddress(address: "p\(conversation)@example.com", name: "Person"), isFromMe: false,
            internalDateMs: nowMs, subject: MarkedText(segments: [.init(text: "About ", isMatch: false)]),
            snippet: MarkedText(segments: [.init(text: text, isMatch: true)]), score: -1)
    }

    static func pendingAction(_ id: Int64, status: PendingActionStatus = .failed, error: String? = "HTTP 500")
        -> PendingAction
    {
        PendingAction(
            id: PendingActionID(rawValue: id), account: AccountID(rawValue: 1), kind: .archive, target: "Lunch \(id)",
            targetIDs: ["g\(id)"], addLabels: [], removeLabels: ["INBOX"], status: status, attempts: 1,
            nextAttemptAtMs: nowMs + 5000, lastError: error, createdAtMs: nowMs, updatedAtMs: nowMs)
    }

    /// A code from conversation `conversation`, received `minutesAgo` before ``nowMs``.
    static func code(
        _ code: String, in conversation: Int64, service: String? = "GitHub", minutesAgo: Int64 = 5
    ) -> VerificationCodeHit {
        VerificationCodeHit(
            code: code, service: service, from: EmailAddress(address: "noreply@github.com", name: "GitHub"),
            receivedAtMs: nowMs - minutesAgo * 60_000, gmailID: "code-\(code)", conversation: id(conversation))
    }

    /// A state with `count` conversations loaded and the first selected.
    static func state(columns: Int = 120, rows: Int = 30, conversations count: Int = 5) -> AppState {
        var state = AppState(
            account: "me@example.com", size: TerminalSize(columns: columns, rows: rows), timeZone: utc, nowMs: nowMs)
        _ = AppReducer.start(&state)
        // The first sync ends before the list arrives, so nothing is left running.
        _ = AppReducer.reduce(&state, .syncFinished(SyncSummary(finishedAtMs: nowMs, pendingCount: 0, failedCount: 0)))
        _ = AppReducer.reduce(
            &state, .conversationsLoaded(ListFilter.inbox.conversationFilter(limit: 500), list(count)))
        return state
    }

    /// Feeds a key and returns the effects.
    @discardableResult
    static func press(_ state: inout AppState, _ keys: Key...) -> [AppEffect] {
        keys.flatMap { AppReducer.reduce(&state, .terminal(.key($0))) }
    }

    /// Types each character of `text`.
    @discardableResult
    static func type(_ state: inout AppState, _ text: String) -> [AppEffect] {
        text.flatMap { AppReducer.reduce(&state, .terminal(.key(.character($0)))) }
    }

    /// The effects without the progress-note wake-ups, which most tests do not care about.
    static func work(_ effects: [AppEffect]) -> [AppEffect] {
        effects.filter {
            if case .scheduleTick = $0 { return false }
            return true
        }
    }

    static func id(_ value: Int64) -> ConversationID { ConversationID(rawValue: value) }
}
