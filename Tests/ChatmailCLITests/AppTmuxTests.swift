import ChatmailTestSupport
import Foundation
import TerminalUI
import Testing

extension ComposeEndToEnd {
    /// The interactive app as a person uses it: `chatmail app` in a real tmux pane on a home synced from
    /// the emulator, driven by keys, checked by what the pane shows and by what Gmail received.
    @Suite struct AppTmuxTests {
        static let columns = 120
        static let rows = 30

        /// An interactive bash in a pane, pointed at the home and its emulator.
        func shell(_ home: ComposeHome, columns: Int = columns, rows: Int = rows) async throws -> Tmux {
            let binaries = CLIFixture.executable.deletingLastPathComponent().path
            var variables = [
                "LANG": "C.UTF-8", "TZ": "UTC", "CHATMAIL_NOW_MS": String(CLIFixture.now), "TERM": "xterm-256color",
                "CHATMAIL_HOME": home.setup.home.path, "HOME": home.setup.dir.path, "HISTFILE": "",
                "PS1": RealTerminalTests.prompt + " ",
                "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            ]
            variables.merge(home.setup.emulator.environment) { $1 }
            let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }
                .joined(separator: " ")
            let unset = ["NO_COLOR", "COLUMNS", "LINES", "EDITOR", "VISUAL"].map { "-u \($0)" }.joined(separator: " ")
            let tmux = Tmux()
            try await tmux.start("env \(unset) \(assignments) bash --norc --noprofile", columns: columns, rows: rows)
            _ = try await tmux.rows("The shell should prompt") { $0.last == RealTerminalTests.prompt }
            return tmux
        }

        func typeLiterally(_ tmux: Tmux, _ text: String) async throws {
            try await tmux.run(["send-keys", "-t", "t", "-l", text])
        }

