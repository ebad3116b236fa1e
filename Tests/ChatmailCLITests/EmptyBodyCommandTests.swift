import ChatmailStore
import Foundation
import Testing

/// A message with an empty body is valid mail: it gets a bubble saying "(no text)" and `text: ""` in JSON.
/// Only an empty input to `view` or `sanitize` is an error.
@Suite struct EmptyBodyCommandTests {
    static let headersOnly =
        "From: Ann <ann@example.org>\r\nTo: Bob <bob@example.org>\r\nSubject: Call me\r\nDate: Tue, 3 Mar 2025 14:02:00 +0000\r\n\r\n"
    static let emptyHTML =
        "From: Ann <ann@example.org>\r\nSubject: Call me\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body><div><br></div></body></html>\r\n"

    @Test(
        "view of a message with headers and an empty body prints a bubble that says (no text)",
        arguments: [headersOnly, emptyHTML])
    func view(message: String) async throws {
        let file = try temporaryFile(message)
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup
        let result = try await CLIFixture.run(["view", file.path, "--color", "never", "--width", "60"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("│ Call me"))
        #expect(result.stdout.contains("│ (no text)"))
        let json = try await CLIFixture.run(["view", file.path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try json.json() as? [String: Any])
        #expect(object["text"] as? String == "")
        #expect(object["subject"] as? String == "Call me")
    }

    @Test("view --body html of markup without text is a message with no text, not an error")
    func viewBareBody() async throws {
        let file = try temporaryFile("<div><img src=\"https://t.example/x.png\"></div>", extension: "html")
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup
        let result = try await CLIFixture.run(["view", file.path, "--body", "html", "--color", "never"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("(no text)"))
    }

    @Test(
        "an empty input is still an error for view and sanitize",
        arguments: [["view"], ["view", "--body", "html"], ["sanitize"]])
    func emptyInput(command: [String]) async throws {
        let file = try temporaryFile(" \r\n\n")
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup
        let result = try await CLIFixture.run(command + [file.path])
        #expect(result.status == 65)
    }

    @Test("show gives a stored message with an empty body a (no text) bubble and text \"\" in JSON")
    func show() async throws {
        let fixture = try CLIFixture()
        let me = EmailAddress(address: "me@example.org", name: "Me")
        let ann = EmailAddress(address: "ann@example.org", name: "Ann")
        try await fixture.store.write { tx in
            let account = try tx.ensureAccount(email: me.address)
            let message = MessageInput(
                gmailID: "e1", threadID: "t-e1", internalDateMs: CLIFixture.now - 60_000, from: ann, to: [me],
                subject: "Call me", bodyText: "", isNewsletter: false, labelIDs: ["INBOX"], attachments: [])
            try tx.recomputeRollups(for: try tx.upsert(message, in: account).affectedConversations)
        }
        let result = try await fixture.run(["show", "ann@example.org", "--no-pager"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("│ Call me"))
        #expect(result.stdout.contains("│ (no text)"))
        let object = try #require(
            try await fixture.run(["show", "ann@example.org", "--json"]).json() as? [String: Any])
        #expect((object["messages"] as? [[String: Any]])?.first?["text"] as? String == "")
    }
}
