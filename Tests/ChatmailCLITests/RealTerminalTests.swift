import ChatmailTestSupport
import Foundation
import TerminalUI
import Testing

/// `chatmail show` in a real terminal: tmux runs it in an 80×N pane, and `capture-pane` reads back
/// what a person would see. This checks what unit tests cannot: that the terminal's own idea of
/// character width matches ours (nothing wraps or overflows), and that paging works on a TTY.
@Suite(.serialized) struct RealTerminalTests {
    /// The shell command running chatmail in the pane with the fixture's pinned clock and a UTF-8 locale.
    static func command(_ fixture: CLIFixture, _ arguments: [String], environment: [String: String] = [:]) -> String {
        var variables = [
            "LANG": "C.UTF-8", "TZ": "UTC", "CHATMAIL_NOW_MS": String(CLIFixture.now), "TERM": "xterm-256color",
        ]
        variables.merge(environment) { $1 }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let chatmail = ([CLIFixture.executable.path, "--home", fixture.home.path] + arguments).map { "'\($0)'" }.joined(
            separator: " ")
        // The trailing sleep keeps the pane open for capture; the server is killed afterwards.
        return "env -u NO_COLOR -u COLUMNS \(assignments) \(chatmail); echo '[exit '$?']'; sleep 60"
    }

