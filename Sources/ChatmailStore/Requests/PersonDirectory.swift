import Foundation
import GRDB

/// Everyone the account has a visible conversation with, for matching `<person>` in memory.
struct PersonDirectory {
    enum Stage { case exactAddress, exactName, prefix, fuzzy }

    /// One participant of one conversation: a person appears once per conversation they are in.
    struct Person {
        var key: String
        var address: String
        var name: String?
        var conversation: ConversationID
    }

    /// What one stage matched: people (by identity key) and conversations matched by their title.
    struct Matches {
        var keys: Set<String> = []
        var titles: Set<ConversationID> = []

        var isEmpty: Bool { keys.isEmpty && titles.isEmpty }
    }

    /// One matched person, gathered from every conversation they are in.
    struct Profile {
        var key: String
        /// The spelling and name of their most recent conversation that has them.
        var address: String
        var name: String?
        var conversations: [ConversationID] = []
        var lastMessageAtMs: Int64 = .min
        private var nameAtMs: Int64 = .min

        init(key: String, address: String) {
            self.key = key
            self.address = address
        }

        mutating func add(_ person: Person, at dateMs: Int64) {
            conversations.append(person.conversation)
            if dateMs > lastMessageAtMs {
                lastMessageAtMs = dateMs
                address = person.address
            }
            if let name = person.name, !name.isEmpty, name != person.address, dateMs > nameAtMs {
                self.name = name
                nameAtMs = dateMs
            }
        }
    }

    var people: [Person] = []
    var titles: [ConversationID: String] = [:]
    var memberCounts: [ConversationID: Int] = [:]
    var lastMessageAtMs: [ConversationID: Int64] = [:]
    /// The mailing-list conversations, whose people are everyone who wrote to the list.
    var lists: Set<ConversationID> = []

    /// Loads the account's visible conversations and their participants; with `key`, only the
    /// conversations that person is in (served by `conversation_participant_by_address`).
    static func load(account: AccountID, onlyWith key: String? = nil, db: Database) throws -> PersonDirectory {
        var directory = PersonDirectory()
        let filter =
            key == nil
            ? ""
            : """
             AND c.id IN (SELECT conversation_id FROM conversation_participant WHERE address_normalized = :key)
            """
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT c.id, c.title, c.last_message_at_ms, c.list_id, p.address_normalized, p.address,
                       p.display_name
                FROM conversation c LEFT JOIN conversation_participant p ON p.conversation_id = c.id
                WHERE c.account_id = :account AND c.message_count > 0\(filter)
                """,
            arguments: ["account": account, "key": key])
        while let row = try rows.next() {
            let id: ConversationID = row["id"]
            directory.titles[id] = row["title"]
            directory.lastMessageAtMs[id] = row["last_message_at_ms"]
            if row["list_id"] != nil { directory.lists.insert(id) }
            if let key: String = row["address_normalized"] {
                directory.people.append(
                    Person(key: key, address: row["address"], name: row["display_name"], conversation: id))
                directory.memberCounts[id, default: 0] += 1
            }
        }
        return directory
    }

    /// Whether `conversation` has more than one person besides the account's own addresses, and is not a
    /// mailing list.
    func isGroup(_ conversation: ConversationID) -> Bool {
        memberCounts[conversation, default: 0] > 1 && !lists.contains(conversation)
    }

    /// Whether `conversation` is a one-to-one chat (a list one person wrote to is not).
    func isOneToOne(_ conversation: ConversationID) -> Bool {
        memberCounts[conversation] == 1 && !lists.contains(conversation)
    }

    /// Whether `conversation` is a mailing list.
    func isList(_ conversation: ConversationID) -> Bool { lists.contains(conversation) }

    /// The people and titled conversations `needle` designates at `stage`; empty when the stage
    /// matches nothing.
    func matches(for needle: String, stage: Stage) -> Matches {
        let lowered = needle.lowercased()
        var matches = Matches()
        switch stage {
        case .exactAddress:
            guard needle.contains("@") else { return matches }
            let key = EmailNormalizer.identityKey(for: needle)
            if people.contains(where: { $0.key == key }) { matches.keys = [key] }
        case .exactName:
            matches.keys = Set(people.lazy.filter { $0.name?.lowercased() == lowered }.map(\.key))
            matches.titles = Set(titles.lazy.filter { $0.value.lowercased() == lowered }.map(\.key))
        case .prefix:
            matches.keys = Set(people.lazy.filter { Self.person($0, hasPrefix: lowered) }.map(\.key))
            // Group titles are made of first names, so a prefix of one would also match the person's own
            // chat; only conversations without participants ("Note to self") match by title prefix.
            matches.titles = Set(
                titles.lazy.filter { memberCounts[$0.key] == nil && $0.value.lowercased().hasPrefix(lowered) }.map(
                    \.key))
        case .fuzzy:
            let folded = FuzzyName.fold(needle)
            matches.keys = Set(people.lazy.filter { FuzzyName.matches(folded, person: $0) }.map(\.key))
        }
        return matches
    }

    /// The people with identity keys `keys`, gathered in one pass over the directory (a prefix such as
    /// "a" can match thousands of people; a pass per person would be quadratic).
    func profiles(of keys: Set<String>) -> [Profile] {
        var profiles: [String: Profile] = [:]
        for person in people where keys.contains(person.key) {
            profiles[person.key, default: Profile(key: person.key, address: person.address)]
                .add(person, at: lastMessageAtMs[person.conversation] ?? 0)
        }
        // Most recently heard from first; the address settles ties, so the order never depends on hashing.
        return profiles.values.sorted { ($0.lastMessageAtMs, $1.key) > ($1.lastMessageAtMs, $0.key) }
    }

    private static func person(_ person: Person, hasPrefix prefix: String) -> Bool {
        if person.key.hasPrefix(prefix) || person.address.lowercased().hasPrefix(prefix) { return true }
        guard let name = person.name?.lowercased() else { return false }
        if name.hasPrefix(prefix) { return true }
        return name.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "." }).contains { $0.hasPrefix(prefix) }
    }
}

/// Forgiving comparison of a query with a person, for the last resolution stage.
enum FuzzyName {
    /// Lowercased, without accents: "José" and "jose" compare equal.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Whether `folded` (a ``fold(_:)``ed query) designates `person`. Queries shorter than three
    /// characters never match: they would match nearly everyone.
    static func matches(_ folded: String, person: PersonDirectory.Person) -> Bool {
        guard folded.count >= 3 else { return false }
        let name = person.name.map(fold) ?? ""
        let address = fold(person.address)
        if name.contains(folded) || address.contains(folded) { return true }
        let localPart = address.split(separator: "@").first.map(String.init) ?? address
        let words = name.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "." || $0 == "-" }).map(String.init)
        let allowed = folded.count >= 8 ? 2 : folded.count >= 4 ? 1 : 0
        guard allowed > 0 else { return false }
        return ([name, localPart] + words).contains { candidate in
            !candidate.isEmpty && abs(candidate.count - folded.count) <= allowed
                && editDistance(Array(folded), Array(candidate), limit: allowed) <= allowed
        }
    }

    /// Optimal string alignment distance (a swap of two neighbours counts one), stopping early once
    /// every path exceeds `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return rowMinimum }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
