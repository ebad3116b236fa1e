import ChatmailStore
import GmailAPI
import MailText

/// Reads the list headers of messages stored before the store kept them (metadata format: a few headers,
/// no body, so nothing is downloaded again) and lets the store re-group them. Each chunk commits with the
/// rollups of the conversations its messages left and joined, and takes its messages off the backfill list
/// in the same transaction, so a killed sync resumes where it stopped. A message Gmail could not return
/// stays listed for the next sync, and so does an imported message (see ``MailboxImporter``).
struct ListHeaderBackfillPhase: Sendable {
    let gmail: GmailClient
    let store: ChatmailStore
    let tracker: ModificationTracker
    let chunkSize: Int

    /// The headers read, as Gmail names them.
    static let headers = ["List-Id", "List-Post", "Reply-To", "Mail-Followup-To"]

    /// - returns: how many messages had their headers stored.
    @discardableResult
    func run(in account: AccountID) async throws -> Int {
        // Imported messages are not on Gmail: importing their source again brings their headers.
        let ids = try await store.write { tx in try tx.listHeaderBackfillIDs(in: account) }
            .filter { !ImportIdentity.isImported($0) }
        var applied = 0
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(ids.count, start + chunkSize)])
            start += chunk.count
            let outcome = try await FetchPhase(gmail: gmail).run(chunk, format: .metadata(headers: Self.headers))
            let values = outcome.messages.map { (id: $0.id, headers: Self.values(of: $0)) }
            try await tracker.write(in: store) { tx, modifications in
                for value in values {
                    modifications.report(try tx.applyListHeaders(value.headers, toMessage: value.id, in: account))
                }
                try tx.forgetListHeaderBackfill(gmailIDs: outcome.gone, in: account)
            }
            applied += values.count
        }
        return applied
    }

    /// The list headers of a metadata-format message, parsed exactly as a full message's are.
    static func values(of message: Message) -> ListHeaderValues {
        guard let payload = message.payload else { return ListHeaderValues() }
        let parsed = GmailPayloadAdapter.parse(payload)
        return ListHeaderValues(
            mailingList: parsed.mailingList.map { MessageInput.MailingList(id: $0.id, name: $0.name) },
            listPosting: parsed.listPosting.map(MessageInputBuilder.listPosting),
            replyTo: MessageInputBuilder.addressList(parsed.replyTo),
            mailFollowupTo: MessageInputBuilder.addressList(parsed.mailFollowupTo))
    }
}
