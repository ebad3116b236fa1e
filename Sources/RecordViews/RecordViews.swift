import ChatmailStore
import TerminalUI

// The views of stored records: the one place that turns the store's records into what the terminal
// renderers draw, so neither side depends on the other. Ids stay behind here; a view keeps
// only what is shown.

extension Person {
    /// The person behind an address, keyed by its identity key.
    public init(_ address: EmailAddress) {
        self.init(address: address.address, name: address.name, key: address.normalizedAddress)
    }
}

extension ConversationRow {
    /// A list conversation's snippet is named after its author's first name ("You" for the account), since
    /// anyone on the list may have written it.
    public init(_ conversation: ConversationSummary) {
        let author = conversation.lastSender.map { $0.isFromMe ? "You" : ConversationTitle.firstName(of: $0.from) }
        self.init(
            title: conversation.title, snippet: conversation.snippet, snippetAuthor: author,
            lastMessageAtMs: conversation.lastMessageAtMs, unreadCount: conversation.unreadCount,
            isNewsletter: conversation.isNewsletter)
    }
}

extension TranscriptView {
    /// The chat of a stored conversation.
    /// A mailing list has too many senders to name under its title: its address and how many wrote stand
    /// there instead.
    public init(_ transcript: Transcript) {
        let conversation = transcript.conversation
        let subtitle = conversation.list.map { list in
            let count = conversation.participants.count
            return "Mailing list \(list.postAddress ?? list.id), \(count == 1 ? "1 person" : "\(count) people") wrote"
        }
        self.init(
            title: conversation.title, participants: conversation.participants.map(Person.init), subtitle: subtitle,
            earlierMessageCount: transcript.earlierMessageCount, messages: transcript.messages.map(BubbleMessage.init))
    }
}

extension BubbleMessage {
    /// The bubble of a stored message.
    public init(_ message: TranscriptMessage) {
        self.init(
            from: Person(message.from), isFromMe: message.isFromMe, isUnread: message.isUnread,
            dateMs: message.internalDateMs, subject: message.subject, subjectBase: message.subjectBase,
            text: message.text,
            originalText: message.originalText, isNewsletter: message.isNewsletter,
            attachments: message.attachments.map { Attachment(filename: $0.filename, size: $0.size) },
            delivery: message.outbox.map(Self.delivery))
    }

    /// The outbox mark of a bubble header.
    static func delivery(_ state: OutboxState) -> String {
        switch state.status {
        case .queued: "queued"
        case .sending: "sending"
        case .failed: "failed, will retry"
        case .abandoned: "not sent (chatmail pending)"
        case .unknown: "outcome unknown (chatmail pending)"
        }
    }
}

extension SearchHitView {
    /// - Parameter openCommand: the `chatmail show …` command that opens the hit's conversation.
    public init(_ hit: SearchHit, openCommand: String?) {
        self.init(
            author: Person(hit.from), isFromMe: hit.isFromMe, conversationTitle: hit.conversation.title,
            openCommand: openCommand, dateMs: hit.internalDateMs, subject: hit.subject, snippet: hit.snippet)
    }
}

extension CodeRow {
    /// The row of a code found in a stored message.
    public init(_ hit: VerificationCodeHit) {
        self.init(code: hit.code, service: hit.service, sender: Person(hit.from), receivedAtMs: hit.receivedAtMs)
    }
}

extension StatusView {
    /// The status of the account whose data lives at `dataPath` (the home directory); `isDemo` marks
    /// the demo's home, whose Gmail is the local emulator.
    public init(_ status: StoreStatus, dataPath: String, isDemo: Bool) {
        let actions = status.actionCounts
        self.init(
            account: status.account.email, dataPath: dataPath, isDemo: isDemo, historyID: status.account.historyID,
            lastSyncAtMs: status.account.lastSyncAtMs, messageCount: status.messageCount,
            conversationCount: status.conversationCount, archivedConversationCount: status.archivedConversationCount,
            unreadConversationCount: status.unreadConversationCount,
            pendingActionCount: actions[.pending, default: 0] + actions[.processing, default: 0],
            failedActionCount: actions[.failed, default: 0], abandonedActionCount: actions[.abandoned, default: 0],
            abandonedMessageCount: status.abandonedMessageCount)
        imapServer = status.imapServer
    }
}

extension QueuedActionRow {
    public init(_ action: PendingAction) {
        self.init(
            number: action.id.rawValue, kind: action.kind.rawValue, status: Status(action.status),
            attempts: action.attempts, nextAttemptAtMs: action.nextAttemptAtMs, target: action.target,
            messageCount: action.targetIDs.count, lastError: action.lastError)
    }
}

extension QueuedActionRow.Status {
    public init(_ status: PendingActionStatus) {
        switch status {
        case .pending: self = .pending
        case .processing: self = .processing
        case .failed: self = .failed
        case .completed: self = .completed
        case .abandoned: self = .abandoned
        }
    }
}
