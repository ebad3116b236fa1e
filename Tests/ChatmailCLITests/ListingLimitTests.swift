import ChatmailStore
import Foundation
import Testing

extension CLIFixture {
    /// `count` mails with a one-time code, a minute apart, code `100001` the newest; and three older
    /// than a week, which no `--since 7d` may list.
    func seedCodes(count: Int) throws {
        let me = EmailAddress(address: "me@example.org", name: "Me")
        let service = EmailAddress(address: "noreply@service.example", name: "Service")
        func mail(_ number: Int, minutesAgo: Int64) -> MessageInput {
            MessageInput(
                gmailID: "code\(number)", threadID: "t-code\(number)", internalDateMs: Self.now - minutesAgo * 60_000,
                from: service, to: [me], subject: "Your code", bodyText: "Your code is \(100_000 + number).",
                labelIDs: ["INBOX"],
                verificationCode: VerificationCodeInput(code: "\(100_000 + number)", service: "Service"))
        }
        let recent = (1...count).map { mail($0, minutesAgo: Int64($0)) }
        let old = (1...3).map { mail(count + $0, minutesAgo: 8 * 24 * 60 + Int64($0)) }
        try seed(recent + old, account: me)
    }
}

/// Every listing says when a limit cut it: the text ends with "N more (use --limit)", and JSON, which has
/// no place to say so, holds everything unless `--limit` asks for fewer.
@Suite struct ListingLimitTests {
    /// The lines of `text` that are a code row (a six-digit code first).
    static func codeRows(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.prefix(6).allSatisfy(\.isNumber) && $0.count > 6 }
    }

    @Test("codes: --json prints every code of the window, the text the newest 50 and how many more; --limit sets both")
    func codes() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCodes(count: 116)

        let json = try await fixture.run(["codes", "--since", "7d", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let codes = try #require(try json.json() as? [[String: Any]])
        #expect(codes.count == 116)
        #expect(codes.first?["code"] as? String == "100001" && codes.last?["code"] as? String == "100116")

        let text = try await fixture.run(["codes", "--since", "7d"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(Self.codeRows(text.stdout).count == 50, "\(text.stdout)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.last == "66 more in this window (use --limit)", "\(text.stdout)")
        #expect(lines.dropLast().last?.hasPrefix("100050  ") == true, "the newest 50, newest first")

        let all = try await fixture.run(["codes", "--since", "7d", "--limit", "120"])
        #expect(Self.codeRows(all.stdout).count == 116)
        #expect(!all.stdout.contains("more"), "\(all.stdout)")

        let ten = try await fixture.run(["codes", "--since", "7d", "--limit", "10", "--json"])
        #expect((try ten.json() as? [Any])?.count == 10)
        let tenText = try await fixture.run(["codes", "--since", "7d", "--limit", "10"])
        #expect(Self.codeRows(tenText.stdout).count == 10)
        #expect(tenText.stdout.hasSuffix("\n106 more in this window (use --limit)\n"), "\(tenText.stdout)")

        // The window bounds JSON: the three codes older than a week are in none of the above.
        let month = try #require(try await fixture.run(["codes", "--since", "30d", "--json"]).json() as? [Any])
        #expect(month.count == 119)

        for bad in [["--limit", "0"], ["--limit", "-3"], ["--limit=0", "--json"]] {
            let result = try await fixture.run(["codes"] + bad)
            #expect(result.status == 64, "\(bad)")
            #expect(result.stderr.contains("--limit must be at least 1."), "\(result.stderr)")
        }
        let both = try await fixture.run(["codes", "--latest", "--limit", "3"])
        #expect(both.status == 64 && both.stderr.contains("Choose --latest or --limit, not both."), "\(both.stderr)")
        #expect(try await fixture.run(["codes", "--latest", "--since", "7d"]).stdout == "100001\n")
    }

    @Test("conversations: the text shows 50 and how many more; --json lists them all unless --limit is given")
    func conversations() async throws {
        let fixture = try CLIFixture()
        try fixture.seedManyPeople()

        let text = try await fixture.run(["conversations"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 51 && lines.filter { $0.contains("Person ") }.count == 50, "\(text.stdout)")
        #expect(lines.last == "10 more (use --limit)")
        #expect(try await fixture.run(["conversations", "--limit", "59"]).stdout.hasSuffix("\n1 more (use --limit)\n"))
        #expect(!(try await fixture.run(["conversations", "--limit", "60"]).stdout.contains("more")))

        #expect((try await fixture.run(["conversations", "--json"]).json() as? [Any])?.count == 60)
        #expect((try await fixture.run(["conversations", "--json", "--limit", "5"]).json() as? [Any])?.count == 5)
        // A filter is counted as it lists: the archived ones alone (none), then people.
        #expect(try await fixture.run(["conversations", "--archived", "--limit", "3"]).stdout == "No conversations.\n")
        let people = try await fixture.run(["conversations", "--people", "--limit", "3"])
        #expect(people.stdout.hasSuffix("\n57 more (use --limit)\n"), "\(people.stdout)")
    }

    @Test(
        "show: the text keeps the newest 50 and says how many earlier; --json holds every message unless --limit is given"
    )
    func show() async throws {
        let fixture = try CLIFixture()
        try fixture.seedLongChat(count: 60)

        let text = try await fixture.run(["show", "colin"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("10 earlier messages not shown (use --limit)"), "\(text.stdout)")
        #expect(!text.stdout.contains("Message 10 of") && text.stdout.contains("Message 11 of"))

        let json = try #require(try await fixture.run(["show", "colin", "--json"]).json() as? [String: Any])
        let messages = try #require(json["messages"] as? [[String: Any]])
        #expect(messages.count == 60)
        #expect((messages.first?["text"] as? String)?.hasPrefix("Message 1 of") == true)
        let five = try #require(
            try await fixture.run(["show", "colin", "--json", "--limit", "5"]).json() as? [String: Any])
        #expect((five["messages"] as? [Any])?.count == 5)
        // --from counts the same way: Colin wrote the odd messages, I the even ones, so all are kept.
        let from = try #require(
            try await fixture.run(["show", "colin", "--from", "colin", "--json"]).json() as? [String: Any])
        #expect((from["messages"] as? [Any])?.count == 60)
    }

    @Test(
        "search: the text shows the best 20 and how many more match; --json lists every match unless --limit is given")
    func search() async throws {
        let fixture = try CLIFixture()
        // 50 chat messages among 110: "chat" is ranked by bm25; "hello" is in more than half of them, so
        // its matches come newest first. Both ways are counted.
        try fixture.seedLongChat(count: 50)
        try fixture.seedManyPeople()

        for (word, total) in [("chat", 50), ("hello", 60)] {
            let text = try await fixture.run(["search", word])
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.components(separatedBy: "\n  chatmail show ").count - 1 == 20, "\(text.stdout)")
            #expect(text.stdout.hasSuffix("\n\n\(total - 20) more (use --limit)\n"), "\(text.stdout)")
            let json = try await fixture.run(["search", word, "--json"])
            #expect((try json.json() as? [Any])?.count == total, "\(word)")
            #expect((try await fixture.run(["search", word, "--json", "--limit", "7"]).json() as? [Any])?.count == 7)
            #expect(!(try await fixture.run(["search", word, "--limit", "\(total)"]).stdout.contains("more (use")))
        }
        let one = try await fixture.run(["search", "hello", "--person", "person7@example.com"])
        #expect(!one.stdout.contains("more (use"), "\(one.stdout)")
        let colin = try await fixture.run(["search", "chat", "--person", "colin", "--limit", "45"])
        #expect(colin.stdout.hasSuffix("\n\n5 more (use --limit)\n"), "\(colin.stdout)")
        #expect(try await fixture.run(["search", "chat", "--limit", "0"]).status == 64)
    }
}
