import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation
import JSONOutput
import RecordViews
import TerminalUI
import TextFormatting

/// What every action command takes: `<person>` or `--message ID`, and `--json`.
struct ActionOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(PersonLookup.personHelp + " Typing mistakes are not forgiven here.")) var person:
        String?
    @Flag(help: PersonLookup.groupHelp) var group = false
    @Option(
        name: .customLong("message"),
        help: ArgumentHelp(
            "Act on this one message instead (its Gmail id, `gmailId` in `show --json`).", valueName: "id"))
    var message: String?
    @Flag(help: "Print the result as JSON.") var json = false

    /// Gmail ids are 16 hexadecimal digits; anything much longer is a mistake, not worth a lookup.
    static let maximumMessageIDLength = 100

    func validate() throws {
        switch (person, message) {
        case (nil, nil): throw ValidationError("Name a person, or give --message ID.")
        case (.some, .some): throw ValidationError("Give a person or --message ID, not both.")
        default: break
        }
        if group && person == nil { throw ValidationError("--group goes with a person.") }
        if let message, message.count > Self.maximumMessageIDLength {
            throw ValidationError(
                "--message takes a Gmail id (`gmailId` in `show --json`), not \(EchoedInput.quoted(message)).")
        }
    }
}

/// Runs one local-first action: labels and rollups change at once, Gmail hears about it on the next
/// `chatmail sync` (or `chatmail pending run`).
enum ActionRunner {
    /// The discussion of every action command.
    static let discussion =
        PersonLookup.discussion + """
             Unlike show, actions never forgive a typing mistake: a typo must not archive or trash the wrong \
            conversation. --message ID acts on one message instead of a conversation.
            """

    static func run(_ kind: PendingActionKind, _ options: ActionOptions) async throws {
        let env = AppEnvironment(options.global)
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let subject: ActionQueue.Subject
        let shownTarget: String
        if let gmailID = options.message {
            subject = .message(gmailID: gmailID)
            shownTarget = "message \(gmailID)"
        } else if let person = options.person {
            // A typo may show the wrong chat, but it must never archive or trash one.
            let conversation = try PersonLookup.conversation(
                for: person, in: store, account: account.id, allowingFuzzy: false, preferringGroups: options.group)
            let addresses = conversation.participants.map(\.address).joined(separator: ", ")
            subject = .conversation(conversation.id, description: addresses.isEmpty ? conversation.title : addresses)
            shownTarget = conversation.title
        } else {
            throw ValidationError("Name a person, or give --message ID.")
        }
        let outcome = try await ActionQueue(store: store).perform(kind, on: subject, account: account.id)
        if options.json {
            try env.write(
                try JSONRenderer(time: env.time).encode(
                    ActionResultJSON(
                        kind: kind, target: shownTarget, messagesChanged: outcome.messagesChanged,
                        actionId: outcome.action?.id, cancelled: outcome.cancelled,
                        alreadyQueued: outcome.alreadyQueued)))
        } else {
            try env.write(summary(kind, target: shownTarget, countingMessages: options.message == nil, outcome) + "\n")
        }
    }

    /// One line: what changed locally, and what is left for Gmail.
    static func summary(
        _ kind: PendingActionKind, target: String, countingMessages: Bool, _ outcome: ActionQueue.Outcome
    ) -> String {
        let who = TerminalSafeText.singleLine(target)
        guard outcome.messagesChanged > 0 else { return "Nothing to change: \(who) is already in that state." }
        let messages = outcome.messagesChanged == 1 ? "1 message" : "\(outcome.messagesChanged) messages"
        var line = "\(kind.pastTense): \(who)" + (countingMessages ? " (\(messages))." : ".")
        if let action = outcome.action {
            line += " Queued for Gmail as action #\(action.id.rawValue)."
        } else if outcome.cancelled > 0 {
            line += " This undoes a change not yet sent, so Gmail has nothing to hear."
        } else {
            line += " Already queued for Gmail."
        }
        return line
    }
}

struct Archive: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Archive a conversation: remove it from the inbox (new mail brings it back).",
        discussion: ActionRunner.discussion)
    @OptionGroup var options: ActionOptions
    func run() async throws { try await ActionRunner.run(.archive, options) }
}

struct Unarchive: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move a conversation back to the inbox.", discussion: ActionRunner.discussion)
    @OptionGroup var options: ActionOptions
    func run() async throws { try await ActionRunner.run(.unarchive, options) }
}

struct Read: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mark a conversation as read.", discussion: ActionRunner.discussion)
    @OptionGroup var options: ActionOptions
    func run() async throws { try await ActionRunner.run(.read, options) }
}

struct Unread: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mark a conversation as unread (its newest message from the other side).",
        discussion: ActionRunner.discussion)
    @OptionGroup var options: ActionOptions
    func run() async throws { try await ActionRunner.run(.unread, options) }
}

struct Star: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Star a conversation (its newest message).", discussion: ActionRunner.discussion)
    @OptionGroup var options: ActionOptions
    func run() async throws { try await ActionRunner.run(.star, options) }
}

struct Unstar: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove every star from a conversation.", discussion: ActionRunner.discussion)
    @OptionGroup var options: ActionOptions
    func run() async throws { try await ActionRunner.run(.unstar, options) }
}

struct Trash: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move a conversation to the trash.", discussion: ActionRunner.discussion)
    @OptionGroup var options: ActionOptions
    func run() async throws { try await ActionRunner.run(.trash, options) }
}
