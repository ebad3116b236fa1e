import Foundation
import GRDB

/// Someone `<person>` matched, as listed when several people match.
public struct PersonCandidate: Sendable, Equatable {
    /// The address as most recently written.
    public var address: String
    public var name: String?
    /// How many of the account's conversations they are in.
    public var conversationCount: Int

    public init(address: String, name: String?, conversationCount: Int) {
        self.address = address
        self.name = name
        self.conversationCount = conversationCount
    }
}

/// The outcome of looking up `<person>`.
public enum PersonMatch: Sendable, Equatable {
    /// The conversation meant. When it is a person's one-to-one chat and they are also in group
    /// conversations, `alsoIn` lists those, newest first, so the user can be told how to pick one.
    case found(ConversationSummary, alsoIn: [ConversationSummary])
    /// Several people (distinct addresses) match, most recently heard from first, beside any
    /// conversations matched by their title; the user must be more precise.
    case severalPeople([PersonCandidate], conversations: [ConversationSummary])
    /// One person, or one title, designates several conversations and none is preferred; newest first.
    case severalConversations([ConversationSummary])
    /// The one person who matched is in no conversation of the account's but the mailing list they
    /// wrote to, which is the conversation meant.
    case wroteToList(ConversationSummary, person: PersonCandidate)
    /// Group conversations were asked for, and the one person who matched is in none.
    case noGroupConversation(PersonCandidate)
    case notFound
}

extension ChatmailStore {
    /// Finds the conversation a user means by `query`: a conversation id, an address, a name, or a
    /// unique prefix of one.
    ///
    /// `id:7` (or `#7`) is the conversation whose `id` is 7 in `conversations --json`, exactly and
    /// nothing else; `preferringGroups` does not apply to it. Otherwise stages run in order and the
    /// first that matches anything decides:
    /// 0. a mailing list's id (`dev.lists.example.org`, with or without angle brackets) or any posting
    ///    address it had, which designate the list's conversation (a list's name is its title, matched
    ///    at stage 2);
    /// 1. an exact address (compared by identity key, so `John.Doe@gmail.com` finds `johndoe@gmail.com`);
    /// 2. a case-insensitive full name, or a conversation title;
    /// 3. a case-insensitive prefix of an address, a name or any word of a name ("Note to self" too);
    /// 4. fuzzy: ignoring case and accents, the query appears inside a name or an address, or is within
    ///    one or two typing mistakes of a name, a word of one, or an address's local part ("jonh" finds
    ///    John). Fuzzy matching never runs when an earlier stage found someone.
    ///
    /// Ambiguity is decided by person, not by conversation: when the stage matches several people,
    /// they are the answer (``PersonMatch/severalPeople(_:conversations:)``). One person means their
    /// one-to-one chat when they have one, even when they are also in group conversations (reported
    /// in `alsoIn`); with `preferringGroups`, their group conversation instead. Without a one-to-one
    /// chat, their only conversation, or the list of them. Mailing lists count only for someone in no
    /// other conversation: then the list they wrote to (``PersonMatch/wroteToList(_:person:)``), or the
    /// lists, for the user to choose.
    ///
    /// Commands that change mail pass `allowingFuzzy: false`: a typo may show the wrong chat, but it must
    /// never archive or trash one.
    public func resolvePerson(
        _ query: String, in account: AccountID, allowingFuzzy: Bool = true, preferringGroups: Bool = false
    ) throws -> PersonMatch {
        let needle = String(Substring(query).trimmingWhitespace())
        guard !needle.isEmpty else { return .notFound }
        if let reference = Self.conversationReference(in: needle) {
            // Written as an id, it is one: "id:x" never falls back to matching names.
            guard let id = Int64(reference.trimmingWhitespace()), id > 0 else { return .notFound }
            let found = try conversations([ConversationID(rawValue: id)], in: account)
            return found.first.map { .found($0, alsoIn: []) } ?? .notFound
        }
        if let list = try mailingList(named: needle, in: account) { return .found(list, alsoIn: []) }
        if needle.contains("@") {
            // An address goes straight to the participant index: only that person's conversations load.
            let key = EmailNormalizer.identityKey(for: needle)
            let directory = try read { db in try PersonDirectory.load(account: account, onlyWith: key, db: db) }
            let matches = directory.matches(for: needle, stage: .exactAddress)
            if !matches.isEmpty {
                return try decide(matches, in: directory, account: account, preferringGroups: preferringGroups)
            }
        }
        let directory = try read { db in try PersonDirectory.load(account: account, db: db) }
        for stage in [PersonDirectory.Stage.exactName, .prefix] + (allowingFuzzy ? [.fuzzy] : []) {
            let matches = directory.matches(for: needle, stage: stage)
            if !matches.isEmpty {
                return try decide(matches, in: directory, account: account, preferringGroups: preferringGroups)
            }
        }
        return .notFound
    }

