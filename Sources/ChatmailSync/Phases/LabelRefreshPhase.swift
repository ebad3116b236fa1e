import ChatmailStore
import GmailAPI

/// Re-reads the labels of stored messages (format=minimal, batched) and corrects the local copy:
/// recovery after expired history, and the hourly reconciliation. Nothing is downloaded in full. Each
/// chunk's corrections commit with the rollups of the conversations they reach (through the tracker).
struct LabelRefreshPhase: Sendable {
    let gmail: GmailClient
    let store: ChatmailStore
    let tracker: ModificationTracker
    let chunkSize: Int

    struct Result: Sendable {
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
            let partial = try await tracker.write(in: store) { tx, modifications -> Result in
                var partial = Result()
                let protected = try tx.protectedGmailIDs(in: account)
                let local = try tx.labelIDs(ofMessages: outcome.messages.map(\.id), in: account)
                for message in outcome.messages where !protected.contains(message.id) {
                    guard let labels = local[message.id], labels != Set(message.labelIds) else { continue }
                    if let conversation = try tx.replaceLabels(message.labelIds, onMessage: message.id, in: account) {
                        modifications.report(conversation)
                        partial.relabelled += 1
                    }
                }
                modifications.report(try tx.deleteMessages(gmailIDs: outcome.gone, in: account))
                partial.deleted = outcome.gone.count
                return partial
            }
            result.relabelled += partial.relabelled
            result.deleted += partial.deleted
        }
        return result
    }
}
