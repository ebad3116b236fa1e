import ChatmailStore
import Foundation
import MailText
import TerminalUI
import TextFormatting

/// Errors raised by the commands themselves.
enum CommandError: Error, Sendable {
    case personNotFound(String)
    /// `<person>` matches several people, or one person's several conversations (or titles); the
    /// candidates are listed under the message.
    case personAmbiguous(String, people: [PersonCandidate], conversations: [ConversationSummary])
    /// `--group` was given, and the one person who matches is in no group conversation.
    case noGroupConversation(String, PersonCandidate)
    /// `show --from` names nobody who wrote to the conversation (its title is given).
    case senderNotFound(String, conversation: String)
    /// `show --from` names several of the conversation's people; they are listed under the message.
    case senderAmbiguous(String, senders: [PersonCandidate])
    case outputFailed(String)
    /// The input is not what the command reads (empty, missing, unreadable).
    case badInput(String)
    /// The input (named as the user gave it, or "stdin") is not an email message, and why.
    case notAMessage(String, MessageValidation.Rejection)
    /// The text of a reply or message is empty (or only the editor's help comment): nothing is queued.
    case emptyMessage
    /// The editor could not be started, or exited with a failure: nothing is queued.
    case editorFailed(String)
    /// What `reply` or `send` was given cannot be sent (a bad address, too large); nothing is queued.
    case cannotSend(String)
    /// The interactive app was started without a terminal to draw on.
    case needsTerminal
}

extension CommandError: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .personNotFound(let query):
            "No conversation matches \(EchoedInput.quoted(query)). Run `chatmail conversations --all` to see who you talk to."
        case .personAmbiguous(let query, let people, let conversations):
            "\(EchoedInput.quoted(query)) matches \(Self.count(people: people.count, conversations: conversations.count)); "
                + (people.isEmpty
                    ? "give the conversation's id instead (as listed: id:N):"
                    : "give more of the name, the full address, or a conversation id (id:N from `chatmail conversations --json`):")
        case .noGroupConversation(let query, let person):
            "\(EchoedInput.quoted(query)) is \(CandidateLine.name(of: person)), who is in no group conversation. "
                + "Leave out --group to use the one-to-one chat."
        case .senderNotFound(let query, let conversation):
            "Nobody in \(EchoedInput.quoted(conversation)) matches \(EchoedInput.quoted(query)) for --from."
        case .senderAmbiguous(let query, let senders):
            "\(EchoedInput.quoted(query)) matches \(senders.count) people in the conversation; give more of the name "
                + "or the full address to --from:"
        case .outputFailed(let reason):
            "Could not write the output: \(reason)."
        case .badInput(let reason):
            "Cannot read the input: \(reason)."
        case .notAMessage(let name, let rejection):
            "\(name) is not an email message: \(rejection)."
        case .emptyMessage:
            "The message is empty; nothing was queued."
        case .editorFailed(let reason):
            "The editor failed (\(reason)); nothing was queued."
        case .cannotSend(let reason):
            "\(reason) Nothing was queued."
        case .needsTerminal:
            "The app needs a terminal (standard input and output); the other commands work in scripts."
        }
    }

    /// "2 people", "3 conversations", "1 person and 1 conversation".
    private static func count(people: Int, conversations: Int) -> String {
        let parts = [
            people == 0 ? nil : people == 1 ? "1 person" : "\(people) people",
            conversations == 0 ? nil : conversations == 1 ? "1 conversation" : "\(conversations) conversations",
        ]
        return parts.compactMap { $0 }.joined(separator: " and ")
    }
}

/// User input quoted back in a message: on one line, terminal-safe, and cut short, so a pasted page
/// (or a name ten thousand characters long) cannot flood the terminal or hide the advice after it.
/// Every message that echoes what the user typed goes through here.
enum EchoedInput {
    /// The most columns of input a message repeats.
    static let maximumWidth = 60

    /// `text` on one line, at most ``maximumWidth`` columns, ending with "…" when cut.
    static func excerpt(_ text: String) -> String {
        DisplayWidth.truncate(TerminalSafeText.singleLine(text), toWidth: maximumWidth)
    }

    /// The ``excerpt(_:)`` in double quotes.
    static func quoted(_ text: String) -> String {
        "\"" + excerpt(text) + "\""
    }
}

/// One line describing a candidate person or conversation in an ambiguity report.
enum CandidateLine {
    /// `Alice Liddell <alice@example.com> (2 conversations)`.
    static func describe(_ person: PersonCandidate) -> String {
        let count = person.conversationCount == 1 ? "1 conversation" : "\(person.conversationCount) conversations"
        return name(of: person) + " (\(count))"
    }

    /// `id:4 Alice, Bob <alice@example.com, bob@example.net> (3 messages)`: the id first, since it is
    /// what the user types next.
    static func describe(_ conversation: ConversationSummary) -> String {
        let addresses = conversation.participants.map(\.address).joined(separator: ", ")
        let count = conversation.messageCount == 1 ? "1 message" : "\(conversation.messageCount) messages"
        return TerminalSafeText.singleLine(
            "\(reference(to: conversation)) \(conversation.title) <\(addresses)> (\(count))")
    }

    /// `Alice Liddell <alice@example.com>`, or the address alone when they have no name.
    static func name(of person: PersonCandidate) -> String {
        let address = TerminalSafeText.singleLine(person.address)
        guard let name = person.name.map(TerminalSafeText.singleLine), !name.isEmpty else { return "<\(address)>" }
        return "\(name) <\(address)>"
    }

    /// How `<person>` names exactly this conversation: `id:4`.
    static func reference(to conversation: ConversationSummary) -> String {
        "id:\(conversation.id.rawValue)"
    }
}
