import ArgumentParser
import ChatmailStore
import Foundation
import TerminalUI

/// `chatmail search <query>`: full-text search over bubble text and subjects.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search your messages (bubble text and subjects).",
        discussion: """
            Plain words match messages that contain all of them, in any order; a word ending in * matches \
            as a prefix (meet* finds meeting). Punctuation inside words is fine (don't, e-mail, 10:30). \
            A query with double quotes, parentheses, AND/OR/NOT in capitals, NEAR(…) or subject: is read as \
            SQLite FTS5 syntax: "exact phrase", lunch OR dinner, report NOT draft, subject:invoice. \
            Results are ranked best first (SQLite's bm25); when every word is in at least half of your \
            messages, so that no order by relevance means anything, the newest come first instead. Each result \
            names the `chatmail show` command that opens its conversation.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Words to look for.") var query: [String]
    @Option(help: "Only the conversation with this person (an address, a name, or a unique prefix of one).")
    var person: String?
    @Option(help: "Show at most this many messages.") var limit = 20
    @Flag(help: "Print JSON instead of text.") var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
        guard !query.joined().allSatisfy(\.isWhitespace) else { throw ValidationError("Give one or more words to search for.") }
    }

    func run() async throws {
        let env = AppEnvironment(global)
        let parsed = try SearchQuery(query.joined(separator: " "))
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let conversation = try person.map { try PersonLookup.conversation(for: $0, in: store, account: account.id).id }
        let hits = try store.search(parsed, in: account.id, conversation: conversation, limit: limit)
        var commands: [ConversationID: String] = [:]
        for hit in hits where commands[hit.conversation.id] == nil {
            commands[hit.conversation.id] = try PersonLookup.showCommand(for: hit.conversation, in: store, account: account.id)
        }
        if json {
            try env.write(try SearchResultRenderer(width: env.width, time: env.time, palette: env.palette).renderJSON(hits, openCommands: commands))
        } else {
            try env.write(SearchResultRenderer(width: env.width, time: env.time, palette: env.palette).render(hits, openCommands: commands))
        }
    }
}

/// Turning `<person>` into a conversation, and a conversation back into the command that opens it.
enum PersonLookup {
    /// The one conversation `query` designates, as `show` finds it.
    /// - throws: ``CommandError/personNotFound(_:)`` or ``CommandError/personAmbiguous(_:_:)``.
    static func conversation(for query: String, in store: ChatmailStore, account: AccountID) throws -> ConversationSummary {
        switch try store.resolvePerson(query, in: account) {
        case .found(let match): return match
        case .ambiguous(let candidates): throw CommandError.personAmbiguous(query, candidates)
        case .notFound: throw CommandError.personNotFound(query)
        }
    }

    /// `chatmail show <who>` for a conversation: the address of a one-to-one chat, else its title. When
    /// other conversations share the title, `show` lists them all (this one among them) and exits 2, which
    /// is still the way there; a participant's address would open a different chat.
    static func showCommand(for conversation: ConversationSummary, in store: ChatmailStore, account: AccountID) throws -> String {
        if conversation.participants.count == 1 {
            return "chatmail show " + shellWord(conversation.participants[0].address)
        }
        return "chatmail show " + shellWord(conversation.title)
    }

    /// `text` as one shell word: bare when it only has safe characters, else single-quoted.
    static func shellWord(_ text: String) -> String {
        let safe = TerminalSafeText.singleLine(text)
        let plain = !safe.isEmpty && safe.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "@._+-%/:=".unicodeScalars.contains($0)
        }
        return plain ? safe : "'" + safe.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
