import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation

/// `chatmail reply <person>`: answers in that conversation.
struct Reply: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer a conversation: queued at once, sent exactly once (Gmail, or SMTP for an IMAP account).",
        discussion: PersonLookup.discussion + """
             The reply goes to everyone in the conversation except you (in a mailing list, to the list's \
            posting address, or to the latest message's Mail-Followup-To), from the address the latest message \
            was sent to, with `Re: ` and the latest subject, in the latest message's thread. The text comes \
            from -m, else --file, else standard input when it is not a terminal, else $VISUAL or $EDITOR \
            (lines starting with # are dropped; an empty text queues nothing). The message is stored before \
            any network call and shows in `show` at once; offline, it is sent by the next `chatmail sync` or \
            `chatmail pending run`. Exit 0 once it is stored: sent, queued, or (over SMTP, when the connection \
            broke before the server answered) of unknown outcome, which is never sent again without \
            `chatmail pending retry`. Exit 1 only when the server refused it.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp(PersonLookup.personHelp + " Typing mistakes are not forgiven here.")) var person:
        String
    @Flag(help: PersonLookup.groupHelp) var group = false
    @OptionGroup var text: MessageTextOptions
    @Flag(help: "Quote the answered message above your text, under an attribution line.") var quote = false
    @Flag(help: "Print {actionId, status, gmailId, threadId, lastError} as JSON.") var json = false

    func run() async throws {
        let env = makeEnvironment()
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        // A typo must never send to the wrong people: no fuzzy matching.
        let conversation = try PersonLookup.conversation(
            for: person, in: store, account: account.id, allowingFuzzy: false, preferringGroups: group)
        guard let context = try store.replyContext(of: conversation.id) else {
            throw CommandError.personNotFound(person)
        }
        let body = try MessageTextInput.read(
            text, environment: env.environment,
            help: [
                "Reply to \(conversation.title). Lines starting with # are dropped;",
                "an empty message sends nothing.",
            ])
        // The server's side starts now, beside composing and queueing, which never wait for it: the
        // message is stored whatever a password command or the network does.
        let imap = OutboxCommand.prepare(env: env, store: store, account: account)
        let message = try ReplyPlanner.reply(to: context, text: body, quote: quote, timeZone: .current)
        try await OutboxCommand.queueAndSend(
            message, env: env, store: store, account: account.id, json: json, imap: imap)
    }
}
