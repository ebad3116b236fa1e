import ChatmailStore
import Foundation
import GmailAPI
import MailText

/// Gmail message → MailText → store rows.
///
/// ``prepare(_:)`` is pure and runs outside any transaction (on every core); ``persist(_:in:tx:)``
/// writes inside the caller's transaction. The store hashes participants against ALL the account's
/// aliases, which the labels-and-aliases phase stores before any message is persisted.
public struct MessagePersister: Sendable {
    public let pipeline: TextPipeline

    public init(pipeline: TextPipeline = TextPipeline()) {
        self.pipeline = pipeline
    }

    /// The store row of a message fetched with `format=full`.
    public func prepare(_ message: GmailAPI.Message) -> MessageInput {
        let parsed = message.payload.map(GmailPayloadAdapter.parse) ?? ParsedMessage(raw: [])
        let processed = pipeline.process(parsed, gmailLabels: message.labelIds)
        return MessageInputBuilder.make(
            processed,
            envelope: MessageEnvelope(
                gmailID: message.id, threadID: message.threadId ?? message.id,
                internalDateMs: message.internalDateMs ?? parsed.dateMs ?? 0, labelIDs: message.labelIds,
                snippet: Self.decodeEntities(message.snippet ?? ""), sizeEstimate: Int64(message.sizeEstimate ?? 0),
                historyID: message.historyID))
    }

    /// Prepares many messages on every core, keeping their order.
    public func prepareAll(_ messages: [GmailAPI.Message]) async -> [MessageInput] {
        guard messages.count > 8 else { return messages.map(prepare) }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let chunk = (messages.count + workers - 1) / workers
        return await withTaskGroup(of: (Int, [MessageInput]).self) { group in
            for worker in 0..<workers {
                let range = (worker * chunk)..<min(messages.count, (worker + 1) * chunk)
                guard !range.isEmpty else { continue }
                let slice = Array(messages[range])
                group.addTask { (worker, slice.map(self.prepare)) }
            }
            var parts = [[MessageInput]](repeating: [], count: workers)
            for await (worker, inputs) in group { parts[worker] = inputs }
            return parts.flatMap { $0 }
        }
    }

    /// Stores prepared messages, reporting every conversation they changed (a moved message changes two).
    ///
    /// New mail that a deny rule with `archives` decides is archived here, in the same transaction, and
    /// queued for Gmail: the rule acts as the mail arrives, as the user would have.
    public static func persist(
        _ inputs: [MessageInput], in account: AccountID, tx: StoreTransaction,
        reportingTo modifications: inout Modifications
    ) throws {
        var toArchive: [MessageID] = []
        for input in inputs {
            let upsert = try tx.upsert(input, in: account)
            modifications.report(upsert.affectedConversations)
            if upsert.decidedByArchivingRule { toArchive.append(upsert.messageID) }
        }
        modifications.report(try tx.archiveByRules(toArchive, in: account).conversations)
        try tx.clearFailures(gmailIDs: inputs.map(\.gmailID), in: account)
    }

    /// Gmail's snippet escapes HTML (`&#39;`, `&amp;`); decode the common entities for display.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
