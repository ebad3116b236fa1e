import ArgumentParser
import ChatmailStore
import Foundation
import JSONOutput
import RecordViews
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
            names the `chatmail show` command that opens its conversation. A query may have at most \
            \(SearchQuery.maximumTermCount) different words and \(SearchQuery.maximumLength) characters; a word repeated \
            counts once. --person takes what `chatmail show` takes, and --group with it searches the person's group \
            conversation instead of the one-to-one chat. The text shows the best \(Search.textLimit) and says how many \
            more match; --json prints every match, unless --limit is given.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "Words to look for.") var query: [String]
    @Option(
        help: ArgumentHelp("Only the conversation with this person. \(PersonLookup.personHelp)", valueName: "person"))
    var person: String?
    @Flag(help: PersonLookup.groupHelp) var group = false
    // Unconditional, so "--limit -1" reaches validate() instead of reading as a missing value.
    @Option(
        parsing: .unconditional,
        help: "Show at most this many messages (default: \(Search.textLimit); --json prints all).")
    var limit: Int?
    @Flag(help: "Print JSON instead of text.") var json = false

    /// How many hits the text shows when `--limit` is not given; it says how many more match.
    static let textLimit = 20

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        if group && person == nil { throw ValidationError("--group goes with --person.") }
        guard !query.joined().allSatisfy(\.isWhitespace) else {
            throw ValidationError("Give one or more words to search for.")
        }
    }

    func run() async throws {
        let env = makeEnvironment()
        let parsed = try SearchQuery(query.joined(separator: " "))
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let conversation = try person.map {
            try PersonLookup.conversation(for: $0, in: store, account: account.id, preferringGroups: group).id
        }
        // JSON is an array with no place to say what it left out: every match unless --limit asks for fewer.
        let hits = try store.searchList(
            parsed, in: account.id, conversation: conversation, limit: limit ?? (json ? nil : Self.textLimit))
        var commands: [ConversationID: String] = [:]
        for hit in hits.items where commands[hit.conversation.id] == nil {
            commands[hit.conversation.id] = PersonLookup.showCommand(for: hit.conversation)
        }
        try output(env) {
            try JSONRenderer(time: env.time).render(hits.items, openCommands: commands)
        } text: {
            SearchResultRenderer(width: env.width, time: env.time, palette: env.palette).render(
                hits, openCommands: commands)
        }
    }
}
