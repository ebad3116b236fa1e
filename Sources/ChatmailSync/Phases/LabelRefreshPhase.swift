import ChatmailStore
import GmailAPI

/// Re-reads the labels of stored messages (format=minimal, batched) and corrects the local copy:
/// recovery after expired history, and the hourly reconciliation. Nothing is downloaded in full.
struct LabelRefreshPhase: Sendable {
    let gmail: GmailClient
    let store: ChatmailStore
    let chunkSize: Int

    struct Result: Sendable {
        var touched = Set<ConversationID>()
        var relabelled = 0
        var deleted = 0
    }

    func run(_ ids: [String], in account: AccountID) async throws -> Result {
        var result = Result()
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(ids.count, start + chunkSize)])
            start += chunk.count
            let outcome = try await FetchPhase(gmail: gmail).run(chunk, format: .minimal)
            let partial = try await store.write { tx -> Result in
                var partial = Result()
                let protected = try tx.protectedGmailIDs(in: account)
                let local = try tx.labelIDs(ofMessages: outcome.messages.map(\.id), in: account)
                for message in outcome.messages where !protected.contains(message.id) {
                    guard let labels = local[message.id], labels != Set(message.labelIds) else { continue }
                    if let conversation = try tx.replaceLabels(message.labelIds, onMessage: message.id, in: account) {
                        partial.touched.insert(conversation)
                        partial.relabelled += 1
                    }
                }
                partial.touched.formUnion(try tx.deleteMessages(gmailIDs: outcome.gone, in: account))
                partial.deleted = outcome.gone.count
                try tx.recomputeRollups(for: partial.touched)
                return partial
            }
            result.touched.formUnion(partial.touched)
            result.relabelled += partial.relabelled
            result.deleted += partial.deleted
        }
        return result
    }
}
