import ArgumentParser
import ChatmailStore
import JSONOutput
import RecordViews
import TerminalUI

/// `chatmail show <person>`: the chat transcript with one person or group.
struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the chat with one person, a group or a mailing list.",
        discussion: PersonLookup.discussion
            + " Typing mistakes are forgiven when nothing else matches (\"jonh\" finds John).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(PersonLookup.personHelp)) var person: String
    @Flag(help: PersonLookup.groupHelp) var group = false
    @Option(
        help: ArgumentHelp(
            "Keep only this person's messages, and yours: for a mailing list, the thread of one person with you.",
            valueName: "person"))
    var from: String?
    // Unconditional, so "--limit -1" reaches validate() instead of reading as a missing value.
    @Option(
        parsing: .unconditional,
        help: "Show at most this many of the newest messages (default: \(Show.textLimit); --json prints all).")
    var limit: Int?
    @Flag(help: "Show messages whole, with the quoted text and signatures that were removed.") var full = false
    @Flag(help: "Print JSON instead of a transcript.") var json = false
    @Flag(help: "Print straight to the terminal instead of through $PAGER (less -FRX). Piped output is never paged.")
    var noPager = false

    /// How many messages the transcript shows when `--limit` is not given; it says how many it left out.
    static let textLimit = 50

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    func run() async throws {
        let env = makeEnvironment()
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let conversation = try PersonLookup.conversation(
            for: person, in: store, account: account.id, preferringGroups: group)
        let sender = try from.map { try PersonLookup.sender($0, in: conversation) }
        // JSON has no place to say what it left out, so it holds every message unless --limit asks for fewer.
        let onlyFrom = sender?.normalizedAddress
        let found: Transcript?
        if let shown = limit ?? (json ? nil : Self.textLimit) {
            found = try store.transcript(of: conversation.id, limit: shown, onlyFrom: onlyFrom)
        } else {
            found = try store.fullTranscript(of: conversation.id, onlyFrom: onlyFrom)
        }
        guard let transcript = found else {
            throw CommandError.personNotFound(person)  // deleted between the lookup and the read
        }
        try output(env, paging: !noPager) {
            try JSONRenderer(time: env.time).render(transcript, fullText: full)
        } text: {
            TranscriptRenderer(
                width: env.width, time: env.time, palette: env.palette, glyphs: env.glyphs, showFullText: full
            ).render(transcript)
        }
    }
}
