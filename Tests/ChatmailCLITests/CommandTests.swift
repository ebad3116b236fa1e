import ArgumentParser
import ChatmailStore
import Foundation
import GRDB
import TerminalUI
import Testing

@testable import ChatmailCLI

@Suite struct ConversationsCommandTests {
    @Test("--json has every documented key, newest first")
    func jsonShape() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["conversations", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try result.json() as? [[String: Any]])
        #expect(rows.count == 4)
        for row in rows {
            #expect(
                Set(row.keys) == [
                    "id", "participants", "title", "lastMessageAt", "snippet", "messageCount", "unreadCount",
                    "archived", "isNewsletter", "list",
                ])
            #expect(row["list"] is NSNull)
            let participants = try #require(row["participants"] as? [[String: Any]])
            #expect(participants.allSatisfy { Set($0.keys) == ["address", "name"] })
        }
        #expect(rows.map { $0["title"] as? String } == ["Alice Liddell", "Alan Turing", "Alice, Bob", "Shop News"])
        #expect(rows[0]["unreadCount"] as? Int == 1)
        #expect(rows[0]["lastMessageAt"] as? String == "2025-03-05T11:00:00+00:00")
        #expect(rows[3]["isNewsletter"] as? Bool == true)
        #expect((rows[0]["participants"] as? [[String: Any]])?.first?["address"] as? String == "Alice@Example.com")
    }

    @Test("plain output is one row per conversation with relative times")
    func plain() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["conversations", "--color", "never"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[0].hasPrefix("● Alice Liddell (1)") && lines[0].hasSuffix("11:00"))
        #expect(lines[1].contains("Alan Turing") && lines[1].hasSuffix("Yesterday"))
        #expect(lines[3].contains("[news]"))
        #expect(!result.stdout.contains("\u{1B}"))
    }

    @Test("colour follows --color and NO_COLOR")
    func colour() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        #expect(try await fixture.run(["conversations", "--color", "always"]).stdout.contains("\u{1B}["))
        #expect(!(try await fixture.run(["conversations"]).stdout.contains("\u{1B}[")))  // auto, and stdout is a pipe
        #expect(
            !(try await fixture.run(["conversations", "--color", "auto"], environment: ["NO_COLOR": "1"]).stdout
                .contains("\u{1B}[")))
    }
}

@Suite struct ShowCommandTests {
    @Test("--json has every documented key, messages oldest first")
    func jsonShape() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["show", "alice@example.com", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(Set(object.keys) == ["conversation", "messages"])
        let conversation = try #require(object["conversation"] as? [String: Any])
        #expect(
            Set(conversation.keys) == [
                "id", "participants", "title", "lastMessageAt", "snippet", "messageCount", "unreadCount", "archived",
                "isNewsletter", "list",
            ])
        #expect(conversation["title"] as? String == "Alice Liddell")
        let messages = try #require(object["messages"] as? [[String: Any]])
        #expect(messages.map { $0["gmailId"] as? String } == ["a1", "a2", "a3"])
        for message in messages {
            #expect(
                Set(message.keys) == [
                    "id", "gmailId", "threadId", "from", "isFromMe", "date", "subject", "text", "labels", "attachments",
                    "outbox",
                ])
            #expect(message["outbox"] is NSNull, "a synced message is not in the outbox")
            #expect(Set((message["from"] as? [String: Any] ?? [:]).keys) == ["address", "name"])
        }
        #expect(messages[0]["date"] as? String == "2025-03-02T12:00:00+00:00")
        #expect(messages[1]["isFromMe"] as? Bool == true)
        #expect(messages[2]["labels"] as? [String] == ["INBOX", "UNREAD"])
        let attachment = try #require((messages[2]["attachments"] as? [[String: Any]])?.first)
        #expect(Set(attachment.keys) == ["filename", "mimeType", "size"])
        #expect(attachment["size"] as? Int == 20_480)
    }

    @Test("--no-pager is accepted (output never pages when piped)")
    func noPager() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["show", "alice liddell", "--no-pager"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Lunch on Friday?"))
    }

    @Test("--limit keeps the newest messages")
    func limit() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let object = try #require(
            try await fixture.run(["show", "Alice Liddell", "--json", "--limit", "2"]).json() as? [String: Any])
        #expect((object["messages"] as? [[String: Any]])?.map { $0["gmailId"] as? String } == ["a2", "a3"])
    }

    @Test(
        "resolves an exact address, a name in any case, a unique prefix, then fuzzily",
        arguments: [
            "alice@example.com", "ALICE@EXAMPLE.COM", "alice liddell", "Lidd", "alic",
            "lidell", "iddel", "ALIСE LIDDEL",  // a typo, a substring, a Cyrillic С plus a typo: 2 edits in 12
        ])
    func resolves(person: String) async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["show", person, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try result.json() as? [String: Any])
        #expect((object["conversation"] as? [String: Any])?["title"] as? String == "Alice Liddell")
    }

    @Test("actions never act on a fuzzy match: a typo shows the chat but cannot archive it")
    func actionsSkipFuzzy() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let archived = try await fixture.run(["archive", "lidell"])
        #expect(archived.status == 2, "\(archived.stdout)")
        let pending = try await fixture.run(["pending", "--json"])
        #expect((try pending.json() as? [Any])?.isEmpty == true)
        let listed = try await fixture.run(["conversations", "--archived", "--json"])
        #expect((try listed.json() as? [Any])?.isEmpty == true)
        #expect(try await fixture.run(["archive", "liddell"]).status == 0)  // a real prefix still works
    }

    @Test("an ambiguous prefix exits 2 and lists the people it matches on stderr")
    func ambiguous() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["show", "al"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        let expected =
            "chatmail: \"al\" matches 2 people; give more of the name, the full address, "
            + "or a conversation id (id:N from `chatmail conversations --json`):"
        #expect(lines.first.map(String.init) == expected)
        #expect(
            lines.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) } == [
                "Alice Liddell <Alice@Example.com> (2 conversations)",
                "Alan Turing <alan@example.org> (1 conversation)",
            ])
    }

    @Test("an unknown person exits 2 with one line")
    func unknown() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["show", "zorro"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("No conversation matches \"zorro\""))
    }

    @Test("the plain transcript shows both sides, the unread divider and attachments")
    func plain() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["show", "alice liddell", "--width", "60"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.allSatisfy { $0.count <= 60 })
        #expect(lines.contains { $0.hasPrefix("Alice Liddell · ") })
        #expect(lines.contains { $0.hasSuffix("You · 12:10") })
        #expect(lines.contains { $0.trimmingCharacters(in: .whitespaces) == "── 1 unread ──" })
        #expect(result.stdout.contains("map.png (20 KB)"))
    }
}

