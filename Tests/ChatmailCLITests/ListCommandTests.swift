import ChatmailStore
import Foundation
import Testing

extension CLIFixture {
    static let devPost = EmailAddress(address: "dev@lists.example.org")
    static let lukasz = EmailAddress(address: "lukasz@example.pl", name: "Lukasz Nowak")
    static let kate = EmailAddress(address: "kate@example.net", name: "Kate Bell")

    /// The standard cast, and the "Dev talk" list: Kate asks, I answer (my post has no List-Id, only the
    /// list's posting address), Lukasz answers last. Kate also has a one-to-one chat with me; Lukasz
    /// writes only to the list.
    func seedList() throws {
        try seedCast()
        let me = EmailAddress(address: "me@example.org", name: "Me")
        func post(_ id: String, from: EmailAddress, at: Int64, text: String, labels: [String] = ["INBOX"])
            -> MessageInput
        {
            var input = MessageInput(
                gmailID: id, threadID: "t-dev", internalDateMs: at, from: from, to: [Self.devPost],
                subject: "Build breaks on arm64", bodyText: text, labelIDs: labels)
            if from != me {
                input.mailingList = .init(id: "dev.lists.example.org", name: "Dev talk")
                input.listPosting = .address(Self.devPost)
            }
            return input
        }
        let messages = [
            post("d1", from: Self.kate, at: Self.now - 7_200_000, text: "The build breaks on arm64."),
            post("d2", from: me, at: Self.now - 5_400_000, text: "Which compiler?", labels: ["SENT"]),
            post("d3", from: Self.lukasz, at: Self.now - 1_800_000, text: "Fixed in main, pull again."),
            MessageInput(
                gmailID: "k1", threadID: "t-k1", internalDateMs: Self.now - 86_400_000 * 4, from: Self.kate, to: [me],
                subject: "Coffee", bodyText: "Coffee next week?", labelIDs: ["INBOX"]),
        ]
        try store.write { tx in
            let account = try tx.ensureAccount(email: me.address)
            var touched = Set<ConversationID>()
            for message in messages { touched.formUnion(try tx.upsert(message, in: account).affectedConversations) }
            try tx.recomputeRollups(for: touched)
        }
    }
}

@Suite struct ListCommandTests {
    @Test("a list is one row titled by its name, its snippet after the last sender's first name")
    func listRow() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        let result = try await fixture.run(["conversations"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").map(String.init)
        let lists = rows.filter { $0.contains("Dev talk") }
        #expect(lists.count == 1, "\(result.stdout)")
        #expect(lists.first?.contains("Lukasz: Fixed in main") == true, "\(result.stdout)")
        // No row per thread poster, and none of the one-to-one rows names a sender.
        #expect(!result.stdout.contains("Kate, "), "\(result.stdout)")
        #expect(rows.contains { $0.contains("Kate Bell") && $0.contains("Coffee next week?") }, "\(result.stdout)")
        #expect(!rows.contains { $0.contains("Alice Liddell") && $0.contains(": See you") }, "\(result.stdout)")
    }

    @Test("when my post is the newest, the list's snippet starts with You")
    func listRowMine() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        try await fixture.store.write { tx in
            let account = try tx.ensureAccount(email: "me@example.org")
            let result = try tx.upsert(
                MessageInput(
                    gmailID: "d4", threadID: "t-dev", internalDateMs: CLIFixture.now - 60_000,
                    from: EmailAddress(address: "me@example.org"), to: [CLIFixture.devPost],
                    subject: "Re: Build breaks on arm64", bodyText: "Thanks, it builds.", labelIDs: ["SENT"]),
                in: account)
            try tx.recomputeRollups(for: result.affectedConversations)
        }
        let result = try await fixture.run(["conversations", "--lists"])
        #expect(result.stdout.contains("You: Thanks, it builds."), "\(result.stdout)")
    }

    @Test("--json gives a list conversation its list, null for the others; participants are its senders")
    func listJSON() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        let rows = try #require(try await fixture.run(["conversations", "--json"]).json() as? [[String: Any]])
        let list = try #require(rows.first { $0["title"] as? String == "Dev talk" })
        let details = try #require(list["list"] as? [String: Any])
        #expect(details["id"] as? String == "dev.lists.example.org")
        #expect(details["post"] as? String == "dev@lists.example.org")
        #expect(details["name"] as? String == "Dev talk")
        #expect(list["messageCount"] as? Int == 3)
        #expect(list["snippet"] as? String == "Fixed in main, pull again.")
        let senders = (list["participants"] as? [[String: Any]])?.compactMap { $0["address"] as? String }
        #expect(senders == ["kate@example.net", "lukasz@example.pl"])
        let others = rows.filter { $0["title"] as? String != "Dev talk" }
        #expect(others.count == 5)
        #expect(others.allSatisfy { $0["list"] is NSNull }, "\(others)")
    }

    @Test(
        "--people leaves lists out, --lists shows only them, and --lists goes with neither --people nor --newsletters")
    func listFilters() async throws {
        let fixture = try CLIFixture()
        try fixture.seedList()
        func titles(_ arguments: [String]) async throws -> [String] {
            let rows = try #require(try await fixture.run(arguments + ["--json"]).json() as? [[String: Any]])
            return rows.compactMap { $0["title"] as? String }
        }
        let people = try await titles(["conversations", "--people"])
        #expect(!people.contains("Dev talk"))
        #expect(people.contains("Kate Bell") && people.contains("Alice Liddell"), "\(people)")
        #expect(try await titles(["conversations", "--lists"]) == ["Dev talk"])
        #expect(try await titles(["conversations"]).contains("Dev talk"))
        for other in ["--people", "--newsletters"] {
            let result = try await fixture.run(["conversations", "--lists", other])
            #expect(result.status == 64, "\(other): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("Choose --lists or \(other), not both."), "\(result.stderr)")
        }
    }
}
