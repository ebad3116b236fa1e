import ChatmailStore
import ChatmailSync
import Foundation
import GRDB
import MailText
import Testing

/// A store in a fresh temporary directory, with a pinned clock so two imports can be compared byte for byte.
func withImportStore<T>(_ body: (ChatmailStore, URL, AccountID) async throws -> T) async throws -> T {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-import-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
    let path = dir.appendingPathComponent("chatmail.sqlite")
    let store = try ChatmailStore(path: path.path, clock: { 1_700_000_000_000 }, subjectBase: ReplySubject.topicBase)
    let account = try await store.write { tx in
        let account = try tx.ensureAccount(email: "me@example.org")
        try tx.addAliases([AliasInput(address: EmailAddress(address: "me@example.org"), isPrimary: true)], to: account)
        return account
    }
    return try await body(store, path, account)
}

/// Every table of the data model as sorted text rows: two databases with equal dumps hold the same data.
func canonicalDump(_ path: URL) throws -> [String] {
    try DatabaseQueue(path: path.path).read { db in
        var lines: [String] = []
        for table in [
            "account", "account_alias", "label", "conversation", "conversation_participant", "message",
            "message_label", "message_participant", "attachment", "pending_action", "abandoned_message",
        ] {
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(table)")
            lines += rows.map { "\(table): \($0.description)" }.sorted()
        }
        lines += try String.fetchAll(
            db, sql: "SELECT rowid || ' ' || subject FROM message_fts WHERE message_fts MATCH 'the' ORDER BY rowid")
        return lines
    }
}

/// Compares two dumps, reporting the first difference instead of both dumps in full.
func expectSameDump(_ lhs: [String], _ rhs: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let difference = zip(lhs, rhs).first { $0 != $1 }
    #expect(lhs.count == rhs.count, "row counts differ: \(lhs.count) vs \(rhs.count)", sourceLocation: sourceLocation)
    #expect(difference == nil, "first difference: \(String(describing: difference))", sourceLocation: sourceLocation)
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let corpusRoot = repositoryRoot.appendingPathComponent("Fixtures/corpus")

@Suite struct MailboxImporterTests {
    @Test("importing the whole corpus twice changes nothing, and a fresh import gives the same database")
    func corpusTwice() async throws {
        let messages = try MailboxSource.read(corpusRoot.path)
        #expect(messages.count > 2000)
        let first = try await withImportStore { store, path, account in
            let report = try await MailboxImporter(store: store).run(messages, into: account)
            #expect(report.inserted + report.duplicates + report.skipped.count == messages.count)
            #expect(report.skipped.count <= 5, "\(report.skipped)")
            let before = try canonicalDump(path)
            let again = try await MailboxImporter(store: store).run(messages, into: account)
            #expect(again.inserted == 0 && again.relabelled == 0)
            #expect(again.unchanged == report.inserted)
            try expectSameDump(try canonicalDump(path), before)
            try ParticipantRuleCheck.verify(path, aliases: ["me@example.org"])
            return before
        }
        let second = try await withImportStore { store, path, account in
            _ = try await MailboxImporter(store: store).run(messages, into: account)
            return try canonicalDump(path)
        }
        try expectSameDump(first, second)
    }

    @Test("a Takeout mbox: X-Gmail-Labels become labels, >From is unescaped, the separator dates a Date-less message")
    func takeout() async throws {
        let messages = try MailboxSource.read(
            repositoryRoot.appendingPathComponent("Fixtures/import/takeout.mbox").path)
        #expect(messages.count == 3)
        try await withImportStore { store, _, account in
            let report = try await MailboxImporter(store: store).run(messages, into: account)
            #expect(report.inserted == 3)
            let all = try store.conversations(in: account.self, filter: .init(visibility: .all))
            let alice = try #require(all.first { $0.title == "Alice" })
            #expect(alice.messageCount == 2)
            #expect(alice.unreadCount == 1)
            #expect(!alice.isArchived)
            let transcript = try #require(try store.transcript(of: alice.id, limit: 10))
            #expect(transcript.messages.map(\.isFromMe) == [false, true])
            #expect(transcript.messages[0].labels == ["CATEGORY_PERSONAL", "INBOX", "UNREAD", "Work"])
            #expect(transcript.messages[0].text.contains("From the archives"))
            #expect(!transcript.messages[0].text.contains(">From"))
            let shop = try #require(all.first { $0.title == "Shop" })
            #expect(shop.isArchived && shop.isNewsletter)
            #expect(shop.lastMessageAtMs == 1_741_078_800_000)  // Wed 4 Mar 2025 09:00 UTC, from the separator
        }
    }

    @Test("a newer export of the same message with other labels updates its labels, never duplicates it")
    func relabel() async throws {
        let path = repositoryRoot.appendingPathComponent("Fixtures/import/takeout.mbox").path
        let messages = try MailboxSource.read(path)
        try await withImportStore { store, dbPath, account in
            _ = try await MailboxImporter(store: store).run(messages, into: account)
            var newer = messages
            let original = String(decoding: newer[0].bytes, as: UTF8.self)
            newer[0].bytes = Array(
                original.replacingOccurrences(of: "X-Gmail-Labels: Inbox,Unread,", with: "X-Gmail-Labels: ").utf8)
            let report = try await MailboxImporter(store: store).run(newer, into: account)
            #expect(report.inserted == 0 && report.relabelled == 1 && report.unchanged == 2)
            let alice = try #require(
                try store.conversations(in: account, filter: .init(visibility: .all)).first { $0.title == "Alice" })
            #expect(alice.messageCount == 2)
            #expect(alice.unreadCount == 0)
            #expect(alice.isArchived)  // INBOX left her message; only all-from-me conversations stay visible
            _ = dbPath
        }
    }

    @Test("missing paths and empty directories are reported, not imported")
    func badPaths() throws {
        #expect(throws: MailboxSource.Failure.notFound("/nonexistent/chatmail")) {
            try MailboxSource.read("/nonexistent/chatmail")
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }  // best-effort cleanup
        #expect(throws: MailboxSource.Failure.noMessages(empty.path)) { try MailboxSource.read(empty.path) }
    }
}

