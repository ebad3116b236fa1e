import ChatmailStore
import Foundation
import GRDB
import GmailModel
import Testing

@Suite struct SearchCommandTests {
    @Test("results name the sender, the conversation and the command that opens it; matches are marked when piped")
    func plain() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["search", "lunch"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                Alice Liddell · Sun 2 Mar 2025 12:00
                  chatmail show Alice@Example.com
                  Subject: Subject a1
                  **Lunch** on Friday?

                """)
        let none = try await fixture.run(["search", "zebra"])
        #expect(none.status == 0 && none.stdout == "No messages match.\n")
    }

    @Test("colour highlights matches with the program's own bold; NO_COLOR turns it off")
    func colour() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let coloured = try await fixture.run(["search", "lunch", "--color", "always"])
        #expect(coloured.stdout.contains("\u{1B}[1mLunch\u{1B}[0m"))
        #expect(!coloured.stdout.contains("**"))
        let plain = try await fixture.run(["search", "lunch", "--color", "auto"], environment: ["NO_COLOR": "1"])
        #expect(!plain.stdout.contains("\u{1B}") && plain.stdout.contains("**Lunch**"))
    }

    @Test("--json: ranked hits with the conversation, the open command and highlights")
    func json() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["search", "subject", "--json", "--limit", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let hits = try #require(try result.json() as? [[String: Any]])
        #expect(hits.count == 2)
        for hit in hits {
            #expect(
                Set(hit.keys) == [
                    "conversation", "open", "messageId", "gmailId", "from", "isFromMe", "date", "subject", "snippet",
                    "highlights", "score",
                ])
            #expect((hit["highlights"] as? [String])?.contains("Subject") == true)
        }
        let scores = hits.compactMap { $0["score"] as? Double }
        #expect(scores == scores.sorted())
        // A group is opened by its id: titles are first names and need not be unique.
        let group = try await fixture.run(["search", "group", "--json"])
        let hit = try #require((try group.json() as? [[String: Any]])?.first)
        let id = try #require((hit["conversation"] as? [String: Any])?["id"] as? Int)
        #expect(hit["open"] as? String == "chatmail show id:\(id)")
        let opened = try await fixture.run(["show", "id:\(id)", "--json"])  // the command really opens it
        #expect(
            ((try opened.json() as? [String: Any])?["conversation"] as? [String: Any])?["title"] as? String
                == "Alice, Bob")
    }

    @Test("--person keeps one conversation; an unknown or ambiguous person exits 2")
    func person() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let all = try #require(
            try await fixture.run(["search", "subject", "--json", "--limit", "50"]).json() as? [[String: Any]])
        #expect(all.count == 6)
        let alices = try #require(
            try await fixture.run(["search", "subject", "--person", "alice@example.com", "--json"]).json()
                as? [[String: Any]])
        #expect(Set(alices.compactMap { $0["gmailId"] as? String }) == ["a1", "a2", "a3"])
        #expect(try await fixture.run(["search", "subject", "--person", "nobody"]).status == 2)
        #expect(try await fixture.run(["search", "subject", "--person", "al"]).status == 2)
    }

    @Test("a bad FTS5 query exits 64 with one clear line, never an SQLite error; plain punctuation is not an error")
    func badQuery() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        for query in ["\"unterminated", "lunch AND", "(friday"] {
            let result = try await fixture.run(["search", query])
            #expect(result.status == 64, "\(query)")
            #expect(result.stderr.hasPrefix("chatmail: The search query is not valid"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(!result.stderr.lowercased().contains("sqlite"))
        }
        for query in ["don't", "e-mail", "10:30", "C++", "a.b", "-", "*"] {
            let result = try await fixture.run(["search", "--", query])
            #expect(result.status == 0, "\(query): \(result.stderr)")
        }
        #expect(try await fixture.run(["search", ""]).status == 64)
        // FTS5's reason quotes the query; a long one is cut like any echoed input.
        let column = try await fixture.run(["search", String(repeating: "y", count: 300) + ":abc OR x"])
        #expect(column.status == 64)
        #expect(column.stderr.contains("(no such column: yyy") && column.stderr.contains("y…)"), "\(column.stderr)")
        #expect(!column.stderr.contains(String(repeating: "y", count: 61)))
    }

    @Test(
        "a word pasted two thousand times finds what the word finds; too many different words exit 64 with the reason")
    func termCaps() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let once = try await fixture.run(["search", "subject", "--json", "--limit", "50"])
        let pasted = try await fixture.run([
            "search", String(repeating: "subject ", count: 2_000), "--json", "--limit", "50",
        ])
        #expect(pasted.status == 0, "\(pasted.stderr)")
        #expect((try once.json() as? [Any])?.count == 6)
        #expect(pasted.stdout == once.stdout)
        let split = try await fixture.run(
            ["search", "--limit", "50", "--json"] + Array(repeating: "Subject", count: 2_000))
        #expect(split.stdout == once.stdout)
        let many = try await fixture.run(["search"] + (1...40).map { "word\($0)" })
        #expect(many.status == 64)
        #expect(
            many.stderr == "chatmail: The search query has too many different words (40; at most 32). "
                + "Keep the few words that single out the messages you want.\n")
        let long = try await fixture.run(["search", String(repeating: "x", count: 5_000)])
        #expect(long.status == 64 && long.stderr.contains("too long (at most 1000 characters)"))
    }

    @Test(
        "the index follows sync: new mail is found, deleted and trashed mail is not, a full re-sync keeps it consistent"
    )
    func followsSync() async throws {
        let emulator = try await EmulatorProcess.start(synthetic: 20)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-search-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let home = dir.appendingPathComponent("home")
        let token = try #require(try await emulator.post("_emulator/issue-tokens")["refresh_token"] as? String)
        try Data(token.utf8).write(to: dir.appendingPathComponent("token"))
        #expect(
            try await CLIFixture.run(
                ["login", "--home", home.path, "--refresh-token-file", dir.appendingPathComponent("token").path],
                environment: emulator.environment
            ).status == 0)
        func deliver(_ word: String) async throws -> String {
            let raw =
                "From: Quinn <quinn@example.net>\r\nTo: me@example.org\r\nSubject: note \(word)\r\nDate: Wed, 5 Mar 2025 10:00:00 +0000\r\n\r\nThe \(word) is here.\r\n"
            let encoded = Base64URL.encode(Array(raw.utf8), padded: true)
            let body = String(
                decoding: try JSONSerialization.data(withJSONObject: ["raw": encoded, "labelIds": ["INBOX"]]),
                as: UTF8.self)
            return try #require(try await emulator.post("_emulator/deliver", json: body)["id"] as? String)
        }
        func sync(_ extra: [String] = []) async throws {
            let result = try await CLIFixture.run(
                ["sync", "--home", home.path] + extra, environment: emulator.environment)
            try #require(result.status == 0, "\(result.stderr)")
        }
        func found(_ word: String) async throws -> [String] {
            let result = try await CLIFixture.run(["search", "--home", home.path, word, "--json"])
            return (try result.json() as? [[String: Any]] ?? []).compactMap { $0["gmailId"] as? String }
        }
        func integrityCheck() throws {
            try DatabaseQueue(path: home.appendingPathComponent("chatmail.sqlite").path).write { db in
                try db.execute(sql: "INSERT INTO message_fts (message_fts, rank) VALUES ('integrity-check', 1)")
            }
        }

        try await sync()
        let kept = try await deliver("aardvark")
        let deleted = try await deliver("bandicoot")
        let trashed = try await deliver("capybara")
        try await sync()
        #expect(try await found("aardvark") == [kept])
        #expect(try await found("bandicoot") == [deleted])
        #expect(try await found("capybara") == [trashed])

        _ = try await emulator.post("_emulator/delete", json: "{\"id\": \"\(deleted)\"}")
        _ = try await emulator.post("_emulator/trash", json: "{\"id\": \"\(trashed)\"}")
        try await sync()
        #expect(try await found("bandicoot") == [])
        #expect(try await found("capybara") == [])
        #expect(try await found("aardvark") == [kept])
        try integrityCheck()

        // A full sync stores every message again (updates through the same path): still one entry each.
        try await sync(["--full"])
        try integrityCheck()
        #expect(try await found("aardvark") == [kept])
        _ = try await emulator.post("_emulator/untrash", json: "{\"id\": \"\(trashed)\"}")
        try await sync()
        #expect(try await found("capybara") == [trashed])
        try integrityCheck()
    }
}
