import Foundation

/// A deterministic synthetic mailbox: the same shape and the same seed always give the same messages,
/// so test and benchmark runs are comparable. The emulator serves it as raw messages
/// (``SyntheticMessage/rfc822``); the benchmarks store it directly, without a Gmail in between.
///
/// Conversations are the unit of the shape: each belongs to one correspondent, a tenth of them are
/// newsletters and a tenth are groups of two people. Conversation 0 can be made long (`bigConversationSize`
/// messages spread over the whole time range, the one a benchmark reads back); the other messages are
/// spread evenly over the rest. Within a conversation, messages form threads of five.
public struct SyntheticMailbox: Sendable {
    /// One side of a message: a display name and an address.
    public struct Person: Sendable, Hashable {
        public var name: String
        public var address: String

        public init(name: String, address: String) {
            self.name = name
            self.address = address
        }
    }

    public let messageCount: Int
    public let conversationCount: Int
    /// Messages in conversation 0; 0 spreads the messages evenly over every conversation.
    public let bigConversationSize: Int
    /// The newest message's time; the mailbox spans `spanMs` before it.
    public let endDateMs: Int64
    public let spanMs: Int64
    /// The account's owner, who sends about three in ten messages.
    public let me: Person
    /// Named correspondents of the first one-to-one conversations, in order; generated people follow.
    public let cast: [Person]

    public static let twoYearsMs: Int64 = 2 * 365 * 24 * 3600 * 1000

    public init(
        messageCount: Int, conversationCount: Int, bigConversationSize: Int, endDateMs: Int64,
        spanMs: Int64 = twoYearsMs, me: Person = Person(name: "Sam Example", address: "me@example.org"),
        cast: [Person] = []
    ) {
        self.messageCount = messageCount
        self.conversationCount = conversationCount
        self.bigConversationSize = bigConversationSize
        self.endDateMs = endDateMs
        self.spanMs = spanMs
        self.me = me
        self.cast = cast
    }

    /// The emulator's `--synthetic` mailbox: one correspondent per ten messages, like a real mailbox (a
    /// fixed handful of people would make every conversation thousands of messages long at 100,000), about
    /// an hour between messages from November 2023 onwards. Six named people, some with accents, are the
    /// first correspondents, so tests can name them.
    public static func emulator(messageCount: Int, account: String) -> SyntheticMailbox {
        let hour: Int64 = 3_600_000
        return SyntheticMailbox(
            messageCount: messageCount, conversationCount: max(6, messageCount / 10), bigConversationSize: 0,
            endDateMs: 1_700_000_000_000 + Int64(messageCount) * hour, spanMs: Int64(messageCount) * hour,
            me: Person(name: "Me", address: account), cast: namedPeople)
    }

    static let namedPeople = [
        Person(name: "Ann Example", address: "ann@example.org"),
        Person(name: "Bob Builder", address: "bob@example.net"),
        Person(name: "Zoë Müller", address: "zoe@example.de"),
        Person(name: "Carlos Peña", address: "carlos@example.es"),
        Person(name: "Dana Lee", address: "dana@example.com"), Person(name: "Émile Roux", address: "emile@example.fr"),
    ]

    static let firstNames = [
        "Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Radia", "Dennis",
        "Margaret", "John", "Katherine", "Tim", "Hedy", "Linus", "Sophie", "Niklaus", "Jean", "Claude",
    ]
    static let lastNames = [
        "Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Thompson", "Perlman",
        "Ritchie", "Hamilton", "McCarthy", "Johnson", "Berners-Lee", "Lamarr", "Torvalds", "Wilson",
        "Wirth", "Sammet", "Shannon",
    ]
    /// A small vocabulary on purpose: search benchmarks rely on how often words occur ("invoice" in about
    /// half the messages, "quick note" as a phrase).
    static let words = """
        the a meeting tomorrow lunch project update review draft thanks please could you send report numbers \
        schedule call later today week plan budget idea notes agenda slides coffee train ticket photo weekend \
        garden book movie dinner friday monday office remote deploy release bug fix test build server data \
        question answer quick note reminder invoice receipt trip hotel flight kids school birthday party
        """.split(separator: " ").map(String.init)

    /// The generated person at the heart of conversation `index` when the cast does not name one.
    public static func person(_ index: Int) -> Person {
        let first = firstNames[index % firstNames.count]
        let last = lastNames[(index / firstNames.count) % lastNames.count]
        return Person(name: "\(first) \(last) \(index)", address: "person\(index)@example.com")
    }

    /// The person at the heart of conversation `conversation`: the next named one for a one-to-one
    /// conversation while the cast lasts, a generated one otherwise.
    public func correspondent(_ conversation: Int) -> Person {
        guard !Self.isNewsletter(conversation) && !Self.isGroup(conversation) else { return Self.person(conversation) }
        // One-to-one conversations before this one: two in every ten conversations are not.
        let slot = conversation - 2 * (conversation / 10) - (conversation % 10 > 4 ? 1 : 0)
        return slot < cast.count ? cast[slot] : Self.person(conversation)
    }