@Suite struct MailboxSourceValidationTests {
    static let passwd = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
    static let message =
        "From: Alice <alice@example.com>\nTo: me@example.org\nSubject: hi\nDate: Tue, 4 Mar 2025 10:00:00 +0000\n\nHello.\n"

    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test(
        "a file given by itself that is not mail is refused with the reason, whether it looks like an .eml or an mbox")
    func singleFileRefused() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let file = dir.appendingPathComponent("passwd")
        try Data(Self.passwd.utf8).write(to: file)
        #expect(throws: MailboxSource.Failure.notAMessage(file.path, .noMessageHeaderFields)) {
            try MailboxSource.read(file.path)
        }
        let mbox = dir.appendingPathComponent("letter.mbox")
        try Data("From the desk of the editor\nplease read this\n".utf8).write(to: mbox)
        #expect(throws: MailboxSource.Failure.notAMessage(mbox.path, .noHeaderFields)) {
            try MailboxSource.read(mbox.path)
        }
    }

    @Test("in a directory, a file that is not mail is skipped by name and the rest is imported")
    func directorySkips() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        try Data(Self.message.utf8).write(to: dir.appendingPathComponent("a.eml"))
        try Data(Self.passwd.utf8).write(to: dir.appendingPathComponent("b.eml"))
        let messages = try MailboxSource.read(dir.path)
        #expect(messages.map(\.origin) == ["a.eml", "b.eml"])
        try await withImportStore { store, _, account in
            let report = try await MailboxImporter(store: store).run(messages, into: account)
            #expect(report.inserted == 1)
            #expect(report.skipped.map(\.origin) == ["b.eml"])
            #expect(
                report.skipped.map(\.reason) == [
                    "not an email message: \(MessageValidation.Rejection.noMessageHeaderFields)"
                ])
        }
    }
}

/// Checks, independently of the store's own code path, that every message sits in the conversation the
/// identity rule gives it: its list's when it has a List-Id; for my post without one, the list of a
/// posting address it was sent to; otherwise its participant set's (From ∪ To ∪ Cc minus the account's
/// aliases, by identity key).
enum ParticipantRuleCheck {
    static func verify(_ path: URL, aliases: Set<String>) throws {
        try DatabaseQueue(path: path.path).read { db in
            var messageSets: [Int64: Set<String>] = [:]
            var conversationOf: [Int64: Int64] = [:]
            var listOf: [Int64: String] = [:]
            var postingLists: [String: Set<String>] = [:]
            var ownPosts: Set<Int64> = []
            for row in try Row.fetchAll(
                db, sql: "SELECT id, conversation_id, list_id, list_post_address, is_from_me FROM message")
            {
                conversationOf[row["id"]] = row["conversation_id"]
                messageSets[row["id"]] = []
                if let list: String = row["list_id"] {
                    listOf[row["id"]] = list
                    if let post: String = row["list_post_address"] {
                        postingLists[EmailNormalizer.identityKey(for: post), default: []].insert(list)
                    }
                } else if row["is_from_me"] as Bool {
                    ownPosts.insert(row["id"])
                }
            }
            var recipients: [Int64: Set<String>] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT message_id, role, address FROM message_participant WHERE role IN ('from', 'to', 'cc')")
            {
                let key = EmailNormalizer.identityKey(for: row["address"])
                if !aliases.contains(key) && !key.isEmpty { messageSets[row["message_id"], default: []].insert(key) }
                if row["role"] as String != "from" { recipients[row["message_id"], default: []].insert(key) }
            }
            var conversationSets: [Int64: Set<String>] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT conversation_id, address_normalized FROM conversation_participant")
            {
                conversationSets[row["conversation_id"], default: []].insert(row["address_normalized"])
            }
            var hashes: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, participant_hash FROM conversation") {
                hashes[row["id"]] = row["participant_hash"]
            }
            var mismatches = 0
            for (message, people) in messageSets {
                let conversation = conversationOf[message]!
                var lists: Set<String> = []
                if let list = listOf[message] {
                    lists = [list]
                } else if ownPosts.contains(message) {
                    lists = recipients[message, default: []].reduce(into: []) { $0.formUnion(postingLists[$1] ?? []) }
                }
                if !lists.isEmpty {
                    // Several lists can match my post; which one wins is ordered by headers this check lacks.
                    if !lists.map({ ListConversationKey.hash(listID: $0) }).contains(hashes[conversation]) {
                        mismatches += 1
                    }
                    continue
                }
                if conversationSets[conversation, default: []] != people { mismatches += 1 }
                if hashes[conversation] != ParticipantSet.hash(ofNormalizedAddresses: people) { mismatches += 1 }
            }
            #expect(mismatches == 0)
        }
    }
}
