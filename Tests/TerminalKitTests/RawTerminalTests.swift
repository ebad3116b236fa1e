import Foundation
import Testing

@testable import TerminalKit

/// `RawTerminal` on a real pseudo-terminal. Serialized: signals are per process.
@Suite(.serialized, .timeLimit(.minutes(1))) struct RawTerminalTests {
    /// The signals the tests send themselves; SIGTERM, SIGHUP and SIGTSTP stay as the test runner has them.
    let watched = [SIGWINCH, SIGCONT]

    @Test func enterSetsRawModeAndRestorePutsTheSettingsBackExactly() throws {
        let pty = try PseudoTerminal()
        let original = pty.slaveSettings()
        #expect(original.c_lflag & tcflag_t(ICANON | ECHO) != 0, "a fresh pty starts cooked")
        let terminal = RawTerminal(input: pty.slave, output: pty.slave)
        try terminal.enter()
        let raw = pty.slaveSettings()
        #expect(raw.c_lflag & tcflag_t(ICANON) == 0)
        #expect(raw.c_lflag & tcflag_t(ECHO) == 0)
        #expect(raw.c_lflag & tcflag_t(ISIG) == 0, "Ctrl-C must arrive as a key")
        #expect(pty.screenOutputSoFar() == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h")

        terminal.restore()
        #expect(sameSettings(pty.slaveSettings(), original))
        #expect(pty.screenOutputSoFar() == "\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        terminal.restore()
        #expect(sameSettings(pty.slaveSettings(), original))
        #expect(pty.screenOutputSoFar() == "", "a second restore writes nothing")
    }

    @Test func enterFailsWithoutATerminal() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let terminal = RawTerminal(input: fds[0], output: fds[1])
        #expect(throws: TerminalError.self) { try terminal.enter() }
        #expect(terminal.size() == TerminalSize(columns: 80, rows: 24))
    }

    @Test func drawWritesTheFirstFrameInFullThenOnlyChanges() throws {
        let pty = try PseudoTerminal()
        pty.setSize(columns: 20, rows: 2)
        let terminal = RawTerminal(input: pty.slave, output: pty.slave)
        try terminal.enter()
        defer { terminal.restore() }
        _ = pty.screenOutputSoFar()

        terminal.draw(Frame(lines: ["hello", "world"]))
        let first = pty.screenOutputSoFar()
        #expect(first.contains("\u{1B}[2J") && first.contains("hello") && first.contains("world"))
        terminal.draw(Frame(lines: ["hello", "world"]))
        #expect(pty.screenOutputSoFar() == "")
        terminal.draw(Frame(lines: ["hello", "there"]))
        #expect(pty.screenOutputSoFar() == "\u{1B}[?25l\u{1B}[2;1H\u{1B}[0mthere\u{1B}[0m\u{1B}[K")
    }

    @Test func typedBytesArriveAsKeysAndALoneEscapeAfterTheTimeout() async throws {
        let pty = try PseudoTerminal()
        let terminal = RawTerminal(input: pty.slave, output: pty.slave)
        try terminal.enter()
        defer { terminal.restore() }
        var events = terminal.events(watching: watched).makeAsyncIterator()

        pty.type("q\u{1B}[A€\u{1B}[200~a\rb\u{1B}[201~\u{03}")
        var keys: [TerminalEvent] = []
        for _ in 0..<5 { keys.append(try #require(await events.next())) }
        #expect(
            keys == [
                .key(.character("q")), .key(.up), .key(.character("€")), .key(.paste("a\nb")), .key(.control("c")),
            ])

        pty.type("\u{1B}")
        #expect(await events.next() == .key(.escape))
        pty.type("\u{1B}x")
        #expect(await events.next() == .key(.alt("x")))
    }

    @Test func windowSizeAndSIGWINCHGiveAResize() async throws {
        let pty = try PseudoTerminal()
        pty.setSize(columns: 100, rows: 40)
        let terminal = RawTerminal(input: pty.slave, output: pty.slave)
        #expect(terminal.size() == TerminalSize(columns: 100, rows: 40))
        try terminal.enter()
        defer { terminal.restore() }
        var events = terminal.events(watching: watched).makeAsyncIterator()
        terminal.draw(Frame(lines: ["x"]))
        _ = pty.screenOutputSoFar()

        pty.setSize(columns: 72, rows: 30)
        kill(getpid(), SIGWINCH)
        #expect(await events.next() == .resize(TerminalSize(columns: 72, rows: 30)))
        terminal.draw(Frame(lines: ["x"]))
        #expect(pty.screenOutputSoFar().contains("\u{1B}[2J"), "the frame after a resize is drawn in full")
    }

    @Test func sigcontGivesResumedAndAFullRedraw() async throws {
        let pty = try PseudoTerminal()
        let terminal = RawTerminal(input: pty.slave, output: pty.slave)
        try terminal.enter()
        defer { terminal.restore() }
        var events = terminal.events(watching: watched).makeAsyncIterator()
        terminal.draw(Frame(lines: ["x"]))
        _ = pty.screenOutputSoFar()

        kill(getpid(), SIGCONT)
        #expect(await events.next() == .resumed)
        #expect(pty.slaveSettings().c_lflag & tcflag_t(ICANON) == 0)
        terminal.draw(Frame(lines: ["x"]))
        let output = pty.screenOutputSoFar()
        #expect(output.hasPrefix("\u{1B}[?1049h"), "raw mode and the alternate screen are set again")
        #expect(output.contains("\u{1B}[2J"))
    }

    @Test func suspendHandsTheKeyboardToAChildAndResumeTakesItBack() async throws {
        let pty = try PseudoTerminal()
        let original = pty.slaveSettings()
        let terminal = RawTerminal(input: pty.slave, output: pty.slave)
        try terminal.enter()
        defer { terminal.restore() }
        var events = terminal.events(watching: watched).makeAsyncIterator()
        _ = pty.screenOutputSoFar()

        terminal.suspend()
        #expect(sameSettings(pty.slaveSettings(), original))
        #expect(pty.screenOutputSoFar().hasSuffix("\u{1B}[?1049l"))
        // Playing the editor: a line typed now reaches whoever reads the terminal, not the parked reader.
        pty.type("edited\n")
        #expect(pty.readSlave { $0.hasSuffix("\n") } == "edited\n")

        try terminal.resume()
        #expect(pty.slaveSettings().c_lflag & tcflag_t(ICANON) == 0)
        #expect(pty.screenOutputSoFar().hasSuffix(RawTerminal.enterSequence), "after the child's echo")
        pty.type("k")
        #expect(await events.next() == .key(.character("k")))
    }

    @Test func aFrameDrawnWhileSuspendedOrRestoredNeverReachesTheShellsScreen() throws {
        let pty = try PseudoTerminal()
        pty.setSize(columns: 20, rows: 2)
        let terminal = RawTerminal(input: pty.slave, output: pty.slave)
        try terminal.enter()
        defer { terminal.restore() }
        terminal.draw(Frame(lines: ["app"]))
        terminal.suspend()
        _ = pty.screenOutputSoFar()
        // The app's loop may still draw between Ctrl-Z and the stop, or after `fg` before the resume.
        terminal.draw(Frame(lines: ["stray"]))
        #expect(pty.screenOutputSoFar() == "", "a frame on the main screen would outlive the app")

        try terminal.resume()
        terminal.draw(Frame(lines: ["back"]))
        let output = pty.screenOutputSoFar()
        #expect(output.hasPrefix(RawTerminal.enterSequence), "the alternate screen comes before any frame")
        #expect(output.contains("\u{1B}[2J") && output.contains("back"), "the first frame after resume is full")

        terminal.restore()
        _ = pty.screenOutputSoFar()
        terminal.draw(Frame(lines: ["late"]))
        #expect(pty.screenOutputSoFar() == "")
    }

    @Test func aHungUpTerminalGivesTerminate() async throws {
        let pty = try PseudoTerminal()
        let terminal = RawTerminal(input: pty.slave, output: pty.slave)
        try terminal.enter()
        var events = terminal.events(watching: watched).makeAsyncIterator()
        pty.closeMaster()
        #expect(await events.next() == .terminate)
        terminal.restore()
    }

    @Test func aSecondEventsStreamIsFinished() async throws {
        let pty = try PseudoTerminal()
        let terminal = RawTerminal(input: pty.slave, output: pty.slave)
        let first = terminal.events(watching: watched)
        var second = terminal.events(watching: watched).makeAsyncIterator()
        #expect(await second.next() == nil)
        _ = first
    }
}
