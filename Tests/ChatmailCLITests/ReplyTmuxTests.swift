import ChatmailTestSupport
import Foundation
import TerminalUI
import Testing

extension ComposeEndToEnd {
    /// Outbox bubbles in a real terminal: tmux runs `chatmail show` in a pane narrower and shorter than
    /// the transcript, so it pages through less, and `capture-pane` reads back what a person would see.
    @Suite struct ReplyTmuxTests {
        static let columns = 50
        static let rows = 14

        /// An interactive bash in a small pane, with `chatmail` on the PATH and the home's data.
        func shell(_ home: ComposeHome) async throws -> Tmux {
            try #require(Tmux.less != nil, "less is not installed")
            let binaries = CLIFixture.executable.deletingLastPathComponent().path
            let variables = [
                "LANG": "C.UTF-8", "TZ": "UTC", "CHATMAIL_NOW_MS": String(CLIFixture.now),
                "CHATMAIL_HOME": home.setup.home.path, "HOME": home.setup.dir.path, "HISTFILE": "",
                "PS1": RealTerminalTests.prompt + " ",
                "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            ]
            let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(
                separator: " ")
            let unset = ["NO_COLOR", "COLUMNS", "LINES", "PAGER", "CHATMAIL_PAGER", "LESS", "LV", "MORE"].map {
                "-u \($0)"
            }
            .joined(separator: " ")
            let tmux = Tmux()
            try await tmux.start(
                "env \(unset) \(assignments) bash --norc --noprofile", columns: Self.columns, rows: Self.rows)
            _ = try await tmux.rows("The shell should prompt") { $0.last == RealTerminalTests.prompt }
            return tmux
        }

        @Test(
            "show in a small pane after an offline reply and one queued behind a running sync: each bubble's header carries its mark"
        )
        func queuedMarks() async throws {
            let home = try await ComposeHome()
            let offline = try await home.run(
                ["reply", "pat", "-m", "Written offline."], environment: ComposeHome.offline)
            #expect(
                offline.status == 0 && offline.stdout.hasPrefix("Queued for pat@example.net (#1)"), "\(offline.stdout)")

            // Hold the account's sync lock, as a running `chatmail sync` does: the reply waits in the queue.
            let lockName = try #require(
                try FileManager.default.contentsOfDirectory(atPath: home.setup.home.path)
                    .first { $0.hasPrefix("sync-") && $0.hasSuffix(".lock") })
            let descriptor = open(home.setup.home.appendingPathComponent(lockName).path, O_RDWR)
            try #require(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
            let behind = try await home.run(["reply", "pat", "-m", "Behind a sync."])
            flock(descriptor, LOCK_UN)
            close(descriptor)
            #expect(
                behind.status == 0 && behind.stdout.hasPrefix("Queued for pat@example.net (#2)"), "\(behind.stdout)")
            let statuses = try await home.transcript("pat").compactMap { ($0["outbox"] as? [String: Any])?["status"] }
            #expect(statuses as? [String] == ["queued", "queued"], "\(statuses)")

            let full = try await home.run(["show", "pat", "--width", String(Self.columns)])
            let transcriptRows = full.stdout.components(separatedBy: "\n").count
            try #require(transcriptRows > Self.rows, "the transcript must be taller than the pane: \(full.stdout)")

            let tmux = try await shell(home)
            try await tmux.type(#"chatmail show pat; echo "exit=$?""#)
            _ = try await tmux.rows("less should show the top of the transcript") { rows in
                rows.contains { $0.hasPrefix("Pat Jones · 09:00") } && !rows.contains(RealTerminalTests.prompt)
            }
            try await tmux.press("G")
            let end = try await tmux.rows("G should show the end, with both queued bubbles") { rows in
                rows.contains { $0.hasSuffix("│ Behind a sync. │") }
            }
            let screen = end.joined(separator: "\n")
            // Both are queued: one header, marked, over the two bubbles (a run of my messages with the same
            // mark shares its header, like any run of bubbles).
            let first = try #require(end.firstIndex { $0.hasSuffix("│ Written offline. │") }, "\(screen)")
            let header = end[first - 2]
            #expect(header.hasSuffix("You · 12:00 · queued"), "\(screen)")
            // Right-aligned to the pane's last column: the terminal wrapped nothing.
            #expect(DisplayWidth.of(header) == Self.columns, "\(header)")
            for text in ["Written offline.", "Behind a sync."] {
                let row = try #require(end.firstIndex { $0.hasSuffix("│ \(text) │") }, "\(screen)")
                #expect(DisplayWidth.of(end[row]) == Self.columns, "\(end[row])")
            }
            #expect(end.filter { $0.hasSuffix("· queued") }.count == 1, "\(screen)")
            try await tmux.press("q")
            try await RealTerminalTests.expectPromptBack(tmux)
        }
    }
}
