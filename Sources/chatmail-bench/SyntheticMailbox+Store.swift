import ChatmailStore
import GmailEmulator

/// The benchmarks store the emulator's synthetic mailbox directly, the way a sync would store it, but
/// without MIME or HTTP in between: only the store's work is measured.
extension SyntheticMailbox {
    /// Time spent in each part of ``seed(into:batchSize:progress:)``.
    struct SeedTimings {
        var persistSeconds: Double
        var rollupSeconds: Double
    }

    /// Stores every message through the store API the way an initial sync does: `batchSize` messages
    /// per transaction, then one rollup pass over every conversation that was touched.
    @discardableResult
    func seed(into store: ChatmailStore, batchSize: Int = 500, progress: (Int) -> Void = { _ in }) throws -> SeedTimings
    {
        var messages = messages(seed: 42)
        let account = try store.write { tx in try tx.ensureAccount(email: me.address) }
        var touched = Set<ConversationID>()
        var start = 0
        var persisting = Duration.zero
        while start < messageCount {
            let end = min(messageCount, start + batchSize)
            // Generating the synthetic text is not the store's work: only the write is timed.
            let batch = (start..<end).compactMap { _ in messages.next().map(MessageInput.init) }
            let writeStart = ContinuousClock.now
            defer { persisting += ContinuousClock.now - writeStart }
            let changed = try store.write { tx in
                var changed = Set<ConversationID>()
                for message in batch { changed.formUnion(try tx.upsert(message, in: account).affectedConversations) }
                return changed
            }
            touched.formUnion(changed)
            start = end
            progress(end)
        }
        let rollupStart = ContinuousClock.now
        try store.write { tx in try tx.recomputeRollups(for: touched) }
        let done = ContinuousClock.now
        return SeedTimings(persistSeconds: persisting.seconds, rollupSeconds: (done - rollupStart).seconds)
    }
}

extension MessageInput {
    /// What a sync would store for `message`: Gmail-like ids from its position, a snippet cut from its text.
    init(_ message: SyntheticMessage) {
        func address(_ person: SyntheticMailbox.Person) -> EmailAddress {
            EmailAddress(address: person.address, name: person.name)
        }
        self.init(
            gmailID: String(0x1000_0000 + message.index, radix: 16), threadID: message.threadKey,
            internalDateMs: message.dateMs,
            from: address(message.from), to: message.to.map(address), cc: message.cc.map(address),
            subject: message.subject, gmailSnippet: String(message.text.prefix(100)), bodyText: message.text,
            isNewsletter: message.isNewsletter, newsletterReasons: message.isNewsletter ? ["List-Unsubscribe"] : [],
            sizeEstimate: Int64(message.text.utf8.count + 800), historyID: UInt64(1000 + message.index),
            labelIDs: message.labels)
    }
}
