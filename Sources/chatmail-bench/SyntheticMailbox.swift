import ChatmailStore
import GmailEmulator  // SeededRandom: the same SplitMix64 the emulator's synthetic mailbox uses

/// A deterministic synthetic mailbox: people, groups, newsletters and one very long conversation.
///
/// The same seed always gives the same messages, so benchmark runs are comparable.
struct SyntheticMailbox {
    let messageCount: Int
    let conversationCount: Int
    /// Messages in conversation 0, the one `show` is measured on.
    let bigConversationSize: Int
    /// The newest message's time; the mailbox spans the two years before it.
    let endDateMs: Int64
    static let twoYearsMs: Int64 = 2 * 365 * 24 * 3600 * 1000
    static let me = EmailAddress(address: "me@example.org", name: "Sam Example")

    static let firstNames = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Radia", "Dennis",
                             "Margaret", "John", "Katherine", "Tim", "Hedy", "Linus", "Sophie", "Niklaus", "Jean", "Claude"]
    static let lastNames = ["Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Perlman",
                            "Ritchie", "Hamilton", "McCarthy", "Johnson", "Berners-Lee", "Lamarr", "Torvalds", "Wilson",
                            "Wirth", "Sammet", "Shannon"]
    static let words = """
        the a meeting tomorrow lunch project update review draft thanks please could you send report numbers \
        schedule call later today week plan budget idea notes agenda slides coffee train ticket photo weekend \
        garden book movie dinner friday monday office remote deploy release bug fix test build server data \
        question answer quick note reminder invoice receipt trip hotel flight kids school birthday party
        """.split(separator: " ").map(String.init)

    /// The person at the heart of conversation `index`.
    static func person(_ index: Int) -> EmailAddress {
        let first = firstNames[index % firstNames.count]
        let last = lastNames[(index / firstNames.count) % lastNames.count]
        return EmailAddress(address: "person\(index)@example.com", name: "\(first) \(last) \(index)")
    }

    /// The conversation each message belongs to: every k-th message goes to conversation 0, so it spans
    /// the whole time range with `bigConversationSize` messages; the rest are spread over the others.
    func conversationIndex(ofMessage index: Int) -> Int {
        let stride = max(1, messageCount / max(1, bigConversationSize))
        if index % stride == 0 && index / stride < bigConversationSize { return 0 }
        return 1 + index % max(1, conversationCount - 1)
    }

    func message(_ index: Int, random: inout SeededRandom) -> MessageInput {
        let conversation = conversationIndex(ofMessage: index)
        let person = Self.person(conversation)
        let isNewsletter = conversation % 10 == 9
        let isGroup = conversation % 10 == 4
        let fromMe = !isNewsletter && random.next() % 10 < 3
        var others = [person]
        if isGroup { others.append(Self.person(conversation + conversationCount + 7)) }
        let wordCount = 20 + Int(random.next() % 60)
        let body = (0..<wordCount).map { _ in Self.words[Int(random.next() % UInt64(Self.words.count))] }.joined(separator: " ")
        var labels: [String] = fromMe ? ["SENT"] : []
        if !fromMe {
            if random.next() % 10 < 8 { labels.append("INBOX") }
            if random.next() % 10 < 2 { labels.append("UNREAD") }
        }
        if random.next() % 20 == 0 { labels.append("STARRED") }
        // Two years of mail, oldest first, with jitter.
        let spacing = Self.twoYearsMs / Int64(max(1, messageCount))
        let date = endDateMs - Int64(messageCount - index) * spacing + Int64(random.next() % UInt64(max(1, spacing / 2)))
        return MessageInput(
            gmailID: String(0x1000_0000 + index, radix: 16), threadID: "t\(conversation)-\(index / 5)",
            internalDateMs: date,
            from: fromMe ? Self.me : person, to: fromMe ? others : [Self.me], cc: fromMe ? [] : Array(others.dropFirst()),
            subject: isNewsletter ? "Issue #\(index): this week's news" : "Re: \(Self.words[index % Self.words.count]) plans",
            gmailSnippet: String(body.prefix(100)), bodyText: body,
            isNewsletter: isNewsletter, newsletterReasons: isNewsletter ? ["List-Unsubscribe"] : [],
            sizeEstimate: Int64(body.utf8.count + 800), historyID: UInt64(1000 + index), labelIDs: labels)
    }

    /// Time spent in each part of ``seed(into:batchSize:progress:)``.
    struct SeedTimings {
        var persistSeconds: Double
        var rollupSeconds: Double
    }

    /// Stores every message through the store API the way an initial sync does: `batchSize` messages
    /// per transaction, then one rollup pass over every conversation that was touched.
    @discardableResult
    func seed(into store: ChatmailStore, batchSize: Int = 500, progress: (Int) -> Void = { _ in }) throws -> SeedTimings {
        var random = SeededRandom(seed: 42)
        let account = try store.write { tx in try tx.ensureAccount(email: Self.me.address) }
        var touched = Set<ConversationID>()
        var start = 0
        var persisting = Duration.zero
        while start < messageCount {
            let end = min(messageCount, start + batchSize)
            // Generating the synthetic text is not the store's work: only the write is timed.
            let batch = (start..<end).map { message($0, random: &random) }
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
