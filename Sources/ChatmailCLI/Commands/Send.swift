import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation

/// `chatmail send <address>...`: a new message.
struct Send: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send a new message: queued at once, sent exactly once (Gmail, or SMTP for an IMAP account).",
        discussion: """
            The message lands in the conversation with exactly these people (a new one if there is none). \
            The text comes from -m, else --file, else standard input when it is not a terminal, else $VISUAL \
            or $EDITOR (lines starting with # are dropped; an empty text queues nothing). Exit 0 once it is \
            stored: sent, safely queued (offline, the next `chatmail sync` or `chatmail pending run` sends it), \
            or of unknown outcome (over SMTP, the connection broke before the server answered: never sent again \
            without `chatmail pending retry`). Exit 1 only when the server refused it.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(
        help: ArgumentHelp(
            "Who to write to: mail addresses, optionally with a name (\"Ann <ann@example.com>\").", valueName: "address"
        ))
    var addresses: [String]
    @Option(help: "The subject.") var subject = ""
    @OptionGroup var text: MessageTextOptions
    @Flag(help: "Print {actionId, status, gmailId, threadId, lastError} as JSON.") var json = false

    func validate() throws {
        if addresses.isEmpty { throw ValidationError("Name at least one address to write to.") }
    }

    func run() async throws {
        let env = makeEnvironment()
        let recipients = try addresses.map(Self.recipient)
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let body = try MessageTextInput.read(
            text, environment: env.environment,
            help: [
                "Message to \(recipients.map(\.address).joined(separator: ", ")). Lines starting with # are dropped;",
                "an empty message sends nothing.",
            ])
        // The server's side starts now, beside composing and queueing, which never wait for it: the
        // message is stored whatever a password command or the network does.
        let imap = OutboxCommand.prepare(env: env, store: store, account: account)
        let own = try await store.write { tx in try tx.ownAddresses(of: account.id) }
        let message = try ReplyPlanner.newMessage(to: recipients, subject: subject, text: body, ownAddresses: own)
        try await OutboxCommand.queueAndSend(
            message, env: env, store: store, account: account.id, json: json, imap: imap)
    }

    /// One address argument as a mailbox; anything else is a usage error before anything is read.
    static func recipient(_ argument: String) throws -> EmailAddress {
        do {
            return try ReplyPlanner.recipient(argument)
        } catch {
            throw ValidationError("\(EchoedInput.quoted(argument)) is not one mail address.")
        }
    }
}
