import Foundation
import GRDB
import Testing

@testable import ChatmailStore

@Suite struct SearchIndexTests {
    /// Runs FTS5's own check of an external-content index against its content table; throws
    /// SQLITE_CORRUPT_VTAB when they disagree.
    func integrityCheck(_ path: URL) throws {
        try DatabaseQueue(path: path.path).write { db in
            try db.execute(sql: "INSERT INTO message_fts (message_fts, rank) VALUES ('integrity-check', 1)")
        }
    }

    func matches(_ query: String, _ path: URL) throws -> [String] {
        try DatabaseQueue(path: path.path).read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT m.gmail_id FROM message_fts JOIN message m ON m.id = message_fts.rowid
                    WHERE message_fts MATCH ? ORDER BY m.gmail_id
                    """, arguments: [query])
        }
    }

    @Test("the index follows inserts, updates and deletes, within one transaction and across several")
    func followsChanges() async throws {
        try await withTemporaryStore { store, path throws in
            let (account, _) = try store.seed([
                message("a", from: alice, text: "apple pie"),
                message("b", from: bob, text: "banana bread"),
            ])
            #expect(try matches("apple", path) == ["a"])
            // Update, delete and re-insert in one transaction, plus an insert then delete of a new message.
            try store.write { tx in
                try tx.upsert(message("a", from: alice, text: "cherry tart"), in: account)
                try tx.deleteMessages(gmailIDs: ["b"], in: account)
                try tx.upsert(message("c", from: carol, text: "durian"), in: account)
                try tx.upsert(message("c", from: carol, text: "elderberry"), in: account)
                try tx.upsert(message("d", from: carol, text: "fig"), in: account)
                try tx.deleteMessages(gmailIDs: ["d"], in: account)
            }
            try integrityCheck(path)
            #expect(try matches("apple", path) == [])
            #expect(try matches("cherry", path) == ["a"])
            #expect(try matches("banana", path) == [])
            #expect(try matches("durian", path) == [])
            #expect(try matches("elderberry", path) == ["c"])
            #expect(try matches("fig", path) == [])
            #expect(try matches("subject:hello", path) == ["a", "c"])
        }
    }

    @Test("a rolled-back transaction leaves the index as it was")
    func rollback() async throws {
        struct Boom: Error {}
        try await withTemporaryStore { store, path throws in
            let (account, _) = try store.seed([message("a", from: alice, text: "apple")])
            #expect(throws: Boom.self) {
                try store.write { tx in
                    try tx.upsert(message("b", from: bob, text: "banana"), in: account)
                    try tx.deleteMessages(gmailIDs: ["a"], in: account)
                    throw Boom()
                }
            }
            try integrityCheck(path)
            #expect(try matches("apple", path) == ["a"])
            #expect(try matches("banana", path) == [])
        }
    }
}
