import ChatmailStore
import Foundation
import Testing

extension CLIFixture {
    /// Adds one message from `from` to me and `cc`, which makes or extends the conversation with them.
    func deliver(_ id: String, from: EmailAddress, cc: [EmailAddress], at dateMs: Int64) throws {
        try store.write { tx in
            let account = try tx.ensureAccount(email: "me@example.org")
            let result = try tx.upsert(
                MessageInput(
                    gmailID: id, threadID: "t-\(id)", internalDateMs: dateMs, from: from,
                    to: [EmailAddress(address: "me@example.org", name: "Me")], cc: cc, subject: "Subject \(id)",
                    bodyText: "Text of \(id)", labelIDs: ["INBOX"]),
                in: account)
            try tx.recomputeRollups(for: Set(result.affectedConversations))
        }
    }

    /// Each conversation's id by title, from `conversations --all --json`.
    func conversationIDs() async throws -> [String: Int] {
        let rows = try #require(try await run(["conversations", "--all", "--json"]).json() as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: rows.compactMap { row in
                (row["title"] as? String).flatMap { title in (row["id"] as? Int).map { (title, $0) } }
            })
    }

    /// The title of the conversation `show --json` opened.
    func shownTitle(_ result: RunResult) throws -> String? {
        let object = try #require(try result.json() as? [String: Any], "\(result.stderr)")
        return (object["conversation"] as? [String: Any])?["title"] as? String
    }
}

@Suite struct PersonCommandTests {
    static let alan = EmailAddress(address: "alan@example.org", name: "Alan Turing")
    static let bob = EmailAddress(address: "bob@example.net", name: "Bob Smith")

