import ChatmailStore
import Digest
import Foundation
import MailText

/// What an import did.
public struct ImportReport: Sendable, Equatable {
    public var messagesRead = 0
    public var inserted = 0
    /// Already stored with the same labels: nothing to do.
    public var unchanged = 0
    /// The same message again within this import (same content, whatever its export labels): the
    /// first occurrence wins, so an import is idempotent even when a source repeats a message.
    public var duplicates = 0
    /// Already stored, labels replaced by the ones the source now has.
    public var relabelled = 0
    public var skipped: [Skipped] = []
    public var conversationsTouched = 0

    public struct Skipped: Sendable, Equatable {
        public var origin: String
        public var reason: String
    }
}

/// Imports raw messages (`.eml` files, mbox, Google Takeout) into the store, idempotently.
///
/// Each message gets a content-derived id (``ImportIdentity``), so importing the same source twice
/// stores nothing new, and a newer Takeout export only updates labels. Parsing and the text pipeline run on
/// every core, a batch ahead of the writes; writes happen in one transaction per batch, rollups included,
/// so an interrupted import leaves consistent conversations.
public struct MailboxImporter: Sendable {
    public let store: ChatmailStore
    public let pipeline: TextPipeline
    public let batchSize: Int

    /// The default pipeline skips the sanitized HTML of plain-and-HTML mail: the store keeps only text.
    public init(store: ChatmailStore, pipeline: TextPipeline = TextPipeline(twinHTML: .skipped), batchSize: Int = 256) {
        self.store = store
        self.pipeline = pipeline
        self.batchSize = max(1, batchSize)
    }

