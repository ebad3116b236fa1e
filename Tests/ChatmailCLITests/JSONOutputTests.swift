import ChatmailStore
import Foundation
import GRDB
import Testing

@testable import ChatmailCLI

@Suite struct JSONOutputTests {
    /// A home with an account and nothing else.
    func emptyAccount() throws -> CLIFixture {
        let fixture = try CLIFixture()
        try fixture.store.write { tx in _ = try tx.ensureAccount(email: "me@example.org") }
        return fixture
    }

    @Test(
        "empty results print [] on one line",
        arguments: [
            ["pending", "--json"], ["pending", "list", "--json"], ["conversations", "--json"],
            ["search", "lunch", "--json"],
        ])
    func emptyArrays(arguments: [String]) async throws {
        let fixture = try emptyAccount()
        let result = try await fixture.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "[]\n")
    }

    @Test(
        "a failed --json run prints the error as JSON on stdout too, with the same exit code and stderr line",
        arguments: [
            ["sync", "--json"], ["pending", "run", "--json"], ["status", "--json"], ["conversations", "--json"],
        ])
    func errorDocument(arguments: [String]) async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-json-\(UUID().uuidString)")
        let result = try await CLIFixture.run(arguments + ["--home", home.path])
        #expect(result.status == 3)
        let message =
            "No account is set up yet. Run `chatmail login` (Gmail) or `chatmail login --imap ADDRESS --host HOST` first."
        #expect(result.stderr == "chatmail: \(message)\n")
        let document = try #require(try result.json() as? [String: Any], "\(result.stdout)")
        #expect(document.keys.sorted() == ["error"])
        let error = try #require(document["error"] as? [String: Any])
        #expect(
            error["code"] as? Int == 3 && error["kind"] as? String == "notLoggedIn"
                && error["message"] as? String == message)
    }

    @Test("an account without a login: sync --json reports notLoggedIn in JSON; without --json stdout stays empty")
    func notLoggedIn() async throws {
        let fixture = try emptyAccount()
        let json = try await fixture.run(["sync", "--json"], environment: ["CHATMAIL_CLIENT_ID": "test-client"])
        #expect(json.status == 3, "\(json.stderr)")
        #expect(
            ((try json.json() as? [String: Any])?["error"] as? [String: Any])?["kind"] as? String == "notLoggedIn",
            "\(json.stdout)")
        let text = try await fixture.run(["sync"], environment: ["CHATMAIL_CLIENT_ID": "test-client"])
        #expect(text.status == 3 && text.stdout.isEmpty && text.stderr.hasPrefix("chatmail: "))
    }

    @Test("a usage error found while running a --json command is a usage error document")
    func usageDocument() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-json-usage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }  // best-effort cleanup
        let mbox = packageRoot.appendingPathComponent("Fixtures/import/takeout.mbox").path
        let result = try await CLIFixture.run(["import", mbox, "--home", home.path, "--json"])
        #expect(result.status == 64)
        let error = try #require((try result.json() as? [String: Any])?["error"] as? [String: Any], "\(result.stdout)")
        #expect(error["code"] as? Int == 64 && error["kind"] as? String == "usage")
        #expect((error["message"] as? String)?.contains("--me") == true)
    }

    @Test("pending run --json: the counts of the run; offline, the counts with the error in one document and exit 1")
    func pendingRun() async throws {
        let setup = try await LoggedInHome()
        #expect(try await setup.run(["star", "bob"]).status == 0)
        let offline = try await setup.run(
            ["pending", "run", "--json"], environment: ["CHATMAIL_GMAIL_API_URL": "http://127.0.0.1:1"])
        #expect(offline.status == 1)
        #expect(
            offline.stderr.contains("Could not reach Gmail") && offline.stderr.split(separator: "\n").count == 1,
            "\(offline.stderr)")
        let failed = try #require(try offline.json() as? [String: Any], "\(offline.stdout)")  // one document, not two
        #expect(failed["sent"] as? Int == 0 && failed["failed"] as? Int == 1 && failed["waiting"] as? Int == 0)
        let error = try #require(failed["error"] as? [String: Any])
        #expect(error["code"] as? Int == 1 && error["kind"] as? String == "failure")
        #expect((error["message"] as? String)?.contains("Could not reach Gmail") == true)

        let later = String(CLIFixture.now + 3_600_000)
        let sent = try await setup.run(["pending", "run", "--json"], environment: ["CHATMAIL_NOW_MS": later])
        #expect(sent.status == 0, "\(sent.stderr)")
        let object = try #require(try sent.json() as? [String: Any], "\(sent.stdout)")
        #expect(object.keys.sorted() == ["abandoned", "error", "failed", "rechecked", "sent", "waiting"])
        #expect(object["sent"] as? Int == 1 && object["failed"] as? Int == 0 && object["abandoned"] as? Int == 0)
        #expect(object["error"] is NSNull)
    }

    @Test("an unexpected database error is reported without its SQL statement or values")
    func databaseErrorMessage() {
        let error = DatabaseError(
            resultCode: .SQLITE_ERROR, message: "no such column: secret",
            sql: "SELECT body FROM message WHERE from_address = ?", arguments: ["alice@example.com"],
            publicStatementArguments: true)
        let message = ExitStatus.message(for: error)
        #expect(message.hasPrefix("chatmail: ") && message.contains("no such column: secret"))
        #expect(!message.contains("SELECT") && !message.contains("alice"))
        #expect(ExitStatus(for: error) == nil)  // a runtime failure, exit 1
    }
}
