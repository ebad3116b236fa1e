import Foundation
import GmailAPI

/// Downloads messages by id through the batch endpoint (paced by the client), sorting every id into
/// fetched, gone (404: deleted on Gmail, not a failure) or failed (kept to retry on the next sync).
struct FetchPhase: Sendable {
    let gmail: GmailClient

    struct Outcome: Sendable {
        var messages: [Message] = []
        var gone: [String] = []
        var failed: [(id: String, error: String)] = []
    }

    func run(_ ids: [String], format: MessageFormat = .full) async throws -> Outcome {
        var outcome = Outcome()
        guard !ids.isEmpty else { return outcome }
        let results = try await gmail.getMessages(ids: ids, format: format)
        for id in ids {
            switch results[id] {
            case .success(let message)?:
                outcome.messages.append(message)
            case .failure(.giveUp(.notFound))?:
                outcome.gone.append(id)
            case .failure(let error)?:
                // A login problem stops the whole sync; anything else is this message's problem only.
                if case .logInAgain = error { throw error }
                outcome.failed.append((id, error.localizedDescription))
            case nil:
                outcome.failed.append((id, "Gmail sent no answer for this message"))
            }
        }
        return outcome
    }
}
