import ChatmailStore
import Foundation
import Testing

extension CLIFixture {
    /// Stores one message that came through the list `id` (named `name`, posted to at `post`).
    func deliverToList(
        _ gmailID: String, from: EmailAddress, list id: String, name: String, post: EmailAddress, at dateMs: Int64,
        text: String
    ) async throws {
        try await store.write { tx in
            let account = try tx.ensureAccount(email: "me@example.org")
            var input = MessageInput(
                gmailID: gmailID, threadID: "t-\(gmailID)", internalDateMs: dateMs, from: from, to: [post],
                subject: "Subject \(gmailID)", bodyText: text, labelIDs: ["INBOX"])
            input.mailingList = .init(id: id, name: name)
            input.listPosting = .address(post)
            let result = try tx.upsert(input, in: account)
            try tx.recomputeRollups(for: result.affectedConversations)
        }
    }
}

@Suite struct ListShowTests {
    /// The senders of `show --json`'s messages, oldest first (`me` for mine).
    func senders(_ result: RunResult) throws -> [String] {
        let object = try #require(try result.json() as? [String: Any], "\(result.stderr)")
        let messages = try #require(object["messages"] as? [[String: Any]])
        return messages.map { message in
            if message["isFromMe"] as? Bool == true { return "me" }
            return ((message["from"] as? [String: Any])?["address"] as? String) ?? "?"
        }
    }

    @Test("show opens a list by its name, its posting address or its id (brackets and case aside)")
    func showByList() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        for query in [
            "Dev talk", "dev talk", "DEV@lists.example.org", "dev.lists.example.org", "<Dev.Lists.Example.org>",
        ] {
            let result = try await fixture.run(["show", query, "--json"])
            #expect(result.status == 0, "\(query): \(result.stderr)")
            #expect(try fixture.shownTitle(result) == "Dev talk", "\(query)")
            #expect(result.stderr.isEmpty, "\(query): \(result.stderr)")
            #expect(try senders(result) == ["kate@example.net", "me", "lukasz@example.pl"], "\(query)")
        }
    }

    @Test("a search hit in a list opens the list by its posting address")
    func searchOpensList() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        let hits = try #require(try await fixture.run(["search", "arm64", "--json"]).json() as? [[String: Any]])
        #expect(!hits.isEmpty)
        #expect(hits.allSatisfy { $0["open"] as? String == "chatmail show dev@lists.example.org" }, "\(hits)")
    }

    @Test("each bubble of a list names its sender: a header at every change of sender")
    func bubblesNameSenders() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        let result = try await fixture.run(["show", "Dev talk"])
        #expect(result.status == 0, "\(result.stderr)")
        let headers = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.contains(" · ") }
        #expect(headers == ["Kate Bell · 10:00", "You · 10:30", "Lukasz Nowak · 11:30"], "\(result.stdout)")
        // Under the title, the list's address and how many wrote, not every sender by name.
        #expect(
            result.stdout.hasPrefix("Dev talk\nMailing list dev@lists.example.org, 2 people wrote\n"),
            "\(result.stdout)")
    }

    @Test("a person in a conversation of mine opens it; one who only wrote to a list opens the list, said on stderr")
    func personFallsBackToList() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        // Kate wrote to the list too, but she has a one-to-one chat, which wins, and the list is no "group".
        let kate = try await fixture.run(["show", "kate", "--json"])
        #expect(kate.status == 0, "\(kate.stderr)")
        #expect(try fixture.shownTitle(kate) == "Kate Bell")
        #expect(kate.stderr.isEmpty, "\(kate.stderr)")
        let lukasz = try await fixture.run(["show", "lukasz", "--json"])
        #expect(lukasz.status == 0, "\(lukasz.stderr)")
        #expect(try fixture.shownTitle(lukasz) == "Dev talk")
        let id = try #require(try await fixture.conversationIDs()["Dev talk"])
        #expect(
            lukasz.stderr
                == "chatmail: Lukasz Nowak <lukasz@example.pl> is in no conversation of yours but the mailing list "
                + "\"Dev talk\" (id:\(id)); using that.\n")
    }

    @Test("someone who wrote to several lists and nothing else: the lists are listed, exit 2")
    func personOnSeveralLists() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        try await fixture.deliverToList(
            "o1", from: CLIFixture.lukasz, list: "ops.lists.example.org", name: "Ops",
            post: .init(address: "ops@lists.example.org"),
            at: CLIFixture.now - 600_000, text: "Deploying now.")
        let result = try await fixture.run(["show", "lukasz"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let ids = try await fixture.conversationIDs()
        let lines = result.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first?.contains("\"lukasz\" matches 2 conversations") == true, "\(result.stderr)")
        #expect(lines.dropFirst().map { $0.prefix { $0 != " " } } == ["id:\(ids["Ops"]!)", "id:\(ids["Dev talk"]!)"])
    }

    @Test("show <list> --from <person> keeps that person's messages and mine, and counts only those as earlier")
    func fromOnePerson() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        let kate = try await fixture.run(["show", "Dev talk", "--from", "kate", "--json"])
        #expect(kate.status == 0, "\(kate.stderr)")
        #expect(try senders(kate) == ["kate@example.net", "me"])
        let lukasz = try await fixture.run(["show", "Dev talk", "--from", "lukasz@EXAMPLE.pl", "--json"])
        #expect(try senders(lukasz) == ["me", "lukasz@example.pl"])
        let latest = try await fixture.run(["show", "Dev talk", "--from", "Kate Bell", "--limit", "1"])
        #expect(latest.stdout.contains("1 earlier message not shown"), "\(latest.stdout)")
        #expect(!latest.stdout.contains("Lukasz"), "\(latest.stdout)")
    }

    @Test("--from naming nobody in the conversation, or several of its people, exits 2 and says so")
    func fromUnknownOrAmbiguous() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        let nobody = try await fixture.run(["show", "Dev talk", "--from", "alice"])
        #expect(nobody.status == 2)
        #expect(nobody.stderr == "chatmail: Nobody in \"Dev talk\" matches \"alice\" for --from.\n", "\(nobody.stderr)")
        let json = try await fixture.run(["show", "Dev talk", "--from", "alice", "--json"])
        #expect(json.status == 2)
        let error = try #require((try json.json() as? [String: Any])?["error"] as? [String: Any], "\(json.stdout)")
        #expect(error["kind"] as? String == "personNotFound")
        try await fixture.deliverToList(
            "d5", from: EmailAddress(address: "kasia@example.pl", name: "Kasia Lis"), list: "dev.lists.example.org",
            name: "Dev talk", post: CLIFixture.devPost, at: CLIFixture.now - 60_000, text: "Works here.")
        let several = try await fixture.run(["show", "Dev talk", "--from", "ka"])
        #expect(several.status == 2)
        #expect(
            several.stderr.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) } == [
                "Kasia Lis <kasia@example.pl>", "Kate Bell <kate@example.net>",
            ], "\(several.stderr)")
    }
}
