import ChatmailStore
import Foundation
import MailText
import TerminalUI

/// Errors raised by the commands themselves.
enum CommandError: Error, Sendable {
    case personNotFound(String)
    case personAmbiguous(String, [ConversationSummary])
    case outputFailed(String)
    /// The input is not what the command reads (empty, missing, unreadable).
    case badInput(String)
    /// The input (named as the user gave it, or "stdin") is not an email message, and why.
    case notAMessage(String, MessageValidation.Rejection)
    /// Another `chatmail sync` of this account is running.
    case syncRunning
}

extension CommandError: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .personNotFound(let query):
            "No conversation matches \"\(query)\". Run `chatmail conversations --all` to see who you talk to."
        case .personAmbiguous(let query, let candidates):
            "\"\(query)\" matches \(candidates.count) conversations; give more of a name or the full address:"
        case .outputFailed(let reason):
            "Could not write the output: \(reason)."
        case .badInput(let reason):
            "Cannot read the input: \(reason)."
        case .notAMessage(let name, let rejection):
            "\(name) is not an email message: \(rejection)."
        case .syncRunning:
            "Another chatmail sync of this account is running. Wait for it to finish, then try again."
        }
    }
}

/// One line describing a candidate conversation in an ambiguity report.
enum CandidateLine {
    static func describe(_ conversation: ConversationSummary) -> String {
        let addresses = conversation.participants.map(\.address).joined(separator: ", ")
        let count = conversation.messageCount == 1 ? "1 message" : "\(conversation.messageCount) messages"
        return TerminalSafeText.singleLine("\(conversation.title) <\(addresses)> (\(count))")
    }
}