    public func run(
        _ messages: [RawMailboxMessage], into account: AccountID,
        progress: @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> ImportReport {
        var report = ImportReport()
        report.messagesRead = messages.count
        let tracker = ModificationTracker()
        var seen = Set<String>()
        let aliases = try await store.write { tx in try tx.aliases(of: account) }
        let batches = stride(from: 0, to: messages.count, by: batchSize).map {
            $0..<min(messages.count, $0 + batchSize)
        }
        // The next batch is parsed while the current one is written, so the text pipeline keeps the cores
        // busy during the write transaction instead of waiting for it. Batches are still written one at a
        // time and in order, so the store sees exactly the writes of a sequential import.
        func preparing(_ index: Int) -> Task<[Prepared], Never>? {
            guard index < batches.count else { return nil }
            let batch = Array(messages[batches[index]])
            return Task { await prepare(batch, aliases: aliases) }
        }
        var next = preparing(0)
        var index = 0
        while let current = next {
            var prepared = await current.value
            next = preparing(index + 1)
            // The first occurrence of an id in this run wins; later ones never reach the store.
            prepared = prepared.filter { item in
                guard case .message(let input) = item else { return true }
                if seen.insert(input.gmailID).inserted { return true }
                report.duplicates += 1
                return false
            }
            let batchToWrite = prepared
            let outcome: BatchOutcome
            do {
                outcome = try await tracker.write(in: store) { tx, modifications in
                    try Self.write(batchToWrite, into: account, tx: tx, reportingTo: &modifications)
                }
            } catch {
                _ = await next?.value  // no parsing outlives the import that started it
                throw error
            }
            report.inserted += outcome.inserted
            report.unchanged += outcome.unchanged
            report.relabelled += outcome.relabelled
            report.skipped += outcome.skipped
            progress(batches[index].upperBound, messages.count)
            index += 1
        }
        report.conversationsTouched = await tracker.changed.count
        return report
    }

    /// A message ready to store, or the reason it cannot be.
    enum Prepared: Sendable {
        case message(MessageInput)
        case skipped(ImportReport.Skipped)
    }

    /// Runs the text pipeline over a batch on the cooperative pool, in small chunks: messages differ a
    /// hundredfold in cost, and one chunk per core left a core idle while the other finished a slow one.
    func prepare(_ batch: [RawMailboxMessage], aliases: Set<String>) async -> [Prepared] {
        let chunk = 16
        let chunks = (batch.count + chunk - 1) / chunk
        let pipeline = self.pipeline
        return await withTaskGroup(of: (Int, [Prepared]).self) { group in
            for part in 0..<chunks {
                let slice = Array(batch[(part * chunk)..<min(batch.count, (part + 1) * chunk)])
                group.addTask {
                    (part, slice.map { Self.prepare($0, pipeline: pipeline, aliases: aliases) })
                }
            }
            var parts = [[Prepared]](repeating: [], count: chunks)
            for await (part, prepared) in group { parts[part] = prepared }
            return parts.flatMap { $0 }
        }
    }

    static func prepare(_ raw: RawMailboxMessage, pipeline: TextPipeline, aliases: Set<String>) -> Prepared {
        let parsed = ParsedMessage(raw: raw.bytes)
        if let rejection = MessageValidation.rejection(of: parsed, bytes: raw.bytes) {
            return .skipped(ImportReport.Skipped(origin: raw.origin, reason: "not an email message: \(rejection)"))
        }
        // Export tools encode non-ASCII label names as RFC 2047 words; decode before splitting at commas.
        let takeoutLabels = parsed.root.headers.first("X-Gmail-Labels").map {
            TakeoutLabels.gmailLabelIDs(EncodedWords.decode($0))
        }
        let fromMe = parsed.sender.map { aliases.contains(EmailNormalizer.identityKey(for: $0.address)) } ?? false
        let labels = takeoutLabels ?? (fromMe ? ["SENT"] : ["INBOX"])
        let processed = pipeline.process(parsed, gmailLabels: labels)
        let id = ImportIdentity.gmailID(for: raw.bytes)
        let threadKey =
            parsed.root.headers.first("References").flatMap(firstMessageID)
            ?? parsed.root.headers.first("In-Reply-To").flatMap(firstMessageID) ?? parsed.messageID ?? id
        let envelope = MessageEnvelope(
            gmailID: id, threadID: "imp-" + String(SHA256.hexDigest(of: Array(threadKey.utf8)).prefix(16)),
            internalDateMs: [parsed.dateMs, raw.separatorDateMs, raw.fileDateMs].lazy.compactMap { $0 }
                .first(where: isPlausibleDate) ?? 0,
            labelIDs: labels,
            snippet: String(processed.text.text.prefix(200)), sizeEstimate: Int64(raw.bytes.count))
        return .message(MessageInputBuilder.make(processed, envelope: envelope))
    }

    /// Dates from 1971 to a day from now. A Date header in year 3609 (seen in the corpus) would sort the
    /// message above everything for centuries; the next source of a date is used instead.
    static func isPlausibleDate(_ ms: Int64) -> Bool {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        return ms >= 31_536_000_000 && ms <= now + 86_400_000
    }

    /// The first `<id>` of a References or In-Reply-To value.
    static func firstMessageID(_ raw: [UInt8]) -> String? {
        let text = String(decoding: raw, as: UTF8.self)
        guard let open = text.firstIndex(of: "<"), let close = text[open...].firstIndex(of: ">") else { return nil }
        return String(text[open...close])
    }

    struct BatchOutcome: Sendable {
        var inserted = 0, unchanged = 0, relabelled = 0
        var skipped: [ImportReport.Skipped] = []
    }

    static func write(
        _ prepared: [Prepared], into account: AccountID, tx: StoreTransaction,
        reportingTo modifications: inout Modifications
    ) throws -> BatchOutcome {
        var outcome = BatchOutcome()
        var inputs: [MessageInput] = []
        for item in prepared {
            switch item {
            case .message(let input): inputs.append(input)
            case .skipped(let skipped): outcome.skipped.append(skipped)
            }
        }
        // Takeout's user labels arrive by name; give them that name rather than their derived id.
        // Sorted: label rows get the same ids on every import of the same source.
        for labelID in Set(inputs.flatMap(\.labelIDs)).sorted() where labelID.hasPrefix(TakeoutLabels.userLabelPrefix) {
            try tx.upsertLabel(
                gmailID: labelID, name: String(labelID.dropFirst(TakeoutLabels.userLabelPrefix.count)), type: .user,
                in: account)
        }
        let stored = try tx.labelIDs(ofMessages: inputs.map(\.gmailID), in: account)
        let awaiting = try tx.awaitingListHeaders(inputs.map(\.gmailID), in: account)
        for input in inputs {
            if awaiting.contains(input.gmailID) {
                // Imported before the store kept list headers: this import brings them.
                let headers = ListHeaderValues(
                    mailingList: input.mailingList, listPosting: input.listPosting, replyTo: input.replyTo,
                    mailFollowupTo: input.mailFollowupTo)
                modifications.report(try tx.applyListHeaders(headers, toMessage: input.gmailID, in: account))
            }
            if let labels = stored[input.gmailID] {
                if labels == Set(input.labelIDs) {
                    outcome.unchanged += 1
                } else if let conversation = try tx.replaceLabels(input.labelIDs, onMessage: input.gmailID, in: account)
                {
                    outcome.relabelled += 1
                    modifications.report(conversation)
                }
                continue
            }
            modifications.report(try tx.upsert(input, in: account).affectedConversations)
            outcome.inserted += 1
        }
        return outcome
    }
}
