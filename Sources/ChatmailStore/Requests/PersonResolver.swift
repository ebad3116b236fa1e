import Foundation
import GRDB

/// The outcome of looking up `<person>` for `show`.
public enum PersonMatch: Sendable, Equatable {
    case found(ConversationSummary)
    /// Several conversations match, newest first; the user must be more precise.
    case ambiguous([ConversationSummary])
    case notFound
}

extension ChatmailStore {
    /// Finds the conversation a user means by `query`: an address, a name, or a unique prefix of one.
    ///
    /// Stages run in order and the first that matches anything decides:
    /// 1. an exact address (compared by identity key, so `John.Doe@gmail.com` finds `johndoe@gmail.com`);
    /// 2. a case-insensitive full name, or a conversation title;
    /// 3. a case-insensitive prefix of an address, a name or any word of a name ("Note to self" too);
    /// 4. fuzzy: ignoring case and accents, the query appears inside a name or an address, or is within
    ///    one or two typing mistakes of a name, a word of one, or an address's local part ("jonh" finds
    ///    John). Fuzzy matching never runs when an earlier stage found someone.
    ///
    /// A person who matches is represented by their one-to-one conversation when they have one, so
    /// `show alice` opens the chat with Alice even when she is also in group conversations.
    ///
    /// Commands that change mail pass `allowingFuzzy: false`: a typo may show the wrong chat, but it must
    /// never archive or trash one.
    public func resolvePerson(_ query: String, in account: AccountID, allowingFuzzy: Bool = true) throws -> PersonMatch {
        let needle = String(Substring(query).trimmingWhitespace())
        guard !needle.isEmpty else { return .notFound }
        if needle.contains("@") {
            // An address goes straight to the participant index: only that person's conversations load.
            let key = EmailNormalizer.identityKey(for: needle)
            let directory = try read { db in try PersonDirectory.load(account: account, onlyWith: key, db: db) }
            let candidates = directory.candidates(for: needle, stage: .exactAddress)
            if !candidates.isEmpty { return try match(candidates) }
        }
        let directory = try read { db in try PersonDirectory.load(account: account, db: db) }
        for stage in [PersonDirectory.Stage.exactName, .prefix] + (allowingFuzzy ? [.fuzzy] : []) {
            let candidates = directory.candidates(for: needle, stage: stage)
            if !candidates.isEmpty { return try match(candidates) }
        }
        return .notFound
    }

    private func match(_ candidates: Set<ConversationID>) throws -> PersonMatch {
        let summaries = try read { db in
            try Self.summaries(
                from: Row.fetchAll(
                    db,
                    sql: """
                        SELECT * FROM conversation WHERE id IN (SELECT value FROM json_each(?))
                        ORDER BY last_message_at_ms DESC, id DESC
                        """,
                    arguments: ["[" + candidates.map { String($0.rawValue) }.joined(separator: ",") + "]"]),
                in: db)
        }
        return summaries.count == 1 ? .found(summaries[0]) : .ambiguous(summaries)
    }
}

/// Everyone the account has a visible conversation with, for matching `<person>` in memory.
struct PersonDirectory {
    enum Stage { case exactAddress, exactName, prefix, fuzzy }

    struct Person {
        var key: String
        var address: String
        var name: String?
        var conversation: ConversationID
    }

    var people: [Person] = []
    var titles: [ConversationID: String] = [:]
    var memberCounts: [ConversationID: Int] = [:]

    /// Loads the account's visible conversations and their participants; with `key`, only the
    /// conversations that person is in (served by `conversation_participant_by_address`).
    static func load(account: AccountID, onlyWith key: String? = nil, db: Database) throws -> PersonDirectory {
        var directory = PersonDirectory()
        let filter = key == nil ? "" : """
             AND c.id IN (SELECT conversation_id FROM conversation_participant WHERE address_normalized = :key)
            """
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT c.id, c.title, p.address_normalized, p.address, p.display_name
                FROM conversation c LEFT JOIN conversation_participant p ON p.conversation_id = c.id
                WHERE c.account_id = :account AND c.message_count > 0\(filter)
                """,
            arguments: ["account": account, "key": key])
        while let row = try rows.next() {
            let id: ConversationID = row["id"]
            directory.titles[id] = row["title"]
            if let key: String = row["address_normalized"] {
                directory.people.append(Person(key: key, address: row["address"], name: row["display_name"], conversation: id))
                directory.memberCounts[id, default: 0] += 1
            }
        }
        return directory
    }

    /// The conversations `needle` designates at `stage`; empty when the stage matches nothing.
    func candidates(for needle: String, stage: Stage) -> Set<ConversationID> {
        let lowered = needle.lowercased()
        let matchingKeys: Set<String>
        var matchingTitles: Set<ConversationID> = []
        switch stage {
        case .exactAddress:
            guard needle.contains("@") else { return [] }
            let key = EmailNormalizer.identityKey(for: needle)
            matchingKeys = Set(people.lazy.filter { $0.key == key }.map(\.key))
        case .exactName:
            matchingKeys = Set(people.lazy.filter { $0.name?.lowercased() == lowered }.map(\.key))
            matchingTitles = Set(titles.lazy.filter { $0.value.lowercased() == lowered }.map(\.key))
        case .prefix:
            matchingKeys = Set(people.lazy.filter { Self.person($0, hasPrefix: lowered) }.map(\.key))
            // Group titles are made of first names, so a prefix of one would also match the person's own
            // chat; only conversations without participants ("Note to self") match by title prefix.
            matchingTitles = Set(
                titles.lazy.filter { memberCounts[$0.key] == nil && $0.value.lowercased().hasPrefix(lowered) }.map(\.key))
        case .fuzzy:
            let folded = FuzzyName.fold(needle)
            matchingKeys = Set(people.lazy.filter { FuzzyName.matches(folded, person: $0) }.map(\.key))
        }
        var result = matchingTitles
        for key in matchingKeys {
            let theirs = people.filter { $0.key == key }.map(\.conversation)
            if let oneToOne = theirs.first(where: { memberCounts[$0] == 1 }) {
                result.insert(oneToOne)
            } else {
                result.formUnion(theirs)
            }
        }
        return result
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
