import Foundation
import GRDB
import Testing

@testable import ChatmailStore

@Suite struct ConversationIdentityTests {
    @Test("messages with the same people land in one conversation, whatever the spelling")
    func samePeopleOneConversation() async throws {
        try await withTemporaryStore { store, _ throws in
            let (_, results) = try store.seed([
                message("m1", from: alice),
                message("m2", from: me, to: [EmailAddress(address: "ALICE@example.com")]),
            ])
            #expect(results[0].conversationID == results[1].conversationID)
        }
    }

    @Test("a message sent from an alias does not put me in the conversation")
    func aliasesExcluded() async throws {
        try await withTemporaryStore { store, _ throws in
            let work = EmailAddress(address: "me.work@example.com")
            let (account, results) = try store.seed(
                [message("m1", from: alice), message("m2", from: work, to: [alice])], aliases: [work])
            #expect(results[0].conversationID == results[1].conversationID)
            let list = try store.conversations(in: account)
            #expect(list.count == 1)
            #expect(list[0].participants.map(\.address) == ["Alice@Example.com"])
            let transcript = try #require(try store.transcript(of: results[1].conversationID, limit: 10))
            #expect(transcript.messages.map(\.isFromMe) == [false, true])
        }
    }

    @Test("normalized addresses are for identity only: spelling and names are kept for display")
    func displaySpelling() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([message("m1", from: bob)])
            let list = try store.conversations(in: account)
            #expect(list[0].participants == [EmailAddress(address: "Bob.Smith@gmail.com", name: "Bob Smith")])
            #expect(list[0].title == "Bob Smith")
        }
    }

    @Test("two concurrent writers inserting the same new participant set create ONE conversation")
    func concurrentFindOrCreate() async throws {
        try await withTemporaryStore { store, path throws in
            let account = try store.write { tx in try tx.ensureAccount(email: me.address) }
            // A second store on the same file behaves like a second process: its own connection pool.
            let other = try ChatmailStore(path: path.path)
            let stores = [store, other]
            let ids = try await withThrowingTaskGroup(of: ConversationID.self) { group in
                for index in 0..<16 {
                    let target = stores[index % 2]
                    group.addTask {
                        try await target.write { tx in
                            try tx.upsert(message("m\(index)", from: carol, cc: [alice]), in: account).conversationID
                        }
                    }
                }
                return try await group.reduce(into: Set<ConversationID>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            let count = try DatabaseQueue(path: path.path).read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM conversation")
            }
            #expect(count == 1)
        }
    }

    @Test("the schema itself forbids two conversations with one participant hash")
    func uniqueConstraint() async throws {
        try await withTemporaryStore { store, path throws in
            let (account, results) = try store.seed([message("a", from: alice)])
            let hash = ParticipantSet(from: alice, to: [me], cc: [], excluding: ["me@example.org"]).hash
            #expect(throws: DatabaseError.self) {
                try DatabaseQueue(path: path.path).write { db in
                    try db.execute(
                        sql: "INSERT INTO conversation (account_id, participant_hash, created_at_ms) VALUES (?, ?, 0)",
                        arguments: [account, hash])
                }
            }
            // And find-or-create finds a row another connection created, rather than adding one.
            let otherHash = ParticipantSet(from: bob, to: [me], cc: [], excluding: ["me@example.org"]).hash
            let existing = try DatabaseQueue(path: path.path).write { db -> Int64 in
                try db.execute(
                    sql: "INSERT INTO conversation (account_id, participant_hash, created_at_ms) VALUES (?, ?, 0)",
                    arguments: [account, otherHash])
                return db.lastInsertedRowID
            }
            let found = try store.write { tx in try tx.upsert(message("b", from: bob), in: account).conversationID }
            #expect(found.rawValue == existing)
            #expect(found != results[0].conversationID)
        }
    }

    @Test("upserting a stored message updates it instead of duplicating it")
    func upsertUpdates() async throws {
        try await withTemporaryStore { store, path throws in
            let (account, first) = try store.seed([message("m1", from: alice, labels: ["INBOX", "UNREAD"], text: "v1")])
            let second = try store.write { tx in
                try tx.upsert(message("m1", from: alice, labels: ["INBOX"], text: "v2"), in: account)
            }
            #expect(first[0].wasInserted && !second.wasInserted)
            #expect(second.messageID == first[0].messageID)
            let transcript = try #require(try store.transcript(of: second.conversationID, limit: 5))
            #expect(transcript.messages.map(\.text) == ["v2"])
            #expect(transcript.messages[0].labels == ["INBOX"])
            let counts = try DatabaseQueue(path: path.path).read { db in
                try [
                    Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message"),
                    Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message_participant"),
                    Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message_fts WHERE message_fts MATCH 'v2'"),
                ]
            }
            #expect(counts == [1, 2, 1])
        }
    }

    @Test("a transaction that throws leaves nothing behind")
    func atomicWrite() async throws {
        struct Boom: Error {}
        try await withTemporaryStore { store, _ throws in
            await #expect(throws: Boom.self) {
                try await store.write { tx in
                    let account = try tx.ensureAccount(email: me.address)
                    try tx.upsert(message("m1", from: alice), in: account)
                    throw Boom()
                }
            }
            let accounts = try store.accounts()
            #expect(accounts.isEmpty)
        }
    }
}
