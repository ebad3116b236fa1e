import ChatmailStore
import Digest
import Foundation
import IMAPProtocol
import MailText

/// A downloaded IMAP message made ready to store: its row, and what identifies its bytes.
struct PreparedIMAPMessage: Sendable {
    var uid: UInt32
    var input: MessageInput
    /// SHA-256 of the raw bytes: the identity of a message outside Gmail.
    var digest: String
    var copy: IMAPCopyState
    var internalDateMs: Int64?
    /// Gmail's X-GM-MSGID as Gmail's API spells message ids (lowercase hex), when the server is Gmail.
    var gmailKey: String?
    /// Why the message could not be read as email; it is stored anyway, as what it is.
    var unreadable: String?
}

/// Turns fetched IMAP messages into store rows, with the same text pipeline and mapping as every other
/// way mail arrives.
struct IMAPMessagePreparer: Sendable {
    let pipeline: TextPipeline

    /// The labels one copy gives its message: the folder's, the flags', and Gmail's.
    static func labels(folderLabel: String?, copy: IMAPCopyState) -> [String] {
        var labels = Set(copy.gmailLabels ?? [])
        if let folderLabel { labels.insert(folderLabel) }
        if !copy.seen { labels.insert("UNREAD") }
        if copy.flagged { labels.insert("STARRED") }
        return labels.sorted()
    }

    /// The state of a copy as the server reports it, Gmail labels mapped to label ids.
    static func copyState(_ attributes: IMAPFetchAttributes, fallback: IMAPCopyState? = nil) -> IMAPCopyState {
        let flags = attributes.flags.map { Set($0.map { $0.lowercased() }) }
        return IMAPCopyState(
            seen: flags.map { $0.contains("\\seen") } ?? fallback?.seen ?? true,
            flagged: flags.map { $0.contains("\\flagged") } ?? fallback?.flagged ?? false,
            gmailLabels: attributes.gmailLabels.map { names in
                names.map { IMAPFolderRoles.label(forGmailLabel: $0).id }.sorted()
            } ?? fallback?.gmailLabels)
    }

    func prepare(_ attributes: IMAPFetchAttributes, body: [UInt8], folderLabel: String?) -> PreparedIMAPMessage {
        let uid = attributes.uid ?? 0
        let parsed = ParsedMessage(raw: body)
        let unreadable = MessageValidation.rejection(of: parsed, bytes: body).map { "\($0)" }
        let copy = Self.copyState(attributes)
        let labels = Self.labels(folderLabel: folderLabel, copy: copy)
        let processed = pipeline.process(parsed, gmailLabels: labels)
        let digest = SHA256.hexDigest(of: body)
        let gmailKey = attributes.gmailMessageID.map { String($0, radix: 16) }
        let threadKey =
            attributes.gmailThreadID.map { String($0, radix: 16) }
            ?? parsed.root.headers.first("References").flatMap(MailboxImporter.firstMessageID)
            ?? parsed.root.headers.first("In-Reply-To").flatMap(MailboxImporter.firstMessageID) ?? parsed.messageID
            ?? digest
        let dates = [parsed.dateMs, attributes.internalDateMs].compactMap { $0 }
        let envelope = MessageEnvelope(
            gmailID: gmailKey ?? "", threadID: "imap-" + String(SHA256.hexDigest(of: Array(threadKey.utf8)).prefix(16)),
            internalDateMs: dates.first(where: MailboxImporter.isPlausibleDate) ?? dates.first ?? 0, labelIDs: labels,
            snippet: String(processed.text.text.prefix(200)), sizeEstimate: Int64(attributes.rfc822Size ?? body.count))
        return PreparedIMAPMessage(
            uid: uid, input: MessageInputBuilder.make(processed, envelope: envelope), digest: digest, copy: copy,
            internalDateMs: attributes.internalDateMs, gmailKey: gmailKey, unreadable: unreadable)
    }

    /// Prepares a batch on every core, keeping its order: messages differ a hundredfold in cost, so the
    /// work is handed out in small chunks.
    func prepareAll(_ fetched: [(IMAPFetchAttributes, [UInt8])], folderLabel: String?) async -> [PreparedIMAPMessage] {
        let chunk = 16
        let chunks = (fetched.count + chunk - 1) / chunk
        return await withTaskGroup(of: (Int, [PreparedIMAPMessage]).self) { group in
            for part in 0..<chunks {
                let slice = fetched[(part * chunk)..<min(fetched.count, (part + 1) * chunk)]
                group.addTask { (part, slice.map { prepare($0.0, body: $0.1, folderLabel: folderLabel) }) }
            }
            var parts = [[PreparedIMAPMessage]](repeating: [], count: chunks)
            for await (part, prepared) in group { parts[part] = prepared }
            return parts.flatMap { $0 }
        }
    }
}
