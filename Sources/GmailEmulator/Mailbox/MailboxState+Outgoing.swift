import Foundation
import MailText

/// `messages.send` and `drafts.*`: what Gmail does to mail the account sends, and where it files it.
extension MailboxState {
    /// Sends `raw` as Gmail's `messages.send` does and files the sent copy.
    ///
    /// - Bcc is removed from the stored copy; a message without any To, Cc or Bcc address is refused.
    /// - Message-ID is replaced by one of the server's making: the client learns it by reading the sent
    ///   message back.
    /// - From is rewritten to the primary address unless it names the account or one of its aliases.
    /// - Labels: SENT; mail to one of the account's own addresses also lands as UNREAD and INBOX.
    /// - Threading: see ``thread(for:requested:)``.
    /// - Parameter nowMs: the send time, which becomes `internalDate` (and `Date` when the message has none).
    /// - throws: 400 `invalidArgument` without recipients; 404 when `threadId` names no thread.
    @discardableResult
    public func send(raw: [UInt8], threadId: String?, nowMs: Int64) throws(GmailError) -> StoredMessage {
        let message = try deliver(SubmittedMessage(raw: raw), threadId: threadId, nowMs: nowMs)
        journal?.append(.send(raw: Data(raw), threadId: threadId, internalDateMs: nowMs))
        return message
    }

    /// The account's own addresses, lowercased: the primary one and its aliases.
    var ownAddresses: Set<String> { Set([account] + aliases.map { $0.lowercased() }) }

    private func deliver(_ message: SubmittedMessage, threadId: String?, nowMs: Int64) throws(GmailError)
        -> StoredMessage
    {
        var outgoing = message
        let recipients = outgoing.recipients
        guard !recipients.isEmpty else { throw .badRequest("Recipient address required", reason: "invalidArgument") }
        let thread = try thread(for: outgoing, requested: threadId)
        outgoing.remove("Bcc")
        outgoing.restrictSender(to: ownAddresses, primary: account)
        if outgoing.value("Date") == nil { outgoing.set("Date", MailboxState.dateHeader(nowMs)) }
        let id = newMessageId()
        outgoing.set("Message-ID", "<CAEMU\(id.uppercased())@mail.gmail.com>")
        let toSelf = recipients.contains { ownAddresses.contains($0) }
        return store(
            id: id, raw: outgoing.bytes, labelIds: toSelf ? ["UNREAD", "SENT", "INBOX"] : ["SENT"], threadId: thread,
            internalDateMs: nowMs)
    }

    /// The thread an outgoing message joins, by Gmail's documented rule: the requested `threadId`, but
    /// only when In-Reply-To or References names a message of that thread and the subjects match once
    /// reply prefixes are stripped. Otherwise `nil`, a new thread.
    /// - throws: 404 when `requested` names no thread (nothing is stored or sent then).
    private func thread(for message: SubmittedMessage, requested: String?) throws(GmailError) -> String? {
        guard let requested, !requested.isEmpty else { return nil }
        let members = thread(requested)
        guard let first = members.first else { throw .notFound }
        let known = Set(members.compactMap { SubmittedMessage.messageID(of: $0.raw) })
        guard message.references.contains(where: known.contains) else { return nil }
        let threadSubject = SubmittedMessage(raw: first.raw).subject
        // MailText's rule, the one chatmail stores as each message's subject base.
        guard ReplySubject.topicBase(message.subject) == ReplySubject.topicBase(threadSubject) else { return nil }
        return requested
    }

    static func dateHeader(_ ms: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    // MARK: Drafts

    /// Creates a draft (`id` nil) or replaces a draft's message: every version is a new message
    /// labelled DRAFT, and the previous version is deleted, as Gmail's history shows it.
    /// - returns: the draft id (`r` and digits, like Gmail's) and the new version.
    /// - throws: 404 for an unknown draft id or thread id.
    @discardableResult
    public func saveDraft(id draftId: String?, raw: [UInt8], threadId: String?, nowMs: Int64) throws(GmailError)
        -> (id: String, message: StoredMessage)
    {
        let previous = try draftId.map { id throws(GmailError) in
            guard let messageId = drafts[id] else { throw GmailError.notFound }
            return messageId
        }
        let outgoing = SubmittedMessage(raw: raw)
        let thread = try thread(for: outgoing, requested: threadId)
        if let previous { discard(previous) }
        let messageId = newMessageId()
        let message = store(
            id: messageId, raw: raw, labelIds: ["DRAFT"], threadId: thread, internalDateMs: nowMs)
        let id = draftId ?? "r" + String(UInt64(messageId, radix: 16) ?? 0)
        drafts[id] = messageId
        journal?.append(.saveDraft(id: draftId, raw: Data(raw), threadId: threadId, internalDateMs: nowMs))
        return (id, message)
    }

    /// Deletes a draft and its message for good.
    public func deleteDraft(_ id: String) throws(GmailError) {
        guard let messageId = drafts.removeValue(forKey: id) else { throw .notFound }
        discard(messageId)
        journal?.append(.deleteDraft(id: id))
    }

    /// Sends a draft as ``send(raw:threadId:nowMs:)`` would, then deletes it: a second send is a 404.
    @discardableResult
    public func sendDraft(_ id: String, nowMs: Int64) throws(GmailError) -> StoredMessage {
        guard let messageId = drafts[id], let draft = messages[messageId] else { throw .notFound }
        let ownThread = draft.threadId == draft.id
        let sent = try deliver(
            SubmittedMessage(raw: draft.raw), threadId: ownThread ? nil : draft.threadId, nowMs: nowMs)
        drafts[id] = nil
        discard(messageId)
        journal?.append(.sendDraft(id: id, internalDateMs: nowMs))
        return sent
    }

    /// The draft's current message.
    public func draft(_ id: String) -> StoredMessage? { drafts[id].flatMap { messages[$0] } }

    /// Every draft with its message, newest first.
    public func allDrafts() -> [(id: String, message: StoredMessage)] {
        drafts.compactMap { id, messageId in messages[messageId].map { (id, $0) } }
            .sorted { ($0.message.internalDateMs, $0.id) > ($1.message.internalDateMs, $1.id) }
    }
}
