import Foundation
import GRDB
import Testing

@testable import ChatmailStore

@Suite struct MigrationTests {
    static let expectedTables = [
        "abandoned_message", "account", "account_alias", "attachment", "conversation", "conversation_participant",
        "correspondent", "imap_account", "imap_folder", "imap_location",
        "label", "label_recheck", "list_header_backfill", "mailing_list", "mailing_list_post_address", "message",
        "message_fts",
        "message_label", "message_participant", "outbox", "own_post_recipient", "pending_action", "rule",
        "sqlite_sequence",
        "sync_queue",
    ]

    @Test("a fresh file gets every table of the data model, in WAL mode with foreign keys on")
    func freshFile() async throws {
        try await withTemporaryStore { _, path throws in
            let queue = try DatabaseQueue(path: path.path)
            try queue.read { db in
                let tables = try String.fetchAll(
                    db,
                    sql:
                        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb%' AND name NOT LIKE '%fts_%' ORDER BY name"
                )
                #expect(tables == Self.expectedTables)
                #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
                let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
                #expect(
                    applied == [
                        "001_account", "002_conversation", "003_message", "004_message_fts", "005_queues",
                        "006_sync_queue",
                        "007_pending_action_details", "008_drop_message_html", "009_covering_conversation_index",
                        "010_mailing_lists", "011_message_by_list", "012_outbox", "013_verification_codes",
                        "014_rules", "015_subject_base", "016_imap", "017_imap_sending",
                    ])
            }
        }
    }

    @Test("running the migrator again on a migrated file is a no-op")
    func idempotent() async throws {
        try await withTemporaryStore { store, path throws in
            try store.seed([message("m1", from: alice)])
            let before = try Self.schemaDump(path)
            _ = try ChatmailStore(path: path.path)  // reopen: migrates again
            let pool = try DatabasePool(path: path.path)
            try SchemaMigrator().migrate(pool)  // and explicitly
            #expect(try Self.schemaDump(path) == before)
            let reopened = try ChatmailStore(path: path.path)
            #expect(try reopened.accounts().count == 1)
        }
    }

    @Test("foreign keys are enforced")
    func foreignKeys() async throws {
        try await withTemporaryStore { store, _ throws in
            _ = await #expect(throws: DatabaseError.self) {
                try await store.write { tx in
                    try tx.db.execute(sql: "INSERT INTO message_label (message_id, label_id) VALUES (999, 999)")
                }
            }
        }
    }

    @Test("a database from a newer chatmail is refused with a clear error")
    func newerSchema() async throws {
        try await withTemporaryStore { _, path throws in
            let queue = try DatabaseQueue(path: path.path)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('999_from_the_future')")
            }
            #expect(throws: StoreError.schemaFromNewerVersion) { try ChatmailStore(path: path.path) }
        }
    }

    @Test(
        "malformed migration folders are rejected, not silently skipped",
        arguments: [
            (["001_a.sql", "003_c.sql"], "expected migration 2"),
            (["001_a.sql", "001_b.sql"], "expected migration 2"),
            (["01_a.sql"], "not named NNN_name.sql"),
        ])
    func malformed(files: [String], reason: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        for file in files {
            try "SELECT 1;".write(to: dir.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        do {
            _ = try SchemaMigrator(directory: dir)
            Issue.record("expected an error")
        } catch {
            guard case .invalidMigrations(let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(message.contains(reason))
        }
    }

    @Test("007 keeps queued actions of a 006 database, and action ids are never reused after a delete")
    func pendingActionRebuild() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-007-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let (path, pool) = try Self.database(migratedThrough: 6, in: dir)
        try await pool.write { db in
            try Self.insertAccount(db)
            try db.execute(
                sql: """
                    INSERT INTO pending_action (account_id, kind, target_message_ids, remove_labels, status, attempts, next_attempt_at_ms, last_error, created_at_ms, updated_at_ms)
                    VALUES (1, 'archive', '["a","b"]', '["INBOX"]', 'failed', 2, 5, 'HTTP 503', 1, 2)
                    """)
        }
        try pool.close()

        let store = try ChatmailStore(path: path.path, clock: { 10 })
        let account = AccountID(rawValue: 1)
        let kept = try #require(try store.pendingActions(of: account).first)
        #expect(kept.id.rawValue == 1 && kept.kind == .archive && kept.targetIDs == ["a", "b"] && kept.sentIDs.isEmpty)
        #expect(kept.status == .failed && kept.attempts == 2 && kept.lastError == "HTTP 503" && kept.target == "")
        let second = try await store.write { tx in
            try tx.insertPendingAction(kind: .star, target: "x", gmailIDs: ["c"], in: account)
        }
        try await store.write { tx in try tx.deletePendingAction(second.id, in: account) }
        let third = try await store.write { tx in
            try tx.insertPendingAction(kind: .star, target: "x", gmailIDs: ["c"], in: account)
        }
        #expect(second.id.rawValue == 2 && third.id.rawValue == 3)
    }

    @Test("008 drops the unread HTML column of a 007 database and keeps every message and its text")
    func dropMessageHTML() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-008-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let (path, pool) = try Self.database(migratedThrough: 7, in: dir)
        try await pool.write { db in
            try Self.insertAccountAndConversation(db)
            try db.execute(
                sql: """
                    INSERT INTO message (account_id, gmail_id, thread_id, conversation_id, internal_date_ms, from_address,
                        body_text, body_html_sanitized)
                    VALUES (1, 'g1', 't1', 1, 1, 'alice@example.com', 'hello there', '<p>hello there</p>')
                    """)
        }
        try pool.close()
        _ = try ChatmailStore(path: path.path, clock: { 10 })  // applies 008 on open
        let (columns, text) =
            try await DatabaseQueue(path: path.path).read { db in
                (
                    try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('message')"),
                    try String.fetchOne(db, sql: "SELECT body_text FROM message WHERE gmail_id = 'g1'")
                )
            } as ([String], String?)
        #expect(!columns.contains("body_html_sanitized"))
        #expect(columns.contains("body_text"))
        #expect(text == "hello there")
    }

    @Test(
        "010 keeps a 009 database's messages in place and lists my posts' recipients, so a list learned later regroups them"
    )
    func mailingLists() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-010-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let (path, pool) = try Self.database(migratedThrough: 9, in: dir)
        let oldHash = ParticipantSet.hash(ofNormalizedAddresses: ["carol@example.net", "dev@lists.example.org"])
        try await pool.write { db in
            try Self.insertAccount(db)
            try db.execute(
                sql: "INSERT INTO conversation (account_id, participant_hash, created_at_ms) VALUES (1, ?, 0)",
                arguments: [oldHash])
            try db.execute(
                sql: """
                    INSERT INTO message (account_id, gmail_id, thread_id, conversation_id, internal_date_ms, from_address,
                        is_from_me)
                    VALUES (1, 'mine', 't1', 1, 1, 'me@example.org', 1), (1, 'theirs', 't2', 1, 2, 'carol@example.net', 0)
                    """)
            try db.execute(
                sql: """
                    INSERT INTO message_participant (message_id, role, address_normalized, address) VALUES
                        (1, 'from', 'me@example.org', 'me@example.org'),
                        (1, 'cc', 'carol@example.net', 'carol@example.net'),
                        (1, 'to', 'dev@lists.example.org', 'dev@lists.example.org'),
                        (2, 'from', 'carol@example.net', 'carol@example.net'),
                        (2, 'to', 'dev@lists.example.org', 'dev@lists.example.org')
                    """)
        }
        try pool.close()
        let store = try ChatmailStore(path: path.path, clock: { 10 })  // applies 010 on open
        let recipients = try await DatabaseQueue(path: path.path).read { db in
            try String.fetchAll(
                db, sql: "SELECT address_normalized FROM own_post_recipient WHERE message_id = 1 ORDER BY position")
        }
        // Only my post is listed, To before Cc; nothing moved yet: the list is not known.
        #expect(recipients == ["dev@lists.example.org", "carol@example.net"])
        // Every stored message waits for a sync to read its list headers.
        let waiting = try await store.write { tx in try tx.listHeaderBackfillIDs(in: AccountID(rawValue: 1)) }
        #expect(waiting == ["mine", "theirs"])
        let account = AccountID(rawValue: 1)
        #expect(
            try await store.write { tx in try tx.messageRows(forGmailIDs: ["mine"], in: account) }.first?.conversation
                .rawValue == 1)

        var reply = message("reply", from: alice, to: [EmailAddress(address: "dev@lists.example.org")], at: 3)
        reply.mailingList = .init(id: "dev.lists.example.org")
        reply.listPosting = .address(EmailAddress(address: "dev@lists.example.org"))
        let learned = reply
        let stored = try await store.write { tx in try tx.upsert(learned, in: account) }
        #expect(stored.regroupedConversations == [ConversationID(rawValue: 1), stored.conversationID])
        let rows = try await store.write { tx in
            try tx.messageRows(forGmailIDs: ["mine", "theirs"], in: account)
        }
        #expect(rows.map(\.conversation) == [stored.conversationID, ConversationID(rawValue: 1)])
    }

    @Test("014 back-fills the people my stored mail went to, not those who wrote to me, so the screener knows them")
    func correspondentBackfill() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-014-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let (path, pool) = try Self.database(migratedThrough: 13, in: dir)
        try await pool.write { db in
            try Self.insertAccountAndConversation(db)
            try db.execute(
                sql: """
                    INSERT INTO message (id, account_id, gmail_id, thread_id, conversation_id, internal_date_ms,
                        from_address, is_from_me)
                    VALUES (1, 1, 'mine', 't1', 1, 1, 'me@example.org', 1),
                           (2, 1, 'theirs', 't2', 1, 2, 'eve@example.net', 0)
                    """)
            try db.execute(
                sql: """
                    INSERT INTO message_participant (message_id, role, address_normalized, address)
                    VALUES (1, 'from', 'me@example.org', 'me@example.org'),
                           (1, 'to', 'bob@example.com', 'Bob@example.com'),
                           (1, 'cc', 'carol@example.net', 'carol@example.net'),
                           (1, 'bcc', 'dave@example.org', 'dave@example.org'),
                           (2, 'from', 'eve@example.net', 'eve@example.net'),
                           (2, 'cc', 'frank@example.net', 'frank@example.net')
                    """)
        }
        try pool.close()
        let store = try ChatmailStore(path: path.path, clock: { 10 })  // applies 014 on open
        let known = try store.correspondents(
            among: [
                "bob@example.com", "carol@example.net", "dave@example.org", "eve@example.net", "frank@example.net",
            ],
            in: AccountID(rawValue: 1))
        #expect(known == ["bob@example.com", "carol@example.net", "dave@example.org"])
    }

    @Test("015 gives the messages of a 014 database their subject base, by the store's rule, when it opens")
    func subjectBaseBackfill() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-015-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let (path, pool) = try Self.database(migratedThrough: 14, in: dir)
        try await pool.write { db in
            try Self.insertAccountAndConversation(db)
            try db.execute(
                sql: """
                    INSERT INTO message (id, account_id, gmail_id, thread_id, conversation_id, internal_date_ms,
                        from_address, subject)
                    VALUES (1, 1, 'first', 't1', 1, 1, 'eve@example.net', 'Plan'),
                           (2, 1, 'second', 't1', 1, 2, 'eve@example.net', 'Re: RE: Plan')
                    """)
        }
        try pool.close()
        let store = try ChatmailStore(path: path.path, clock: { 10 }, subjectBase: { "base of " + $0 })  // applies 015
        let transcript = try #require(try store.transcript(of: ConversationID(rawValue: 1), limit: 10))
        #expect(transcript.messages.map(\.subjectBase) == ["base of Plan", "base of Re: RE: Plan"])
        // Filled once: a later open finds nothing to fill, and a store with another rule changes nothing.
        _ = try ChatmailStore(path: path.path, clock: { 10 }, subjectBase: { _ in "other" })
        let again = try #require(try store.transcript(of: ConversationID(rawValue: 1), limit: 10))
        #expect(again.messages.map(\.subjectBase) == ["base of Plan", "base of Re: RE: Plan"])
    }

    @Test("016 keeps a 015 database's accounts and mail as Gmail API accounts, with no IMAP state")
    func providerDefaultsToGmail() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-016-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let (path, pool) = try Self.database(migratedThrough: 15, in: dir)
        try await pool.write { db in
            try Self.insertAccountAndConversation(db)
            try db.execute(
                sql: """
                    INSERT INTO message (id, account_id, gmail_id, thread_id, conversation_id, internal_date_ms,
                        from_address, subject, subject_base)
                    VALUES (1, 1, 'first', 't1', 1, 1, 'eve@example.net', 'Plan', 'plan')
                    """)
        }
        try pool.close()
        let store = try ChatmailStore(path: path.path, clock: { 10 }, subjectBase: { $0 })  // applies 016
        #expect(try store.accounts().map(\.provider) == [.gmail])
        #expect(try store.imapSettings(of: AccountID(rawValue: 1)) == nil)
        let digest = try store.read { db in
            try Row.fetchOne(db, sql: "SELECT content_digest, imap_internal_date_ms FROM message WHERE id = 1")
        }
        #expect(digest?["content_digest"] as String? == nil && digest?["imap_internal_date_ms"] as Int64? == nil)
    }

    @Test("a stored message keeps the base its subject has by the store's rule, and a new subject a new base")
    func subjectBaseOnUpsert() async throws {
        try await withTemporaryStore { store, _ in
            let (_, stored) = try store.seed([message("m1", from: alice, subject: "Re: RE: Hello")])
            let conversation = try #require(stored.first?.conversationID)
            #expect(try store.transcript(of: conversation, limit: 5)?.messages.map(\.subjectBase) == ["hello"])
            try store.seed([message("m1", from: alice, subject: "Lunch")])
            #expect(try store.transcript(of: conversation, limit: 5)?.messages.map(\.subjectBase) == ["lunch"])
        }
    }

    /// A database in `directory` with the shipped migrations up to `number` applied, as an older
    /// chatmail left it: the starting point of an upgrade test.
    /// Account 1, `me@example.org`, written with SQL as an older schema holds it.
    static func insertAccount(_ db: Database) throws {
        try db.execute(
            sql:
                "INSERT INTO account (email, email_normalized, created_at_ms) VALUES ('me@example.org', 'me@example.org', 0)"
        )
    }

    /// Account 1 and its conversation 1.
    static func insertAccountAndConversation(_ db: Database) throws {
        try insertAccount(db)
        try db.execute(
            sql: "INSERT INTO conversation (account_id, participant_hash, created_at_ms) VALUES (1, ?, 0)",
            arguments: [String(repeating: "a", count: 64)])
    }

    static func database(migratedThrough number: Int, in directory: URL) throws -> (URL, DatabasePool) {
        let migrations = directory.appendingPathComponent("migrations")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        for migration in try SchemaMigrator().migrations where migration.number <= number {
            try migration.sql.write(
                to: migrations.appendingPathComponent(migration.identifier + ".sql"), atomically: true, encoding: .utf8)
        }
        let path = directory.appendingPathComponent("chatmail.sqlite")
        let pool = try DatabasePool(path: path.path)
        try SchemaMigrator(directory: migrations).migrate(pool)
        return (path, pool)
    }

    static func schemaDump(_ path: URL) throws -> [String] {
        try DatabaseQueue(path: path.path).read { db in
            try String.fetchAll(
                db, sql: "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_master ORDER BY name")
                + String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
        }
    }
}