    @Test(
        "several people are listed as people, with how many conversations each is in, by every command that takes one")
    func severalPeople() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        for arguments in [
            ["export", "al"], ["search", "subject", "--person", "al"], ["archive", "al"], ["show", "al", "--group"],
        ] {
            let result = try await fixture.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.dropFirst() == [
                    "Alice Liddell <Alice@Example.com> (2 conversations)",
                    "Alan Turing <alan@example.org> (1 conversation)",
                ], "\(arguments)")
        }
        // The ambiguous archive changed nothing.
        #expect((try await fixture.run(["conversations", "--archived", "--json"]).json() as? [Any])?.isEmpty == true)
    }

    @Test(
        "one person's one-to-one chat wins over their group, and one line on stderr names the group and how to pick it")
    func oneToOneWithNote() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let group = try #require(try await fixture.conversationIDs()["Alice, Bob"])
        let note =
            "chatmail: using the one-to-one chat with Alice Liddell, who is also in 1 group conversation: "
            + "\"Alice, Bob\" (id:\(group)). For that one, add --group or give its id instead of \"alice\".\n"
        let shown = try await fixture.run(["show", "alice", "--json"])
        #expect(shown.status == 0)
        #expect(try fixture.shownTitle(shown) == "Alice Liddell")
        #expect(shown.stderr == note)
        let exported = try await fixture.run(["export", "alice"])
        #expect(exported.stdout.contains("title: \"Alice Liddell\"") && exported.stderr == note)
        // A one-to-one chat without groups, a group named by its title and an id are exact: no note.
        for person in ["alan", "Alice, Bob", "id:\(group)"] {
            let result = try await fixture.run(["show", person, "--json"])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(person): \(result.stderr)")
        }
    }

    @Test("--group and id:N (or #N) open the group, for show, export, search --person and the actions")
    func pickTheGroup() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let group = try #require(try await fixture.conversationIDs()["Alice, Bob"])
        for arguments in [
            ["show", "alice", "--group"], ["show", "id:\(group)"], ["show", "#\(group)"], ["show", "ID:\(group)"],
        ] {
            let result = try await fixture.run(arguments + ["--json"])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
            #expect(try fixture.shownTitle(result) == "Alice, Bob", "\(arguments)")
        }
        #expect(
            try await fixture.run(["export", "alice@example.com", "--group"]).stdout.contains("title: \"Alice, Bob\""))
        let hits = try #require(
            try await fixture.run(["search", "subject", "--person", "alice", "--group", "--json"]).json()
                as? [[String: Any]])
        #expect(hits.compactMap { $0["gmailId"] as? String } == ["g1"])

        func archived() async throws -> [String] {
            let rows = try #require(
                try await fixture.run(["conversations", "--archived", "--json"]).json() as? [[String: Any]])
            return rows.compactMap { $0["title"] as? String }.sorted()
        }
        let chat = try await fixture.run(["archive", "alice"])
        #expect(chat.status == 0 && chat.stderr.contains("add --group or give its id"))
        #expect(try await archived() == ["Alice Liddell"])
        #expect(try await fixture.run(["archive", "alice", "--group"]).status == 0)
        #expect(try await archived() == ["Alice Liddell", "Alice, Bob"])
        #expect(try await fixture.run(["unarchive", "id:\(group)"]).status == 0)
        #expect(try await archived() == ["Alice Liddell"])
    }

    @Test("--group for someone in no group exits 2 and says so; --group without a person is a usage error")
    func noGroup() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["show", "alan", "--group"])
        #expect(result.status == 2)
        #expect(
            result.stderr == "chatmail: \"alan\" is Alan Turing <alan@example.org>, who is in no group conversation. "
                + "Leave out --group to use the one-to-one chat.\n")
        for arguments in [
            ["search", "lunch", "--group"], ["archive", "--message", "a1", "--group"],
            ["export", "--all", "-o", "x", "--group"],
        ] {
            #expect(try await fixture.run(arguments).status == 64, "\(arguments)")
        }
        #expect(try await fixture.run(["show", "id:999"]).status == 2)
        #expect(try await fixture.run(["show", "id:lunch"]).status == 2)
    }

    @Test("a person in several groups and no one-to-one chat: the groups are listed with their ids, exit 2")
    func severalGroups() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        try fixture.deliver("ab1", from: Self.bob, cc: [Self.alan], at: CLIFixture.now - 60_000)
        let ids = try await fixture.conversationIDs()
        let (alanBob, aliceBob) = try (#require(ids["Alan, Bob"]), #require(ids["Alice, Bob"]))
        for arguments in [["show", "bob"], ["show", "bob", "--group"], ["archive", "bob@example.net"]] {
            let result = try await fixture.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(
                result.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) } == [
                    "chatmail: \"\(arguments[1])\" matches 2 conversations; give the conversation's id instead (as listed: id:N):",
                    "id:\(alanBob) Alan, Bob <alan@example.org, bob@example.net> (1 message)",
                    "id:\(aliceBob) Alice, Bob <Alice@Example.com, bob@example.net> (1 message)",
                ], "\(arguments)")
        }
        #expect(try fixture.shownTitle(try await fixture.run(["show", "id:\(alanBob)", "--json"])) == "Alan, Bob")
        // Alan now has a group too: his one-to-one chat still wins, with the note.
        let alan = try await fixture.run(["show", "alan", "--json"])
        #expect(try fixture.shownTitle(alan) == "Alan Turing" && alan.stderr.contains("\"Alan, Bob\" (id:\(alanBob))"))
    }

    @Test("echoed input is one short, terminal-safe line, however long or strange the input")
    func echoTruncated() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let long = String(repeating: "x", count: 10_000)
        for arguments in [
            ["show", long], ["export", long], ["search", "lunch", "--person", long], ["archive", long],
        ] {
            let result = try await fixture.run(arguments)
            #expect(result.status == 2, "\(arguments[0])")
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(
                result.stderr.contains("No conversation matches \"\(String(repeating: "x", count: 59))…\"."),
                "\(result.stderr)")
            #expect(result.stderr.count < 200)
        }
        let hostile = try await fixture.run(["show", "zz\u{1B}]0;pwned\u{07}\nsecond line"])
        #expect(hostile.status == 2)
        #expect(hostile.stderr.split(separator: "\n").count == 1 && !hostile.stderr.contains("\u{1B}"))
        let message = try await fixture.run(["archive", "--message", long])
        #expect(message.status == 64)
        #expect(message.stderr.contains("…") && !message.stderr.contains(String(repeating: "x", count: 61)))
    }

    @Test(
        "numeric options take a negative number as their value and reject it clearly",
        arguments: [
            (["show", "alice", "--limit", "-1"], "--limit must be at least 1."),
            (["show", "alice", "--limit=-1"], "--limit must be at least 1."),
            (["conversations", "--limit", "-1"], "--limit must be at least 1."),
            (["search", "lunch", "--limit", "-5"], "--limit must be at least 1."),
            (["conversations", "--width", "-1"], "--width must be at least 20."),
            (["--width", "-3", "conversations"], "--width must be at least 20."),
            (["login", "--timeout", "-1"], "--timeout must be at least 1 second."),
        ])
    func negativeValues(arguments: [String], message: String) async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains("Missing value"))
    }

    @Test("--limit N and --limit=N both still work")
    func limitForms() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        for arguments in [["conversations", "--limit", "1", "--json"], ["conversations", "--limit=1", "--json"]] {
            #expect((try await fixture.run(arguments).json() as? [Any])?.count == 1, "\(arguments)")
        }
        let transcript = try #require(
            try await fixture.run(["show", "alice", "--limit=2", "--json", "--width", "40"]).json() as? [String: Any])
        #expect((transcript["messages"] as? [Any])?.count == 2)
    }
}
