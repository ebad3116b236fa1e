import ChatmailApp
import ChatmailStore
import Foundation
import TerminalKit
import TerminalUI
import TextFormatting

/// The app's run loop: terminal events, ticks and effect results go through the reducer one at a time;
/// effects run off the loop; each state is drawn as a frame, which the terminal diffs against the last.
///
/// The terminal is restored on every way out: `q` or Ctrl-C (the reducer's quit), SIGTERM or SIGHUP (a
/// terminate event), a thrown error (the `defer`), and Ctrl-Z (the terminal layer restores before it
/// stops and re-enters on SIGCONT).
public struct AppRuntime: Sendable {
    public let terminal: RawTerminal
    public let effects: AppEffects
    public let palette: Palette
    public let glyphs: Glyphs
    /// Opens `$EDITOR` on a text with the terminal handed over; `nil` when the editor was abandoned.
    public let editText: @Sendable (String) -> String?
    /// How often the loop ticks (the reducer counts ticks to start syncs and show progress).
    public let tickInterval: Duration

    public init(
        terminal: RawTerminal, effects: AppEffects, palette: Palette, glyphs: Glyphs,
        editText: @escaping @Sendable (String) -> String?, tickInterval: Duration = .seconds(1)
    ) {
        self.terminal = terminal
        self.effects = effects
        self.palette = palette
        self.glyphs = glyphs
        self.editText = editText
        self.tickInterval = tickInterval
    }

    public func run(_ initial: AppState) async throws {
        try terminal.enter()
        defer { terminal.restore() }
        var state = initial
        state.size = terminal.size()
        state.nowMs = effects.clock()
        let (events, continuation) = AsyncStream<AppEvent>.makeStream()
        let terminalEvents = Task {
            for await event in terminal.events() { continuation.yield(.terminal(event)) }
        }
        let ticker = Task { [clock = effects.clock, tickInterval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: tickInterval)  // cancelled on quit: nothing to report
                continuation.yield(.tick(nowMs: clock()))
            }
        }
        let serverChanges = Task { [changes = effects.serverChanges] in
            guard let changes else { return }
            for await _ in changes() { continuation.yield(.serverChanged) }
        }
        defer {
            terminalEvents.cancel()
            ticker.cancel()
            serverChanges.cancel()
            continuation.finish()
        }

        let cache = TranscriptLineCache()
        var quitting = false
        func execute(_ list: [AppEffect]) {
            for effect in list {
                switch effect {
                case .quit:
                    quitting = true
                case .redrawAll:
                    terminal.invalidate()
                case .scheduleTick(let afterMs):
                    Task { [clock = effects.clock] in
                        try? await Task.sleep(for: .milliseconds(afterMs))  // a late tick is harmless
                        continuation.yield(.tick(nowMs: clock()))
                    }
                case .openEditor(let text):
                    // The editor owns the terminal until it exits; the loop waits, as git does.
                    terminal.suspend()
                    let edited = editText(text)
                    do { try terminal.resume() } catch { quitting = true }
                    terminal.invalidate()
                    continuation.yield(.editorFinished(edited))
                default:
                    Task { [effects] in
                        if let answer = await effects.run(effect) { continuation.yield(answer) }
                    }
                }
            }
        }

        execute(AppReducer.start(&state))
        draw(state, cache: cache)
        for await event in events {
            if case .tick(let now) = event { state.nowMs = now }
            // Raw mode turns the terminal's own Ctrl-Z off: the app stops itself the same way, and the
            // terminal layer restores the screen first and re-enters on SIGCONT (a `.resumed` event).
            if case .terminal(.key(.control("z"))) = event {
                terminal.suspendProcess()
                continue
            }
            // A resize while the app was stopped was signalled to the shell, which had the terminal then:
            // back in the foreground, the app reads the size again rather than wait for a signal that
            // will not come.
            if case .terminal(.resumed) = event, terminal.size() != state.size {
                execute(AppReducer.reduce(&state, .terminal(.resize(terminal.size()))))
            }
            execute(AppReducer.reduce(&state, event))
            if quitting { break }
            draw(state, cache: cache)
        }
    }

    func draw(_ state: AppState, cache: TranscriptLineCache) {
        let time = TimeFormatting(timeZone: state.timeZone, nowMs: state.nowMs)
        terminal.draw(
            AppView.frame(for: state, size: state.size, palette: palette, glyphs: glyphs, time: time, cache: cache))
    }
}
