import ChatmailStore
import Foundation
import GmailAPI
import GmailModel
import MailText

/// Finds out from Gmail whether a queued message whose send had an unknown outcome went out.
///
/// Gmail may replace the Message-ID we wrote, so the message is recognised by what it keeps: the Date
/// header (ours, to the second), the subject and the recipients. Candidates are the messages added to
/// SENT since the history id saved before the request, newest first; when that history has expired, the
/// newest sent messages (the request is recent, so the message would be among them).
struct SendVerifier {
    let gmail: GmailClient

    /// How many of the newest sent messages are read when history is no longer available.
    static let fallbackWindow = 50

    enum Finding: Equatable {
        case sent(gmailID: String, threadID: String)
        /// Gmail has no such message: sending it is safe.
        case notSent
    }

    func find(_ entry: OutboxEntry) async throws -> Finding {
        // The bytes are made before any request, so without them no request was written.
        guard entry.raw != nil, let dateHeader = entry.dateHeader, let sentAt = MailDate.parse(dateHeader) else {
            return .notSent
        }
        var candidates: [String] = []
        do {
            guard let start = entry.checkFromHistory.flatMap(UInt64.init) else {
                throw GmailAPIError.giveUp(.historyExpired)
            }
            let listing = try await gmail.listHistory(
                startHistoryID: start, historyTypes: [.messageAdded], labelID: "SENT")
            // Newest first: the message looked for was sent after everything else in that history.
            candidates = listing.records.flatMap { $0.messagesAdded.map(\.message.id) }.reversed()
        } catch GmailAPIError.giveUp(.historyExpired) {
            candidates = try await gmail.listMessages(labelIDs: ["SENT"], maxResults: Self.fallbackWindow).messages
                .map(\.id)
        }
        let wanted = Self.recipientKeys(entry.message.to + entry.message.cc)
        var seen: Set<String> = []
        for id in candidates where seen.insert(id).inserted {
            let message: Message
            do {
                message = try await gmail.getMessage(
                    id: id, format: .metadata(headers: ["Date", "Subject", "To", "Cc"]))
            } catch GmailAPIError.giveUp(.notFound) {
                continue  // deleted since: not ours to find
            }
            guard let headers = message.payload,
                headers.header("Date").flatMap(MailDate.parse) == sentAt,
                EncodedWords.decode(headers.header("Subject") ?? "") == entry.message.subject
            else { continue }
            let recipients = ["To", "Cc"].flatMap { AddressListParser.parse(headers.header($0) ?? "") }
            guard Self.recipientKeys(recipients.map { EmailAddress(address: $0.address) }) == wanted else { continue }
            return .sent(gmailID: message.id, threadID: message.threadId ?? message.id)
        }
        return .notSent
    }

    static func recipientKeys(_ addresses: [EmailAddress]) -> Set<String> { Set(addresses.map(\.normalizedAddress)) }
}
