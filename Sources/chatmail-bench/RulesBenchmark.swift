import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation
import GmailEmulator
import MailText

/// `chatmail-bench rules`: what user rules cost at ingest, and what adding or removing one costs on the
/// mail already stored.
///
/// - **Ingest:** two message sets, the corpus through the text pipeline (untimed) and synthetic messages
///   of 2–6 KB of text, one in four with a paragraph in another script. `RuleSet.decide` is timed per
///   message for 0, 10 and 100 rules (four in ten on a sender, two each on a domain, a subject and the
///   text), then the same messages are stored into fresh stores with 0, 10 and 100 rules, in one run, so
///   the store's own cost and the rules' share of it come from the same minutes of a noisy machine.
/// - **Retroactive:** a synthetic store of `large` and one of `small` messages, each with the same
///   `promotions` shop mail added; on a fresh copy per run, each rule is added (with the rollups of the
///   conversations it changed, in one write) and removed again.
struct RulesBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Time rule evaluation at ingest, and adding or removing a rule on a 100k-message store.")

    @Option(help: "The corpus directory (.eml files, searched recursively).") var corpus = "Fixtures/corpus"
    @Option(help: "Synthetic messages with long texts.") var longMessages = 2_000
    @Option(help: "Messages in the large store.") var large = 100_000
    @Option(help: "Messages in the small store.") var small = 1_000
    @Option(help: "Shop messages added to each store, for the domain, subject and text rules.") var promotions = 200
    @Option(help: "Timed runs; the median is reported.") var runs = 5
    @Flag(help: "Only the ingest figures.") var ingestOnly = false
    @Flag(help: "Only the retroactive figures.") var retroactiveOnly = false

    func run() throws {
        if !retroactiveOnly {
            try ingest(label: "corpus", messages: try corpusMessages())
            try ingest(label: "long texts", messages: Self.longMessages(count: longMessages))
        }
        if !ingestOnly { try retroactive() }
    }

    // MARK: Ingest

    func ingest(label: String, messages: [MessageInput]) throws {
        let bytes = messages.reduce(0) { $0 + $1.bodyText.utf8.count }
        let foreign = messages.filter { !$0.bodyText.utf8.allSatisfy { $0 < 0x80 } }.count
        print(
            "\(label): \(messages.count) messages, \(bytes / max(1, messages.count)) bytes of text on average, "
                + "\(foreign) with non-ASCII text")
        let sizes = [0, 10, 100]
        let drafts = try sizes.map { try Self.drafts(count: $0, for: messages) }
        var decideMicros: [Double] = []
        for (size, set) in zip(sizes, drafts.map(Self.ruleSet)) {
            var matched = 0
            let times = (0..<runs).map { _ in
                var hits = 0
                let start = ContinuousClock.now
                for message in messages where set.decide(RuleSubject(message)) != nil { hits += 1 }
                matched = hits
                return (ContinuousClock.now - start).seconds
            }
            decideMicros.append(times.median / Double(messages.count) * 1_000_000)
            print(
                String(
                    format: "  decide, %3d rules: %.2f µs per message (median of %d passes); %d messages matched",
                    size, decideMicros.last!, runs, matched))
        }
        var stored = Array(repeating: [Double](), count: sizes.count)
        for run in 0..<runs {
            // Alternating the order spreads any drift of the machine over every rule count.
            let order = run % 2 == 0 ? Array(sizes.indices) : sizes.indices.reversed()
            for index in order { stored[index].append(try storing(messages, rules: drafts[index])) }
        }
        let base = stored[0].median
        for (index, size) in sizes.enumerated() {
            let seconds = stored[index].median
            print(
                String(
                    format:
                        "  store, %3d rules: %.0f messages/s (%.1f µs per message, median of %d fresh stores); %+.1f%% against none",
                    size, Double(messages.count) / seconds, seconds / Double(messages.count) * 1_000_000, runs,
                    (seconds / base - 1) * 100))
        }
        let perMessage = base / Double(messages.count) * 1_000_000
        print(
            String(
                format: "  decide with 100 rules is %.1f%% of storing a message without rules (%.2f of %.1f µs)",
                decideMicros[2] / perMessage * 100, decideMicros[2], perMessage))
    }

    /// Stores `messages` into a fresh store holding `rules`, as an initial sync does (500 per write, then
    /// the rollups); returns the seconds of the writes and the rollups.
    func storing(_ messages: [MessageInput], rules: [Rule.Draft]) throws -> Double {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-bench-rules-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup of a scratch dir
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = try ChatmailStore(
            path: dir.appendingPathComponent("chatmail.sqlite").path, subjectBase: ReplySubject.topicBase)
        let account = try store.write { tx in
            let account = try tx.ensureAccount(email: Self.me.address)
            for draft in rules { _ = try tx.addRule(draft, in: account) }
            return account
        }
        let start = ContinuousClock.now
        var touched = Set<ConversationID>()
        for batch in stride(from: 0, to: messages.count, by: 500) {
            touched.formUnion(
                try store.write { tx in
                    var changed = Set<ConversationID>()
                    for message in messages[batch..<min(messages.count, batch + 500)] {
                        changed.formUnion(try tx.upsert(message, in: account).affectedConversations)
                    }
                    return changed
                })
        }
        try store.write { tx in try tx.recomputeRollups(for: touched) }
        return (ContinuousClock.now - start).seconds
    }

    func corpusMessages() throws -> [MessageInput] {
        let files =
            (FileManager.default.enumerator(at: URL(fileURLWithPath: corpus), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "eml" }.sorted { $0.path < $1.path }) ?? []
        guard !files.isEmpty else { throw ValidationError("no .eml files under \(corpus)") }
        let pipeline = TextPipeline()
        return try files.enumerated().map { index, file in
            let id = String(0x2000_0000 + index, radix: 16)
            return MessageInputBuilder.make(
                pipeline.process(raw: [UInt8](try Data(contentsOf: file))),
                envelope: MessageEnvelope(
                    gmailID: id, threadID: id, internalDateMs: 1_600_000_000_000 + Int64(index) * 60_000,
                    labelIDs: ["INBOX"]))
        }
    }

    static let me = EmailAddress(address: "me@example.org", name: "Sam Example")

    /// Messages of 2–6 KB of English text from 400 people at 40 hosts; one in four carries a paragraph in
    /// another script, where a word fold costs more than for ASCII.
    static func longMessages(count: Int) -> [MessageInput] {
        var random = SeededRandom(seed: 11)
        return (0..<count).map { index in
            var paragraphs: [String] = []
            let target = 2_000 + Int(random.next() % 4_000)
            var size = 0
            while size < target {
                let sentences = (0..<(3 + Int(random.next() % 4))).map { _ in
                    englishSentences[Int(random.next() % UInt64(englishSentences.count))]
                }
                paragraphs.append(sentences.joined(separator: " "))
                size += paragraphs.last!.utf8.count + 2
            }
            if index % 4 == 0 {
                paragraphs.insert(
                    foreignParagraphs[(index / 4) % foreignParagraphs.count],
                    at: Int(random.next() % UInt64(paragraphs.count)))
            }
            return MessageInput(
                gmailID: String(0x3000_0000 + index, radix: 16), threadID: "long-\(index)",
                internalDateMs: 1_600_000_000_000 + Int64(index) * 60_000,
                from: EmailAddress(
                    address: "writer\(index % 400)@host\(index % 40).example.net", name: "Writer \(index % 400)"),
                to: [me], subject: "Re: \(englishSentences[index % englishSentences.count].prefix(30))",
                bodyText: paragraphs.joined(separator: "\n\n"), labelIDs: ["INBOX"])
        }
    }

    static let englishSentences = [
        "Thanks for sending the draft over, I had a look at it on the train this morning.",
        "Could we move the review to Thursday afternoon, since the build server is down until Wednesday?",
        "The numbers in the second table do not add up; the March invoice seems to be counted twice.",
        "I have attached the slides from yesterday's meeting, including the notes we took on the budget.",
        "Let me know if you need anything else before the release, otherwise I will tag it on Friday.",
        "We found the bug: the cache was keyed on the wrong column, so two accounts shared one entry.",
        "Dinner is at seven, and the kids want pizza again, so please pick some up on your way home.",
        "The hotel confirmed the booking for three nights; the flight lands at 14:05 local time.",
        "Our quarterly report is due next week, and I still need the figures from the sales team.",
        "Please remember to renew the certificate, it expires at the end of the month.",
        "I will be working remotely on Monday, reachable by phone or chat as usual.",
        "The garden looks great after the rain; the tomatoes are finally turning red.",
    ]

    static let foreignParagraphs = [
        "Vielen Dank für Ihre Nachricht. Wir prüfen Ihre Anfrage und melden uns in Kürze mit einem Angebot.",
        "Merci pour votre réponse rapide ; la réunion est déplacée à jeudi prochain, même heure, même salle.",
        "Спасибо за письмо. Отчёт за квартал будет готов к пятнице, я пришлю его сразу после проверки.",
        "Ευχαριστώ πολύ για την πρόσκληση. Θα είμαι εκεί στις επτά, μαζί με τα παιδιά.",
        "お世話になっております。来週の会議の資料を添付いたしましたので、ご確認ください。",
        "感谢您的来信。我们已经收到您的订单，预计下周三发货，请注意查收。",
        "Gracias por el informe. Revisaré los números del presupuesto mañana por la mañana.",
        "Dziękuję za szybką odpowiedź; spotkanie przesuwamy na środę, godzina bez zmian.",
    ]

    // MARK: Rule sets

    /// `count` rules for `messages`: four in ten on a sender, two in ten each on a domain, a subject and the
    /// text. Half the senders and a quarter of the domains are real ones of the set, spread over it, so
    /// some messages match; the rest, and the words, are what a user blocks: absent from most messages.
    static func drafts(count: Int, for messages: [MessageInput]) throws -> [Rule.Draft] {
        let senders = Set(messages.compactMap { $0.from?.normalizedAddress }).filter { isValid($0, for: .sender) }
            .sorted()
        let domains = Set(senders.compactMap { $0.split(separator: "@").last.map(String.init) }).sorted()
        var drafts: [Rule.Draft] = []
        for index in 0..<(count * 4 / 10) {
            let real = index % 2 == 0 && !senders.isEmpty
            drafts.append(
                try Rule.Draft(
                    action: action(index), field: .sender,
                    pattern: real ? senders[(index * 7_919) % senders.count] : "nobody\(index)@nowhere.example"))
        }
        for index in 0..<(count * 2 / 10) {
            let real = index % 4 == 0 && !domains.isEmpty
            drafts.append(
                try Rule.Draft(
                    action: action(index), field: .domain,
                    pattern: real ? domains[(index * 7_919) % domains.count] : "promo\(index).example"))
        }
        for index in 0..<(count * 2 / 10) {
            drafts.append(
                try Rule.Draft(
                    action: action(index), field: .subject, pattern: subjectWords[index % subjectWords.count]))
            drafts.append(
                try Rule.Draft(action: action(index), field: .text, pattern: textWords[index % textWords.count]))
        }
        return drafts
    }

    static func ruleSet(_ drafts: [Rule.Draft]) -> RuleSet {
        RuleSet(
            drafts.enumerated().map { index, draft in
                Rule(
                    id: RuleID(rawValue: Int64(index + 1)), action: draft.action, field: draft.field,
                    pattern: draft.pattern, archives: false, createdAtMs: 0)
            })
    }

    /// Mostly deny, a third of them mute, one in ten allow.
    static func action(_ index: Int) -> Rule.Action {
        index % 10 == 0 ? .allow : index % 3 == 0 ? .mute : .deny
    }

    static func isValid(_ pattern: String, for field: Rule.Field) -> Bool {
        do {
            _ = try RulePattern.normalize(pattern, for: field)
            return true
        } catch {
            return false
        }
    }

    static let subjectWords = [
        "webinar", "newsletter", "digest", "invitation", "flash sale", "discount", "coupon", "lottery", "winner",
        "survey", "giveaway", "voucher", "last chance", "black friday", "rabatt", "angebot", "soldes", "скидка",
        "セール", "réduction",
    ]
    static let textWords = [
        "unsubscribe", "view in browser", "click here", "limited time", "free shipping", "opt out",
        "manage preferences", "terms apply", "act now", "promo code", "sponsored", "cashback", "abmelden",
        "désabonner", "отписаться", "配信停止", "προσφορά", "offre spéciale", "no longer wish", "special offer",
    ]

    // MARK: Retroactive

    /// One rule added to the stored mail and removed again, with what each changed.
    struct Applied {
        var addSeconds: Double
        var removeSeconds: Double
        var added: RuleChange
        var removed: RuleChange
    }

    /// Rules found through an index (people, the full-text index), one that reads every message, and one
    /// whose word is in half the mail.
    static func retroactiveCases() throws -> [(label: String, draft: Rule.Draft)] {
        [
            ("sender, one person", try Rule.Draft(action: .deny, field: .sender, pattern: "person1@example.com")),
            ("domain, the shop", try Rule.Draft(action: .deny, field: .domain, pattern: "shop.example")),
            ("subject, ASCII", try Rule.Draft(action: .mute, field: .subject, pattern: "weekly deals")),
            ("text, ASCII", try Rule.Draft(action: .deny, field: .text, pattern: "unsubscribe")),
            ("text, non-ASCII", try Rule.Draft(action: .deny, field: .text, pattern: "Angebote für Sie")),
            ("text, ASCII, half the mail", try Rule.Draft(action: .mute, field: .text, pattern: "invoice")),
        ]
    }

    func retroactive() throws {
        let cases = try Self.retroactiveCases()
        let smallRuns = try applying(cases, messages: small)
        let largeRuns = try applying(cases, messages: large)
        print(
            "retroactive, median of \(runs) fresh copies of each store; each figure is one write with the rollups of "
                + "the conversations it changed:")
        for (index, label) in cases.map(\.label).enumerated() {
            let largeAdd = largeRuns.map { $0[index].addSeconds }.median
            let smallAdd = smallRuns.map { $0[index].addSeconds }.median
            let largeRemove = largeRuns.map { $0[index].removeSeconds }.median
            let smallRemove = smallRuns.map { $0[index].removeSeconds }.median
            print(
                String(
                    format: "  %@: add %.1f ms at %d, %.1f ms at %d (ratio %.1f); remove %.1f ms, %.1f ms (ratio %.1f)",
                    label, largeAdd * 1000, large, smallAdd * 1000, small, largeAdd / smallAdd, largeRemove * 1000,
                    smallRemove * 1000, largeRemove / smallRemove))
            let big = largeRuns[0][index]
            let little = smallRuns[0][index]
            print(
                "    at \(large): added, \(big.added.messagesRedecided) messages in \(big.added.conversations.count) "
                    + "conversations; removed, \(big.removed.messagesRedecided) in \(big.removed.conversations.count)"
                    + " (at \(small): \(little.added.messagesRedecided) in \(little.added.conversations.count))")
        }
    }

    /// Seeds a store of `messages` synthetic messages plus the shop mail, then, on a fresh copy per run,
    /// adds and removes each rule in turn.
    func applying(_ cases: [(label: String, draft: Rule.Draft)], messages: Int) throws -> [[Applied]] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-bench-rules-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup of a scratch dir
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let seeded = dir.appendingPathComponent("seeded.sqlite")
        let mailbox = SyntheticMailbox(
            messageCount: messages, conversationCount: max(10, messages / 10), bigConversationSize: 0,
            endDateMs: ChatmailStore.systemClock())
        do {
            let store = try ChatmailStore(path: seeded.path, subjectBase: ReplySubject.topicBase)
            let seeding = ContinuousClock.now
            try mailbox.seed(into: store)
            try store.write { tx in
                let account = try tx.ensureAccount(email: mailbox.me.address)
                var touched = Set<ConversationID>()
                for message in Self.promotions(promotions, to: mailbox.me, before: mailbox.endDateMs) {
                    touched.formUnion(try tx.upsert(message, in: account).affectedConversations)
                }
                try tx.recomputeRollups(for: touched)
            }
            let status = try store.status(of: store.account(.onlyAccount))
            print(
                "seeded \(status.messageCount) messages in \(status.conversationCount) conversations in "
                    + String(format: "%.1f s", (ContinuousClock.now - seeding).seconds))
        }
        return try (0..<runs).map { run in
            let copy = dir.appendingPathComponent("run-\(run).sqlite")
            try FileManager.default.copyItem(at: seeded, to: copy)
            defer { try? FileManager.default.removeItem(at: copy) }  // best-effort cleanup of a scratch copy
            let store = try ChatmailStore(path: copy.path, subjectBase: ReplySubject.topicBase)
            let account = try store.write { tx in try tx.ensureAccount(email: mailbox.me.address) }
            return try cases.map { _, draft in
                let adding = ContinuousClock.now
                let added = try store.write { tx in
                    let change = try tx.addRule(draft, in: account)
                    try tx.recomputeRollups(for: change.conversations)
                    return change
                }
                let addSeconds = (ContinuousClock.now - adding).seconds
                guard let rule = added.added.first else { throw ValidationError("\(draft.pattern) was not added") }
                let removing = ContinuousClock.now
                let removed = try store.write { tx in
                    let change = try tx.removeRule(rule.id, in: account)
                    try tx.recomputeRollups(for: change.conversations)
                    return change
                }
                return Applied(
                    addSeconds: addSeconds, removeSeconds: (ContinuousClock.now - removing).seconds, added: added,
                    removed: removed)
            }
        }
    }

    /// Shop mail from four subdomains of `shop.example`, with an ASCII subject, an unsubscribe line and a
    /// German greeting: what the domain, subject and text rules of ``retroactiveCases()`` find.
    static func promotions(_ count: Int, to me: SyntheticMailbox.Person, before endMs: Int64) -> [MessageInput] {
        (0..<count).map { index in
            MessageInput(
                gmailID: "shop-\(index)", threadID: "shop-\(index)", internalDateMs: endMs - Int64(index) * 3_600_000,
                from: EmailAddress(address: "deals@news\(index % 4).shop.example", name: "The Shop"),
                to: [EmailAddress(address: me.address, name: me.name)],
                subject: "Weekly deals \(index): up to 50% off",
                bodyText: """
                    Angebote für Sie! This week's picks, hand-chosen for you: garden tools, books and coffee.
                    To unsubscribe from these emails, visit your account settings.
                    """,
                isNewsletter: true, newsletterReasons: ["List-Unsubscribe"], labelIDs: ["INBOX"])
        }
    }
}
