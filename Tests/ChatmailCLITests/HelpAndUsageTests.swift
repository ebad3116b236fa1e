import ArgumentParser
import Foundation
import Testing

@testable import ChatmailCLI

@Suite struct HelpAndUsageTests {
    @Test("chatmail --help names --home, the data directory's defaults and the exit codes")
    func topLevelHelp() async throws {
        let result = try await CLIFixture.run(["--help"])
        #expect(result.status == 0)
        let text = result.stdout.replacingOccurrences(of: "\n", with: " ")
        for expected in [
            "--home DIR", "$CHATMAIL_HOME", "$XDG_DATA_HOME/chatmail", "~/.local/share/chatmail", "5 database damaged",
            "65 input",
        ] {
            #expect(text.contains(expected), "\(expected) in \(result.stdout)")
        }
    }

    @Test("view and sanitize offer only the options they use", arguments: ["view", "sanitize"])
    func smallerOptions(command: String) async throws {
        let result = try await CLIFixture.run([command, "--help"])
        #expect(result.status == 0)
        for option in ["--color", "--width", "--ascii", "--verbose"] {
            #expect(result.stdout.contains(option), "\(option)")
        }
        #expect(!result.stdout.contains("--home") && !result.stdout.contains("--account"), "\(result.stdout)")
        let file = try temporaryFile("<p>hi</p>", extension: "html")
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup
        let after = try await CLIFixture.run([command, file.path, "--home", "/tmp/chatmail-unused"])
        #expect(after.status == 64 && after.stderr.contains("--home"), "\(after.stderr)")
    }

    @Test("--home and --account before view or sanitize are dropped, the output options kept")
    func globalsBeforeCommand() async throws {
        let file = try temporaryFile("From: a@example.org\nSubject: hi\n\nHello there.\n")
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup
        let result = try await CLIFixture.run([
            "--home", "/tmp/chatmail-unused", "--account", "x@example.org", "--color", "always", "view", file.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Hello there.") && result.stdout.contains("\u{1B}["))
        #expect(
            GlobalOptions.movingGlobalsAfterSubcommand(["--home", "/h", "--width", "40", "view", "f"]) == [
                "view", "--width", "40", "f",
            ])
        #expect(GlobalOptions.movingGlobalsAfterSubcommand(["--account=a", "-v", "sanitize"]) == ["sanitize", "-v"])
        #expect(
            GlobalOptions.movingGlobalsAfterSubcommand(["--home", "/h", "show", "al"]) == [
                "show", "--home", "/h", "al",
            ])
    }

    @Test("a usage error found while running shows that command's usage, not the top-level one")
    func runtimeUsageError() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-usage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }  // best-effort cleanup
        let mbox = packageRoot.appendingPathComponent("Fixtures/import/takeout.mbox").path
        let imported = try await CLIFixture.run(["import", mbox, "--home", home.path])
        #expect(imported.status == 64)
        #expect(imported.stderr.hasPrefix("Error: The first import needs --me ADDRESS"), "\(imported.stderr)")
        #expect(
            imported.stderr.contains("\nUsage: chatmail import ")
                && imported.stderr.contains("See 'chatmail import --help'"))
        #expect(!imported.stderr.contains("<subcommand>"))
        #expect(imported.stdout.isEmpty)

        let login = try await CLIFixture.run(["login", "--home", home.path], environment: ["CHATMAIL_CLIENT_ID": ""])
        #expect(login.status == 64)
        #expect(
            login.stderr.contains("\nUsage: chatmail login ") && login.stderr.contains("See 'chatmail login --help'"),
            "\(login.stderr)")
        #expect(
            ChatmailCommand.commandPath(to: Pending.Run.self).map { $0.map { $0._commandName } } == [
                "chatmail", "pending", "run",
            ])
    }
}
