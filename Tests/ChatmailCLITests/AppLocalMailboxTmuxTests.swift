import ChatmailTestSupport
import Foundation
import TerminalUI
import Testing

/// The app on a mailbox that was imported and never logged in: a normal state, not a failure. In a real
/// tmux pane, it must not try to sync, must say quietly that the mailbox is local, and must keep the
/// account's name whole when the terminal shrinks to 80 columns.
@Suite struct AppLocalMailboxTmuxTests {
    /// Long enough that anything the status line puts beside it at 80 columns could crowd it out.
    static let account = "timo.lindfors.private@example.org"

    @Test("an imported mailbox opens without an error, says it is local, and keeps the account whole at 80×24")
    func localMailbox() async throws {
        let fixture = try CLIFixture()
        let mbox = packageRoot.appendingPathComponent("Fixtures/import/takeout.mbox").path
        let imported = try await fixture.run(["import", mbox, "--me", Self.account, "--me", "me@example.org"])
        try #require(imported.status == 0, "\(imported.stderr)")

        let tmux = Tmux()
        try await tmux.start(RealTerminalTests.command(fixture, ["app"]), columns: 120, rows: 40)
        // Generous deadlines: the whole suite shares two cores with this pane.
        _ = try await tmux.rows("the app should open and call the mailbox local") { rows in
            rows.count == 40 && rows.last?.contains(Self.account) == true
                && rows.last?.contains("local mailbox") == true
        }

        try await tmux.run(["resize-window", "-t", "t", "-x", "80", "-y", "24"])
        let narrow = try await tmux.rows("at 80×24 the status line should keep the account whole") {
            rows in
            rows.count == 24 && rows.last?.contains(Self.account) == true
                && rows.last?.contains("local mailbox") == true
        }
        let status = try #require(narrow.last)
        #expect(!narrow.contains { $0.contains("Error") }, "\(narrow.joined(separator: "\n"))")
        #expect(status.hasPrefix(" \(Self.account) · "), "\(status)")
        #expect(narrow.allSatisfy { DisplayWidth.of($0) <= 80 }, "\(narrow.joined(separator: "\n"))")

        // The sync key answers quietly: nothing to sync, which is no error either.
        try await tmux.press("S")
        let synced = try await tmux.rows("S should say there is nothing to sync") { rows in
            rows.count == 24 && rows.last?.contains("nothing to sync") == true
        }
        let afterSync = try #require(synced.last)
        #expect(afterSync.contains(Self.account) && !afterSync.contains("Error"), "\(afterSync)")

        try await tmux.press("q")
        _ = try await tmux.rows("q should quit with status 0") { rows in
            rows.contains { $0.contains("[exit ") }
        }
        #expect(try await tmux.run(["capture-pane", "-p", "-t", "t"]).contains("[exit 0]"))
    }
}
