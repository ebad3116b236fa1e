import Foundation
import GRDB
import Testing

@testable import ChatmailStore

@Suite struct DatabaseDamageTests {
    /// Moves everything from the WAL into the database file, so the file alone holds the data.
    func checkpoint(_ store: ChatmailStore) throws {
        _ = try store.pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    /// Writes garbage over page `page` (1-based) of the file at `path`.
    func damage(_ path: URL, page: Int, pageSize: Int) throws {
        let handle = try FileHandle(forUpdating: path)
        defer { try? handle.close() }  // the write below has been checked; closing a read-write handle loses nothing
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
    }

    @Test("garbage over the first page: opening reports the file as damaged, naming it")
    func damagedHeader() async throws {
        try await withTemporaryStore { store, path throws in
            _ = try store.seed([message("m1", from: alice)])
            try checkpoint(store)
            try damage(path, page: 1, pageSize: 4096)
            #expect(throws: StoreError.databaseDamaged(path: path.path, reason: "file is not a database")) {
                try ChatmailStore(path: path.path)
            }
        }
    }

    @Test(
        "a damaged page of the conversation and message tables: the store opens, and each query that reads them says the file is damaged"
    )
    func damagedPages() async throws {
        try await withTemporaryStore { store, path throws in
            let (account, _) = try store.seed(
                (1...40).map { message("m\($0)", from: $0.isMultiple(of: 2) ? alice : bob, text: "text \($0)") })
            let conversation = try #require(try store.conversations(in: account).first)
            try checkpoint(store)
            let (pageSize, roots) = try store.read { db in
                (
                    try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096,
                    try Int.fetchAll(
                        db, sql: "SELECT rootpage FROM sqlite_master WHERE name IN ('conversation', 'message')")
                )
            }
            #expect(roots.count == 2 && !roots.contains(1))
            for page in roots { try damage(path, page: page, pageSize: pageSize) }

            let reopened = try ChatmailStore(path: path.path)
            let damaged = StoreError.databaseDamaged(path: path.path, reason: "database disk image is malformed")
            #expect(throws: damaged) { try reopened.conversations(in: account) }
            #expect(throws: damaged) { try reopened.transcript(of: conversation.id, limit: 10) }
            await #expect(throws: damaged) {
                try await reopened.write { tx in try tx.db.execute(sql: "UPDATE message SET is_from_me = is_from_me") }
            }
        }
    }

    @Test(
        "the summary of an unexpected database error keeps SQLite's reason and leaves out the statement and its values")
    func summaryWithoutSQL() throws {
        let error = DatabaseError(
            resultCode: .SQLITE_ERROR, message: "no such column: secret",
            sql: "SELECT body FROM message WHERE from_address = ?", arguments: ["alice@example.com"],
            publicStatementArguments: true)
        #expect("\(error)".contains("SELECT"))  // what GRDB itself would print
        let summary = try #require(StoreError.databaseFailureSummary(of: error))
        #expect(summary.contains("no such column: secret"))
        #expect(!summary.contains("SELECT") && !summary.contains("alice"))
        #expect(StoreError.databaseFailureSummary(of: CocoaError(.fileNoSuchFile)) == nil)
    }
}