    @Test("show in an 80-column terminal: mine on the right, theirs on the left, nothing wraps")
    func bubblesInTmux() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        // By id: Alice is also in a group, and "alice liddell" would add a note about it on stderr (the screen).
        let chat = try #require(try await fixture.conversationIDs()["Alice Liddell"])
        let tmux = Tmux()
        try await tmux.start(Self.command(fixture, ["show", "id:\(chat)", "--no-pager"]), columns: 80, rows: 60)
        let screen = try await tmux.screen { $0.contains("[exit ") }
        #expect(screen.contains("[exit 0]"), "\(screen)")
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }

        // Width came from the terminal (no --width, no COLUMNS): my bubbles end at column 80.
        let mine = rows.filter { $0.hasSuffix("╮") && $0.hasPrefix(" ") }
        #expect(!mine.isEmpty, "\(screen)")
        for row in mine {
            #expect(DisplayWidth.of(row) == 80, "\(row)")
        }
        let youHeader = try #require(rows.first { $0.hasSuffix("You · 12:10") })
        #expect(DisplayWidth.of(youHeader) == 80)
        // Alice's bubbles start at column 0.
        let theirs = rows.filter { $0.hasPrefix("╭") }
        #expect(!theirs.isEmpty && rows.contains { $0.hasPrefix("│ Lunch on Friday?") })

        // Nothing overflowed: the screen shows exactly the lines chatmail prints at width 80, so no
        // line was wrapped by the terminal (a wrapped line would add a row and shift every row after it).
        let piped = try await fixture.run(["show", "id:\(chat)", "--width", "80", "--color", "never"])
        let expected = piped.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
            Self.trimmingTrailingSpaces(String($0))
        }
        let shown = Array(rows.map(Self.trimmingTrailingSpaces).prefix(expected.count - 1))
        #expect(shown == Array(expected.dropLast()), "\(screen)")
    }

    @Test("output taller than the screen goes through $PAGER on a TTY, and never with --no-pager")
    func pager() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        // `sed` as the pager marks every line it passes, so the screen shows whether it ran.
        let paged = Tmux()
        try await paged.start(
            Self.command(fixture, ["show", "alice liddell"], environment: ["PAGER": "sed s/^/PAGED:/"]), columns: 80,
            rows: 10)
        let pagedScreen = try await paged.screen { $0.contains("[exit ") }
        #expect(pagedScreen.contains("PAGED:"), "\(pagedScreen)")

        let direct = Tmux()
        try await direct.start(
            Self.command(fixture, ["show", "alice liddell", "--no-pager"], environment: ["PAGER": "sed s/^/PAGED:/"]),
            columns: 80, rows: 10)
        let directScreen = try await direct.screen { $0.contains("[exit ") }
        #expect(directScreen.contains("[exit 0]") && !directScreen.contains("PAGED:"), "\(directScreen)")

        // Output that fits on the screen is printed directly, as git does.
        let short = Tmux()
        try await short.start(
            Self.command(fixture, ["conversations"], environment: ["PAGER": "sed s/^/PAGED:/"]), columns: 80, rows: 40)
        let shortScreen = try await short.screen { $0.contains("[exit ") }
        #expect(shortScreen.contains("Alice Liddell") && !shortScreen.contains("PAGED:"), "\(shortScreen)")
    }

    // MARK: Paging on a real terminal

    /// The prompt of the shell the paging tests type into.
    static let prompt = "READY>"

    /// Starts an interactive bash in an 80×24 pane, where `chatmail` runs against the fixture with a
    /// pinned clock, and waits for its prompt. As in a terminal window, job control makes each command
    /// the terminal's foreground process group. HOME is the fixture's, so neither bash nor less writes
    /// history into the real one.
    static func shell(_ fixture: CLIFixture, environment: [String: String] = [:]) async throws -> Tmux {
        try #require(Tmux.less != nil, "less is not installed")
        let binaries = CLIFixture.executable.deletingLastPathComponent().path
        var variables = [
            "LANG": "C.UTF-8", "TZ": "UTC", "CHATMAIL_NOW_MS": String(CLIFixture.now),
            "CHATMAIL_HOME": fixture.home.path,
            "HOME": fixture.home.path, "HISTFILE": "", "PS1": prompt + " ",
            "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ]
        variables.merge(environment) { $1 }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let unset = ["NO_COLOR", "COLUMNS", "LINES", "PAGER", "CHATMAIL_PAGER", "LESS", "LV", "MORE"].map { "-u \($0)" }
            .joined(separator: " ")
        let tmux = Tmux()
        try await tmux.start("env \(unset) \(assignments) bash --norc --noprofile", columns: 80, rows: 24)
        _ = try await tmux.rows("The shell should prompt") { $0.last == prompt }
        return tmux
    }

    /// Types `command` followed by `echo "exit=$?"`, checks the pager's first screen, that Space moves
    /// on, and that q brings the prompt back with chatmail's exit status 0.
    ///
    /// `label` finds the numbered items in the output ("Message 7", "Person 3"); the first screen must
    /// show item 1, and after Space only later items.
    static func pageThrough(_ tmux: Tmux, _ command: String, label: String, expectedTop: [String]) async throws {
        try await tmux.type(command + #"; echo "exit=$?""#)
        let first = try await tmux.rows("The pager should show the first screen") {
            contains($0, block: expectedTop) && numbers(label, in: $0).contains(1)
        }
        let before = numbers(label, in: first)
        try await tmux.press("Space")
        _ = try await tmux.rows("Space should show the next screen") { rows in
            let after = numbers(label, in: rows)
            return !after.contains(1) && (after.max() ?? 0) > (before.max() ?? 0)
        }
        try await tmux.press("q")
        try await expectPromptBack(tmux)
    }

    /// Waits for `exit=…` and a fresh prompt on the last two rows, and checks the status is 0.
    @discardableResult
    static func expectPromptBack(_ tmux: Tmux) async throws -> [String] {
        let rows = try await tmux.rows("chatmail should end and the prompt come back") {
            $0.count >= 2 && $0.last == prompt && $0[$0.count - 2].hasPrefix("exit=")
        }
        #expect(rows[rows.count - 2] == "exit=0", "\(rows.joined(separator: "\n"))")
        return rows
    }

    @Test("show taller than the screen pages through less: first screen, Space, q, exit 0")
    func showPagesThroughLess() async throws {
        let fixture = try CLIFixture()
        try fixture.seedLongChat()
        let expected = try await Self.expectedLines(fixture, ["show", "colin"])
        let tmux = try await Self.shell(fixture)
        try await Self.pageThrough(
            tmux, "chatmail show colin", label: "Message", expectedTop: Array(expected.prefix(10)))
    }

    @Test("conversations longer than the screen page through less: first screen, Space, q, exit 0")
    func conversationsPageThroughLess() async throws {
        let fixture = try CLIFixture()
        try fixture.seedManyPeople()
        let expected = try await Self.expectedLines(fixture, ["conversations"])
        let tmux = try await Self.shell(fixture)
        try await Self.pageThrough(
            tmux, "chatmail conversations", label: "Person", expectedTop: Array(expected.prefix(10)))
    }

    @Test("PAGER=more pages show: first screen, Space, q, exit 0")
    func showPagesThroughMore() async throws {
        let fixture = try CLIFixture()
        try fixture.seedLongChat()
        let expected = try await Self.expectedLines(fixture, ["show", "colin"])
        let tmux = try await Self.shell(fixture, environment: ["PAGER": "more"])
        try await Self.pageThrough(
            tmux, "chatmail show colin", label: "Message", expectedTop: Array(expected.prefix(10)))
    }

    @Test("output wider than the pane (--width 200) pages, wrapped by less, and q returns")
    func widerThanPanePages() async throws {
        let fixture = try CLIFixture()
        try fixture.seedLongChat()
        let tmux = try await Self.shell(fixture)
        try await tmux.type(#"chatmail show colin --width 200; echo "exit=$?""#)
        // My first header ends at column 200, so less wraps it twice: its last 40 columns start a row.
        let header = "You · 11:00"
        let wrapped = String(repeating: " ", count: 40 - header.count) + header
        _ = try await tmux.rows("The pager should show the first messages, wrapped") {
            Self.numbers("Message", in: $0).contains(1) && $0.contains(wrapped)
        }
        try await tmux.press("q")
        try await Self.expectPromptBack(tmux)
    }

    @Test("q long before the end of output larger than a pipe holds: chatmail is not killed by SIGPIPE, exit 0")
    func quitEarlyFromHugeOutput() async throws {
        let fixture = try CLIFixture()
        try fixture.seedLongChat(count: 1_000)
        // Far more than a pipe holds (64 KiB on Linux), so chatmail is still writing when q is pressed.
        let output = try await fixture.run(["show", "colin", "--limit", "1000", "--width", "80", "--color", "always"])
        try #require(output.stdout.utf8.count > 4 * 65_536, "\(output.stdout.utf8.count) bytes")
        let tmux = try await Self.shell(fixture)
        try await tmux.type(#"chatmail show colin --limit 1000; echo "exit=$?""#)
        _ = try await tmux.rows("The pager should show the first messages") {
            Self.numbers("Message", in: $0).contains(1)
        }
        try await tmux.press("q")
        try await Self.expectPromptBack(tmux)
    }

    @Test("Ctrl-C in the pager goes to less: chatmail lives on, q returns exit 0, and the terminal works")
    func controlCInPager() async throws {
        let fixture = try CLIFixture()
        try fixture.seedLongChat()
        let tmux = try await Self.shell(fixture)
        try await tmux.type(#"chatmail show colin; echo "exit=$?""#)
        _ = try await tmux.rows("The pager should show the first messages") {
            Self.numbers("Message", in: $0).contains(1)
        }
        try await tmux.press("C-c")
        // less still owns the terminal and reads keys: Space moves on. A key that arrives while the
        // interrupt is handled may be discarded with the pending input, so Space is pressed until it works.
        let movedOn = { (screen: String) in !Self.numbers("Message", in: Self.rows(of: screen)).contains(1) }
        for _ in 1...10 {
            try await tmux.press("Space")
            if movedOn(try await tmux.screen(within: 2, until: movedOn)) { break }
        }
        _ = try await tmux.rows("less should still page after Ctrl-C") { !Self.numbers("Message", in: $0).contains(1) }
        try await tmux.press("q")
        try await Self.expectPromptBack(tmux)
        try await tmux.type("echo ok")
        _ = try await tmux.rows("The terminal should run the next command") { $0.suffix(2) == ["ok", Self.prompt] }
    }

    @Test("a pager the shell cannot find: chatmail prints the whole transcript itself, exit 0")
    func missingPagerPrintsDirectly() async throws {
        let fixture = try CLIFixture()
        try fixture.seedLongChat()
        let tmux = try await Self.shell(fixture, environment: ["PAGER": "no-such-pager"])
        try await tmux.type(#"chatmail show colin; echo "exit=$?""#)
        let rows = try await Self.expectPromptBack(tmux)
        #expect(Self.numbers("Message", in: rows).contains(50), "\(rows.joined(separator: "\n"))")
    }

    /// What chatmail prints for `arguments` at width 80 without colour, line by line.
    static func expectedLines(_ fixture: CLIFixture, _ arguments: [String]) async throws -> [String] {
        let piped = try await fixture.run(arguments + ["--width", "80", "--color", "never"])
        try #require(piped.status == 0, "\(piped.stderr)")
        return piped.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
            trimmingTrailingSpaces(String($0))
        }
    }

    /// The screen's rows without trailing spaces, and without the empty rows below the last text.
    static func rows(of screen: String) -> [String] { Tmux.rows(of: screen) }

    /// Whether `block` appears in `rows` as consecutive rows.
    static func contains(_ rows: [String], block: [String]) -> Bool {
        guard !block.isEmpty, rows.count >= block.count else { return false }
        return (0...(rows.count - block.count)).contains { Array(rows[$0..<($0 + block.count)]) == block }
    }

    /// The numbers that follow `label` on the screen ("Message 12" gives 12).
    static func numbers(_ label: String, in rows: [String]) -> Set<Int> {
        var found = Set<Int>()
        for row in rows {
            for part in row.components(separatedBy: label + " ").dropFirst() {
                if let number = Int(part.prefix { $0.isNumber }) { found.insert(number) }
            }
        }
        return found
    }

    static func trimmingTrailingSpaces(_ row: String) -> String { Tmux.trimmingTrailingSpaces(row) }
}