        @Test("open, search, reply (sent once), archive, filter, resize and quit, in a real terminal")
        func session() async throws {
            let home = try await ComposeHome()
            let tmux = try await shell(home)
            try await tmux.type(#"stty -g > "$HOME/stty.before""#)
            // `chatmail` alone on a terminal is the app.
            try await tmux.type(#"chatmail; echo "exit=$?""#)
            let opened = try await tmux.rows("the app should open on the conversation list with a status line") {
                rows in rows.last?.contains("me@example.org") == true && rows.last?.contains("? help") == true
            }
            // Wide: the list on the left, a separator, the transcript on the right; nothing wider than the pane.
            #expect(opened.count == Self.rows, "\(opened)")
            #expect(opened.allSatisfy { DisplayWidth.of($0) <= Self.columns })
            #expect(opened.filter { $0.contains("│") }.count >= Self.rows - 2)

            // Live search: results narrow as you type; Enter opens the message in its conversation.
            try await tmux.press("/")
            try await typeLiterally(tmux, "eight")
            // The transcript beside the list may already show "At eight": wait for the search pane's hit.
            _ = try await tmux.rows("the search should find Pat's message") { rows in
                rows.first == "Search: eight" && rows.contains { $0.hasPrefix(">") && $0.contains("At eight") }
            }
            try await tmux.press("Enter")
            _ = try await tmux.rows("Enter should open Pat's conversation at the message") { rows in
                rows.contains { $0.contains("│ At eight, say?") } && rows.last?.contains("? help") == true
            }

            // Reply from the one-line composer: Enter sends, and Gmail has it exactly once.
            try await tmux.press("r")
            try await typeLiterally(tmux, "Eight is perfect.")
            try await tmux.press("Enter")
            _ = try await tmux.rows("the reply should show as my bubble") { rows in
                rows.contains { $0.contains("Eight is perfect.") }
            }
            #expect(try await eventually("the reply should reach Gmail") { try await !home.newSent().isEmpty })
            let sent = try await home.newSent()
            #expect(sent.count == 1)
            #expect(sent.first?.raw.contains("Eight is perfect.") == true)
            #expect(sent.first?.threadID == home.patThread)

            // A pane shorter than the conversation: reading from its end (G), the end stays in view; PgUp
            // scrolls back to its first message.
            try await tmux.press("G")
            try await tmux.run(["resize-window", "-t", "t", "-x", String(Self.columns), "-y", "12"])
            let short = try await tmux.rows("the short pane should show the end of the conversation") { rows in
                rows.count == 12 && rows.contains { $0.contains("Eight is perfect.") }
                    && !rows.contains { $0.contains("│ Dinner on Friday? │") }
            }
            #expect(short.allSatisfy { DisplayWidth.of($0) <= Self.columns })
            try await tmux.press("PageUp")
            try await tmux.press("PageUp")
            _ = try await tmux.rows("PgUp should scroll back to Pat's first message") { rows in
                rows.contains { $0.contains("│ Dinner on Friday? │") }
                    && !rows.contains { $0.contains("Eight is perfect.") }
            }
            try await tmux.run(["resize-window", "-t", "t", "-x", String(Self.columns), "-y", String(Self.rows)])

            // Ctrl-Z stops the app and gives the shell its terminal back; `fg` brings the app back, redrawn.
            try await tmux.press("C-z")
            _ = try await tmux.rows("Ctrl-Z should give the shell back") { rows in
                rows.last == RealTerminalTests.prompt && rows.contains { $0.contains("Stopped") }
            }
            try await tmux.type(#"fg; echo "resumed-exit=$?""#)
            _ = try await tmux.rows("fg should redraw the app") { rows in
                rows.count == Self.rows && rows.last?.contains("me@example.org") == true
                    && rows.contains { $0.contains("Eight is perfect.") }
            }

            // Archive: local at once, then the sync after the action tells Gmail.
            try await tmux.press("e")
            let archived = try await eventually("Pat's messages should leave Gmail's inbox") {
                let thread = try await home.gmail("threads/\(home.patThread)?format=minimal")
                let labels = (thread["messages"] as? [[String: Any]] ?? []).map { $0["labelIds"] as? [String] ?? [] }
                return !labels.isEmpty && !labels.contains { $0.contains("INBOX") }
            }
            #expect(archived)
            #expect(try await home.newSent().count == 1, "nothing was sent twice")

            // The filter cycles from the transcript as from the list, and the status line names it. (No Esc
            // first: Esc and a key that reach the app in one read are Alt plus that key, however long a
            // test waited between sending them.)
            try await tmux.press("f")
            _ = try await tmux.rows("f should switch to the unread filter") { rows in
                rows.last?.contains("Unread") == true
            }

            // A narrow pane shows one pane at a time, still within its width.
            try await tmux.run(["resize-window", "-t", "t", "-x", "70", "-y", "20"])
            let narrow = try await tmux.rows("the app should reflow to 70 columns") { rows in
                rows.count == 20 && rows.last?.contains("me@example.org") == true && !rows.contains { $0.count > 70 }
            }
            #expect(narrow.allSatisfy { DisplayWidth.of($0) <= 70 }, "\(narrow)")

            // q quits, the shell is back, and the terminal is as it was.
            try await tmux.press("q")
            _ = try await tmux.rows("q should quit with status 0") { rows in rows.contains("resumed-exit=0") }
            try await tmux.type(
                #"[ "$(stty -g)" = "$(cat "$HOME/stty.before")" ] && echo restored || echo broken"#
                    + #"; stty -a | tr ' ;' '\n\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\n' ' '; echo"#
            )
            let after = try await tmux.rows("stty should report the terminal") { rows in
                rows.contains { $0.hasSuffix("icanon") || $0.hasPrefix("icanon") || $0.hasPrefix("-icanon") }
            }
            #expect(after.contains("restored"), "\(after.joined(separator: "\n"))")
            // Canonical input and echo are back on: a shell a person can type in again.
            #expect(after.contains { $0.hasPrefix("icanon echo") }, "\(after.joined(separator: "\n"))")
        }

        @Test("SIGTERM quits the app with the terminal restored")
        func terminated() async throws {
            let home = try await ComposeHome()
            let tmux = try await shell(home, columns: 100, rows: 24)
            // The app runs under the pid its shell wrote down (exec keeps it), so the test can signal it
            // with nothing but `kill`.
            try await tmux.type(
                #"stty -g > "$HOME/stty.before"; sh -c 'echo $$ > "$HOME/app.pid"; exec chatmail app'; echo "exit=$?""#)
            _ = try await tmux.rows("the app should open") { rows in rows.last?.contains("me@example.org") == true }
            let pidFile = home.setup.dir.appendingPathComponent("app.pid").path
            try await tmux.run(["run-shell", "kill -TERM \"$(cat '\(pidFile)')\""])
            _ = try await tmux.rows("SIGTERM should end the app") { rows in rows.contains { $0.hasPrefix("exit=") } }
            try await tmux.type(#"[ "$(stty -g)" = "$(cat "$HOME/stty.before")" ] && echo restored || echo broken"#)
            let after = try await tmux.rows("stty should answer") { rows in
                rows.contains("restored") || rows.contains("broken")
            }
            #expect(after.contains("restored"), "\(after.joined(separator: "\n"))")
            #expect(after.contains("exit=0"), "\(after.joined(separator: "\n"))")
        }

        @Test("a resize while the app is stopped (Ctrl-Z) is seen when fg brings it back")
        func resizeWhileStopped() async throws {
            let home = try await ComposeHome()
            let tmux = try await shell(home, columns: 100, rows: 24)
            try await tmux.type("chatmail app")
            _ = try await tmux.rows("the app should open") { rows in
                rows.count == 24 && rows.last?.contains("me@example.org") == true
            }
            try await tmux.press("C-z")
            _ = try await tmux.rows("Ctrl-Z should give the shell back") { rows in
                rows.last == RealTerminalTests.prompt && rows.contains { $0.contains("Stopped") }
            }
            // The terminal signals the new size to the job in the foreground, which is now the shell.
            try await tmux.run(["resize-window", "-t", "t", "-x", "100", "-y", "14"])
            try await tmux.type(#"fg; echo "resumed-exit=$?""#)
            let back = try await tmux.rows("fg should draw the app at the new height") { rows in
                rows.count == 14 && rows.last?.contains("me@example.org") == true
            }
            #expect(back.allSatisfy { DisplayWidth.of($0) <= 100 })
            try await tmux.press("q")
            _ = try await tmux.rows("q should quit") { rows in rows.contains("resumed-exit=0") }
        }

        /// Polls `condition` until it holds, for at most 60 s: a bound for a broken run, not a speed.
        func eventually(_ what: String, _ condition: () async throws -> Bool) async throws -> Bool {
            if try await poll(for: .seconds(60), every: .milliseconds(200), until: condition) { return true }
            Issue.record("\(what), but did not within 60 s")
            return false
        }
    }
}
