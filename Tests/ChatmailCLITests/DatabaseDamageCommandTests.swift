import ChatmailStore
import Foundation
import GRDB
import Testing

/// A damaged database file is reported as such (exit 5, the path, what to do), never as a lock or a
/// raw SQL error, whichever page is damaged and whichever command finds it.
@Suite struct DatabaseDamageCommandTests {
    /// A seeded home whose database file alone holds the data (the WAL checkpointed into it).
    func seededHome() throws -> (fixture: CLIFixture, database: URL, pageSize: Int) {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let database = fixture.home.appendingPathComponent("chatmail.sqlite")
        let pageSize = try DatabaseQueue(path: database.path).writeWithoutTransaction { db in
            try db.checkpoint(.truncate)
            return try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
        }
        return (fixture, database, pageSize)
    }

    /// Writes garbage over `page` (1-based).
    func damage(_ database: URL, page: Int, pageSize: Int) throws {
        let handle = try FileHandle(forUpdating: database)
        defer { try? handle.close() }  // the write has been checked; closing loses nothing
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
    }

    func expectDamaged(_ result: RunResult, _ database: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 5, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.hasPrefix("chatmail: The database at \(database.path) is damaged: "), "\(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(result.stderr.contains("restore a backup"), sourceLocation: sourceLocation)
        #expect(result.stderr.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
        #expect(
            !result.stderr.contains("SELECT") && !result.stderr.contains("SQLite error"), "\(result.stderr)",
            sourceLocation: sourceLocation)
    }

    @Test("garbage over the first page: every command exits 5 naming the file, not 4 as if it were locked")
    func firstPage() async throws {
        let (fixture, database, pageSize) = try seededHome()
        try damage(database, page: 1, pageSize: pageSize)
        for arguments in [
            ["conversations"], ["show", "alan"], ["status"],
            ["import", packageRoot.appendingPathComponent("Fixtures/import/takeout.mbox").path],
        ] {
            let result = try await fixture.run(arguments)
            expectDamaged(result, database)
            #expect(result.stderr.contains("file is not a database"), "\(result.stderr)")
        }
    }

    @Test(
        "damaged pages of the conversation and message tables: the first query that reads one exits 5 with no SQL, in text and JSON"
    )
    func laterPage() async throws {
        let (fixture, database, pageSize) = try seededHome()
        // The tables and their indexes: a count may read an index rather than the table.
        let roots = try await DatabaseQueue(path: database.path).read { db in
            try Int.fetchAll(
                db,
                sql: "SELECT rootpage FROM sqlite_master WHERE tbl_name IN ('conversation', 'message') AND rootpage > 1"
            )
        }
        try #require(roots.count >= 2)
        for page in roots { try damage(database, page: page, pageSize: pageSize) }
        for arguments in [["conversations"], ["show", "alan"], ["status"], ["search", "lunch"]] {
            let result = try await fixture.run(arguments)
            expectDamaged(result, database)
            #expect(result.stderr.contains("database disk image is malformed"), "\(result.stderr)")
        }
        let json = try await fixture.run(["conversations", "--json"])
        expectDamaged(json, database)
        let error = try #require((try json.json() as? [String: Any])?["error"] as? [String: Any], "\(json.stdout)")
        #expect(error["code"] as? Int == 5 && error["kind"] as? String == "databaseDamaged")
    }

    @Test("a zero-byte database is a new one, and the user is told so once")
    func zeroBytes() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-empty-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }  // best-effort cleanup
        let database = home.appendingPathComponent("chatmail.sqlite")
        try Data().write(to: database)
        let first = try await CLIFixture.run(["conversations", "--home", home.path])
        #expect(first.status == 3)
        #expect(
            first.stderr == """
                chatmail: the database at \(database.path) was empty; starting a new one.
                chatmail: No account is set up yet. Run `chatmail login` (Gmail) or `chatmail login --imap ADDRESS --host HOST` first.

                """)
        let second = try await CLIFixture.run(["conversations", "--home", home.path])
        #expect(second.status == 3 && !second.stderr.contains("was empty"), "\(second.stderr)")
        try Data().write(to: database)
        let imported = try await CLIFixture.run(
            [
                "import", packageRoot.appendingPathComponent("Fixtures/import/takeout.mbox").path, "--home", home.path,
                "--me", "me@example.org",
            ])
        #expect(imported.status == 0 && imported.stdout.hasPrefix("Imported 3 messages: 3 new"), "\(imported.stderr)")
        #expect(imported.stderr.components(separatedBy: "was empty; starting a new one").count == 2)
    }
}
