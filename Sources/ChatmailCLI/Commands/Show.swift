import ArgumentParser
import ChatmailStore
import TerminalUI

/// `chatmail show <person>`: the chat transcript with one person or group.
struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the chat with one person.",
        discussion: "When <person> matches several conversations, they are listed and chatmail exits with status 2.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "An address, a name, or a unique prefix of one.") var person: String
    @Option(help: "Show at most this many of the newest messages.") var limit = 50
    @Flag(help: "Show messages whole, with the quoted text and signatures that were removed.") var full = false
    @Flag(help: "Print JSON instead of a transcript.") var json = false
    @Flag(help: "Print straight to the terminal instead of through $PAGER (less -FRX). Piped output is never paged.")
    var noPager = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
    }

    func run() async throws {
        let env = AppEnvironment(global)
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let conversation: ConversationSummary
        switch try store.resolvePerson(person, in: account.id) {
        case .found(let match): conversation = match
        case .ambiguous(let candidates): throw CommandError.personAmbiguous(person, candidates)
        case .notFound: throw CommandError.personNotFound(person)
        }
        guard let transcript = try store.transcript(of: conversation.id, limit: limit) else {
            throw CommandError.personNotFound(person)  // deleted between the lookup and the read
        }
        if json {
            try env.write(try JSONRenderer(time: env.time).render(transcript, fullText: full))
        } else {
            let renderer = TranscriptRenderer(
                width: env.width, time: env.time, palette: env.palette, glyphs: env.glyphs, showFullText: full)
            try env.present(renderer.render(transcript), paging: !noPager)
        }
    }
}
