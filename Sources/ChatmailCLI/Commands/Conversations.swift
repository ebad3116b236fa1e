import ArgumentParser
import ChatmailStore
import JSONOutput
import RecordViews
import TerminalUI

/// `chatmail conversations`: the conversation list, newest first.
struct Conversations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List conversations, newest first.",
        discussion: """
            The list shows the newest \(Conversations.textLimit) and says how many more there are; --json \
            prints them all, unless --limit is given. With --json, each conversation's id can be given to \
            show, export, search --person and the actions as id:7.
            """
    )

    /// How many conversations the text shows when `--limit` is not given.
    static let textLimit = 50

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Only conversations with unread messages.") var unread = false
    @Flag(help: "Only archived conversations.") var archived = false
    @Flag(help: "Archived and active conversations.") var all = false
    @Flag(help: "Only conversations with people (no newsletters, no mailing lists).") var people = false
    @Flag(help: "Only newsletters.") var newsletters = false
    @Flag(help: "Only mailing lists (each list is one conversation).") var lists = false
    @Flag(help: "Only the conversations deny rules hide (see `chatmail rules`).") var filtered = false
    @Flag(help: "Only the conversations the screener holds (see `chatmail screener`).") var screener = false
    // Unconditional, so "--limit -1" reaches validate() instead of reading as a missing value.
    @Option(
        parsing: .unconditional,
        help: "Show at most this many conversations (default: \(Conversations.textLimit); --json prints all).")
    var limit: Int?
    @Flag(help: "Print JSON instead of a table.") var json = false
    @Flag(help: "Print straight to the terminal instead of through $PAGER (less -FRX). Piped output is never paged.")
    var noPager = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        if archived && all { throw ValidationError("Choose --archived or --all, not both.") }
        if people && newsletters { throw ValidationError("Choose --people or --newsletters, not both.") }
        if lists && (people || newsletters) {
            throw ValidationError("Choose --lists or \(people ? "--people" : "--newsletters"), not both.")
        }
        if filtered && screener { throw ValidationError("Choose --filtered or --screener, not both.") }
    }

    var filter: ConversationFilter {
        ConversationFilter(
            visibility: all ? .all : archived ? .archived : .active,
            kind: people ? .people : newsletters ? .newsletters : .any,
            lists: people ? .excluded : lists ? .only : .included,
            section: filtered ? .filtered : screener ? .screener : .main, unreadOnly: unread,
            // A script reading JSON gets the whole list unless it asks for less; a person, a screenful.
            limit: limit ?? (json ? nil : Self.textLimit))
    }

    func run() async throws {
        let env = makeEnvironment()
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let list = try store.conversationList(in: account.id, filter: filter)
        if screener, !json, try !store.screenerEnabled(in: account.id) {
            env.note("The screener is off, so these are also in the main list; `chatmail screener on` holds them.")
        }
        try output(env, paging: !noPager) {
            try JSONRenderer(time: env.time).render(list.items)
        } text: {
            ConversationListRenderer(width: env.width, time: env.time, palette: env.palette, glyphs: env.glyphs)
                .render(list)
        }
    }
}