    /// The number in `id:7` or `#7` (case-insensitive `id:`), unparsed; nil when `needle` is not
    /// written as a conversation id.
    static func conversationReference(in needle: String) -> Substring? {
        if needle.hasPrefix("#") { return needle.dropFirst() }
        if needle.prefix(3).lowercased() == "id:" { return needle.dropFirst(3) }
        return nil
    }

    private func decide(
        _ matches: PersonDirectory.Matches, in directory: PersonDirectory, account: AccountID, preferringGroups: Bool
    ) throws -> PersonMatch {
        let people = directory.profiles(of: matches.keys)
        // A title that names a matched person's own conversation ("Alice Liddell") adds nobody.
        let theirs = Set(people.flatMap(\.conversations))
        let titled = matches.titles.subtracting(theirs)
        if people.isEmpty {
            let found = try conversations(titled, in: account)
            return found.count == 1 ? .found(found[0], alsoIn: []) : .severalConversations(found)
        }
        if people.count > 1 || !titled.isEmpty {
            return .severalPeople(people.map(Self.candidate), conversations: try conversations(titled, in: account))
        }
        let person = people[0]
        let groups = person.conversations.filter(directory.isGroup)
        if preferringGroups {
            guard !groups.isEmpty else { return .noGroupConversation(Self.candidate(person)) }
            let found = try conversations(groups, in: account)
            return found.count == 1 ? .found(found[0], alsoIn: []) : .severalConversations(found)
        }
        let own = person.conversations.filter { !directory.isList($0) }
        if own.isEmpty {
            let lists = try conversations(person.conversations, in: account)
            return lists.count == 1
                ? .wroteToList(lists[0], person: Self.candidate(person)) : .severalConversations(lists)
        }
        let found = try conversations(own, in: account)
        if let oneToOne = found.first(where: { directory.isOneToOne($0.id) }) {
            return .found(oneToOne, alsoIn: found.filter { directory.isGroup($0.id) })
        }
        return found.count == 1 ? .found(found[0], alsoIn: []) : .severalConversations(found)
    }

    /// The conversation of the list whose id is `needle` (brackets and case aside), or that had `needle`
    /// as a posting address; `nil` when no list of the account is named so. Both are primary-key probes:
    /// the posting address through `mailing_list_post_address`, the conversation by its hash.
    private func mailingList(named needle: String, in account: AccountID) throws -> ConversationSummary? {
        var id = needle.lowercased()
        if id.hasPrefix("<") && id.hasSuffix(">") { id = String(id.dropFirst().dropLast()) }
        return try read { db in
            var listIDs = [id]
            if needle.contains("@") {
                listIDs += try String.fetchAll(
                    db,
                    sql: """
                        SELECT list_id FROM mailing_list_post_address
                        WHERE account_id = ? AND address_normalized = ? ORDER BY list_id
                        """,
                    arguments: [account, EmailNormalizer.identityKey(for: needle)])
            }
            let hashes = listIDs.map { ListConversationKey.hash(listID: $0) }
            return try Self.summaries(
                from: Row.fetchAll(
                    db, sql: Self.listConversationsSQL,
                    arguments: [account, "[" + hashes.map { "\"\($0)\"" }.joined(separator: ",") + "]"]),
                in: db
            ).max { ($0.lastMessageAtMs, $0.id.rawValue) < ($1.lastMessageAtMs, $1.id.rawValue) }
        }
    }

    /// The visible list conversations of an account (`?`) among conversation hashes (a JSON array, `?`),
    /// probed through the UNIQUE (account_id, participant_hash) index. Unordered: an ORDER BY lets the
    /// planner walk the account's recency index instead, and there are only a few rows to order.
    package static let listConversationsSQL = """
        SELECT * FROM conversation
        WHERE account_id = ? AND participant_hash IN (SELECT value FROM json_each(?))
          AND message_count > 0 AND list_id IS NOT NULL
        """

    private static func candidate(_ profile: PersonDirectory.Profile) -> PersonCandidate {
        PersonCandidate(address: profile.address, name: profile.name, conversationCount: profile.conversations.count)
    }

    /// The visible conversations among `ids` of `account`, newest first, by primary key.
    private func conversations(_ ids: some Collection<ConversationID>, in account: AccountID) throws
        -> [ConversationSummary]
    {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            try Self.summaries(
                from: Row.fetchAll(
                    db,
                    sql: """
                        SELECT * FROM conversation
                        WHERE id IN (SELECT value FROM json_each(?)) AND account_id = ? AND message_count > 0
                        ORDER BY last_message_at_ms DESC, id DESC
                        """,
                    arguments: ["[" + ids.map { String($0.rawValue) }.joined(separator: ",") + "]", account]),
                in: db)
        }
    }
}