@Suite struct StatusAndErrorTests {
    @Test("status --json reports counts")
    func statusJSON() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["status", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(
            Set(object.keys) == [
                "account", "dataPath", "demo", "historyId", "lastSyncAt", "messageCount", "conversationCount",
                "archivedConversationCount", "unreadConversationCount", "pendingActions", "abandonedMessages",
                "provider", "server",
            ])
        #expect(object["account"] as? String == "me@example.org")
        #expect(object["provider"] as? String == "gmail")
        #expect(object["dataPath"] as? String == fixture.home.path)
        #expect(object["demo"] as? Bool == false)
        #expect(object["historyId"] is NSNull)
        #expect(object["messageCount"] as? Int == 6)
        #expect(object["conversationCount"] as? Int == 4)
        #expect(object["unreadConversationCount"] as? Int == 2)
    }

    @Test("without an account, read commands exit 3, say what to do, and create nothing")
    func notLoggedIn() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-empty-\(UUID().uuidString)")
        for command in [["conversations"], ["show", "alice"], ["status"]] {
            let result = try await CLIFixture.run(["--home", empty.path] + command)
            #expect(result.status == 3)
            #expect(
                result.stderr
                    == "chatmail: No account is set up yet. Run `chatmail login` (Gmail) or `chatmail login --imap ADDRESS --host HOST` first.\n"
            )
        }
        #expect(!FileManager.default.fileExists(atPath: empty.path))
    }

    @Test("CHATMAIL_HOME is used when --home is absent")
    func homeFromEnvironment() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await CLIFixture.run(["status", "--json"], environment: ["CHATMAIL_HOME": fixture.home.path])
        #expect(result.status == 0)
    }

    @Test("a database from a newer chatmail exits 4 with one line")
    func newerDatabase() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        try await DatabaseQueue(path: fixture.home.appendingPathComponent("chatmail.sqlite").path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('999_future')")
        }
        let result = try await fixture.run(["conversations"])
        #expect(result.status == 4)
        #expect(
            result.stderr == "chatmail: The database was created by a newer chatmail. Upgrade chatmail to use it.\n")
    }

    @Test("a file that is not a database is a damaged database: exit 5 with one line naming it")
    func notADatabase() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-garbage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }  // best-effort cleanup
        try Data(repeating: 0x42, count: 8192).write(to: home.appendingPathComponent("chatmail.sqlite"))
        let result = try await CLIFixture.run(["conversations", "--home", home.path])
        #expect(result.status == 5)
        #expect(
            result.stderr.hasPrefix(
                "chatmail: The database at \(home.appendingPathComponent("chatmail.sqlite").path) is damaged: file is not a database;"
            ))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test(
        "help and version exit 0 and print to stdout",
        arguments: [["--help"], [], ["show", "--help"], ["--version"], ["help", "import"]])
    func help(arguments: [String]) async throws {
        let result = try await CLIFixture.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        #expect(!result.stdout.contains("CommandError"))
    }

    @Test(
        "usage errors exit 64",
        arguments: [
            ["show", "x", "--limit", "0"], ["conversations", "--color", "sometimes"],
            ["conversations", "--archived", "--all"],
        ])
    func usage(arguments: [String]) async throws {
        let result = try await CLIFixture.run(arguments)
        #expect(result.status == 64)
    }
}