    static func isNewsletter(_ conversation: Int) -> Bool { conversation % 10 == 9 }
    static func isGroup(_ conversation: Int) -> Bool { conversation % 10 == 4 }

    /// The conversation each message belongs to: every k-th message goes to conversation 0, so it spans
    /// the whole time range with `bigConversationSize` messages; the rest are spread over the others.
    /// Without a long conversation, messages are spread over all of them.
    public func conversationIndex(ofMessage index: Int) -> Int {
        if bigConversationSize == 0 { return index % max(1, conversationCount) }
        let stride = max(1, messageCount / max(1, bigConversationSize))
        if index % stride == 0 && index / stride < bigConversationSize { return 0 }
        return 1 + index % max(1, conversationCount - 1)
    }

    /// The messages, oldest first, drawn from `seed`.
    public func messages(seed: UInt64) -> Messages { Messages(mailbox: self, random: SeededRandom(seed: seed)) }

    /// Draws the messages one at a time, so 100,000 of them never sit in memory together.
    public struct Messages: Sequence, IteratorProtocol, Sendable {
        let mailbox: SyntheticMailbox
        var random: SeededRandom
        var index = 0
        /// Per conversation: how many messages it has so far and the Message-ID of its latest.
        var conversations: [Int: (count: Int, latest: String)] = [:]

        public mutating func next() -> SyntheticMessage? {
            guard index < mailbox.messageCount else { return nil }
            defer { index += 1 }
            var message = mailbox.message(index, random: &random)
            let previous = conversations[message.conversation]
            let ordinal = previous?.count ?? 0
            message.threadKey = "t\(message.conversation)-\(ordinal / 5)"
            if ordinal % 5 != 0 { message.inReplyTo = previous?.latest }
            conversations[message.conversation] = (ordinal + 1, message.messageID)
            return message
        }
    }

    /// Message `index`; the draws from `random` are the same whatever the shape, in this order.
    func message(_ index: Int, random: inout SeededRandom) -> SyntheticMessage {
        let conversation = conversationIndex(ofMessage: index)
        let person = correspondent(conversation)
        let isNewsletter = Self.isNewsletter(conversation)
        let isGroup = Self.isGroup(conversation)
        let fromMe = !isNewsletter && random.next() % 10 < 3
        var others = [person]
        if isGroup { others.append(Self.person(conversation + conversationCount + 7)) }
        let wordCount = 20 + Int(random.next() % 60)
        let body = (0..<wordCount).map { _ in Self.words[Int(random.next() % UInt64(Self.words.count))] }.joined(
            separator: " ")
        var labels: [String] = fromMe ? ["SENT"] : []
        if !fromMe {
            if random.next() % 10 < 8 { labels.append("INBOX") }
            if random.next() % 10 < 2 { labels.append("UNREAD") }
        }
        if random.next() % 20 == 0 { labels.append("STARRED") }
        // Oldest first, with jitter under half the spacing, so dates still increase.
        let spacing = spanMs / Int64(max(1, messageCount))
        let date =
            endDateMs - Int64(messageCount - index) * spacing + Int64(random.next() % UInt64(max(1, spacing / 2)))
        return SyntheticMessage(
            index: index, conversation: conversation, threadKey: "t\(conversation)",
            messageID: "<syn-\(index)@synthetic.example>",
            inReplyTo: nil, dateMs: date,
            from: fromMe ? me : person, to: fromMe ? others : [me], cc: fromMe ? [] : Array(others.dropFirst()),
            subject: isNewsletter
                ? "Issue #\(index): this week's news" : "Re: \(Self.words[index % Self.words.count]) plans",
            text: body, isNewsletter: isNewsletter, labels: labels)
    }
}

/// One message of a ``SyntheticMailbox``.
public struct SyntheticMessage: Sendable, Equatable {
    /// Its position in the mailbox, oldest first.
    public var index: Int
    public var conversation: Int
    /// The same for the messages of one thread (five at most, consecutive in their conversation).
    public var threadKey: String
    public var messageID: String
    /// The Message-ID of the thread's previous message, for every message but a thread's first.
    public var inReplyTo: String?
    public var dateMs: Int64
    public var from: SyntheticMailbox.Person
    public var to: [SyntheticMailbox.Person]
    public var cc: [SyntheticMailbox.Person]
    public var subject: String
    /// The plain-text body, ASCII words.
    public var text: String
    /// A mailing list's issue: sent with `List-Unsubscribe`, never by the account's owner.
    public var isNewsletter: Bool
    /// Gmail system label ids: SENT, or INBOX and UNREAD as drawn; STARRED on some.
    public var labels: [String]
}
