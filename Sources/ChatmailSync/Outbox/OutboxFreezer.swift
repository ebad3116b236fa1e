import ChatmailStore
import Foundation
import MailText

/// Makes a queued message's bytes once, before its first attempt, and keeps them: every attempt, over
/// any provider, sends the same message (same Date, same Message-ID), which is also what finding it on
/// the server after a lost answer looks for.
struct OutboxFreezer {
    let store: ChatmailStore
    let clock: ChatmailStore.Clock
    let timeZone: TimeZone

    /// The threading headers of the answered message when the store lacks them (stored before they
    /// were kept): Gmail reads them from the server; `nil` leaves the reply unthreaded.
    typealias ParentHeaders = @Sendable (String) async throws -> (messageID: String?, references: [String])?

    func frozenBytes(of entry: inout OutboxEntry, account: AccountID, parentHeaders: ParentHeaders) async throws
        -> [UInt8]
    {
        if let raw = entry.raw { return raw }
        var inReplyTo: String?
        var references: [String] = []
        if let parentID = entry.message.parentGmailID {
            let stored = try await store.write { tx in try tx.threadingHeaders(ofMessage: parentID, in: account) }
            if let stored, let id = stored.messageID {
                (inReplyTo, references) = (id, stored.references)
            } else if let fetched = try await parentHeaders(parentID) {
                (inReplyTo, references) = (fetched.messageID, fetched.references)
            }
            if let parentMessageID = inReplyTo {
                references = ReplyReferences.make(parentReferences: references, parentMessageID: parentMessageID)
            }
        }
        let from = ReplyPlanner.mail(entry.message.from)
        let date = Date(timeIntervalSince1970: Double(clock()) / 1000)
        let message = OutgoingMessage(
            from: from, to: entry.message.to.map(ReplyPlanner.mail), cc: entry.message.cc.map(ReplyPlanner.mail),
            subject: entry.message.subject, date: date, timeZone: timeZone,
            messageID: MessageIDGenerator.make(for: from), inReplyTo: inReplyTo, references: references,
            body: entry.message.body)
        let raw = try message.rfc5322()
        let dateHeader = MailDate.format(date, timeZone: timeZone)
        try await store.write { [entry] tx in try tx.freezeOutbox(entry.actionID, raw: raw, dateHeader: dateHeader) }
        entry.raw = raw
        entry.dateHeader = dateHeader
        return raw
    }
}
