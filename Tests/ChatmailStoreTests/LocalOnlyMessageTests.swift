import ChatmailStore
import Testing

/// Messages Gmail does not know (imported ones, `imp-…`, and unsent ones in the outbox, `out-…`) must
/// never be asked about: Gmail would answer 404 and the store would delete them as gone.
@Suite struct LocalOnlyMessageTests {
    @Test("reconciliation reads only Gmail's messages, however recent the local ones are")
    func reconciliationSkipsLocalMessages() async throws {
        try await withTemporaryStore { store, _ in
            let (account, _) = try store.seed([
                message("18c0a1", from: alice, at: 1_700_000_000_000),
                message("imp-0123456789abcdef", from: bob, at: 1_700_000_100_000),
                message("out-7", from: me, to: [alice], at: 1_700_000_200_000),
            ])
            let recent = try await store.write { tx in try tx.recentGmailIDs(in: account, limit: 10) }
            #expect(recent == ["18c0a1"])
        }
    }

    @Test("a label action never targets an unsent outbox message")
    func actionsSkipOutboxMessages() async throws {
        try await withTemporaryStore { store, _ in
            let (account, upserts) = try store.seed([
                message("18c0a1", from: alice, at: 1_700_000_000_000),
                message("out-7", from: me, to: [alice], at: 1_700_000_200_000, labels: ["INBOX", "SENT"]),
            ])
            let conversation = try #require(upserts.first?.conversationID)
            let candidates = try await store.write { tx in try tx.actionCandidates(in: conversation) }
            #expect(candidates.map(\.gmailID) == ["18c0a1"])
            #expect(try await store.write { tx in try tx.actionCandidate(gmailID: "out-7", in: account) } == nil)
        }
    }
}
