import ArgumentParser
import ChatmailApp
import ChatmailAppRuntime
import ChatmailStore
import Foundation
import GmailAPI
import GmailEmulator
import MailText
import TerminalKit
import TerminalUI
import TextFormatting

/// `chatmail-bench app`: the interactive app's speed on a 100,000-message store.
///
/// - **First frame:** the real `chatmail app` process on a pseudo-terminal (120×40), from spawn until
///   the screen shows the list's first conversation and the status line; `chatmail --help` is timed
///   the same way for scale.
/// - **Key to frame** (in process, the work the run loop does per event): a list move (`j`: reduce,
///   draw, diff), a search keystroke (the full-text query, reduce its results, draw, diff), and opening
///   the 2,000-message conversation (load its transcript, reduce, draw, diff), at the app's transcript
///   limit and with every message loaded.
struct AppBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "Time the interactive app: first frame, list moves, search, opening a chat.")

    @Option(help: "Messages to seed.") var messages = 100_000
    @Option(help: "Conversations to seed.") var conversations = 10_000
    @Option(help: "Messages in the big conversation.") var bigConversation = 2_000
    @Option(help: "Timed runs of each measurement.") var runs = 21

    func run() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-bench-app-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup of a scratch dir
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = try ChatmailStore(
            path: dir.appendingPathComponent("chatmail.sqlite").path, subjectBase: ReplySubject.topicBase)
        let mailbox = SyntheticMailbox(
            messageCount: messages, conversationCount: conversations, bigConversationSize: bigConversation,
            endDateMs: ChatmailStore.systemClock())
        try mailbox.seed(into: store)
        print("seeded \(messages) messages in \(conversations) conversations (the first has \(bigConversation))")

        let firstFrames = try firstFrame(home: dir, store: store)
        print(
            String(
                format: "first frame, whole process on a pty: median %.1f ms of %d (min %.1f, max %.1f); "
                    + "--help %.1f ms; ratio %.2f",
                firstFrames.app.median * 1000, runs, (firstFrames.app.min() ?? 0) * 1000,
                (firstFrames.app.max() ?? 0) * 1000, firstFrames.help.median * 1000,
                firstFrames.app.median / firstFrames.help.median))
        try await inProcess(store: store)
    }

    // MARK: In process

    func inProcess(store: ChatmailStore) async throws {
        let account = try store.account(.onlyAccount)
        let effects = AppEffects(
            store: store, account: account,
            gmail: { throw GmailAPIError.retryLater(.transport(description: "offline benchmark")) },
            clock: ChatmailStore.systemClock)
        let size = TerminalSize(columns: 120, rows: 40)
        let palette = Palette(isEnabled: true)
        var state = AppState(account: account.email, size: size, glyphs: .rounded, nowMs: ChatmailStore.systemClock())
        _ = AppReducer.start(&state)
        let filter = state.filter.conversationFilter(limit: state.listLimit)
        guard let loaded = await effects.run(.loadConversations(filter)) else { return }
        // Wide, the selected conversation's transcript is beside the list: load it as the run loop would.
        for effect in AppReducer.reduce(&state, loaded) {
            if case .loadTranscript = effect, let answer = await effects.run(effect) {
                _ = AppReducer.reduce(&state, answer)
            }
        }
        let cache = TranscriptLineCache()
        var previous = draw(state, palette: palette, cache: cache)

        // A list move: the key through the reducer, the frame, the diff the terminal is sent.
        var moves: [Double] = []
        for index in 0..<runs {
            let key: Key = index % 2 == 0 ? .character("j") : .character("k")
            let start = ContinuousClock.now
            _ = AppReducer.reduce(&state, .terminal(.key(key)))
            let frame = draw(state, palette: palette, cache: cache)
            _ = FrameDiff.update(from: previous, drawnAt: size, to: frame, size: size)
            moves.append((ContinuousClock.now - start).seconds)
            previous = frame
        }
        report("list move (j/k), key to frame", moves)

        // A search keystroke: the query the keystroke starts, its results, the frame.
        _ = AppReducer.reduce(&state, .terminal(.key(.character("/"))))
        var searches: [Double] = []
        var hitCounts: [Int] = []
        let words = ["re", "pro", "proj", "project", "no", "not", "note", "notes", "da", "dat", "data"]
        for index in 0..<runs {
            let word = words[index % words.count]
            let start = ContinuousClock.now
            _ = AppReducer.reduce(&state, .terminal(.key(.paste(word))))
            guard let results = await effects.run(.search(state.search.query)) else { continue }
            _ = AppReducer.reduce(&state, results)
            let frame = draw(state, palette: palette, cache: cache)
            _ = FrameDiff.update(from: previous, drawnAt: size, to: frame, size: size)
            searches.append((ContinuousClock.now - start).seconds)
            hitCounts.append(state.search.hits.count)
            previous = frame
            for _ in word { _ = AppReducer.reduce(&state, .terminal(.key(.backspace))) }
        }
        report(
            "search keystroke, key to narrowed results (hits shown: \(hitCounts.map(String.init).joined(separator: " ")))",
            searches)
        _ = AppReducer.reduce(&state, .terminal(.key(.escape)))

        // Opening the big conversation: its transcript loaded, reduced and drawn.
        let big = try require(
            try store.conversations(in: account.id, filter: .init(visibility: .all, limit: 50)).max {
                $0.messageCount < $1.messageCount
            }, "the store has no conversation")
        for limit in [state.transcriptLimit, big.messageCount] {
            var opens: [Double] = []
            var openState: AppState?
            for _ in 0..<runs {
                let start = ContinuousClock.now
                guard let loaded = await effects.run(.loadTranscript(big.id, limit: limit)) else { continue }
                var opened = state
                opened.transcript = OpenTranscript(id: big.id)
                opened.focus = .transcript
                _ = AppReducer.reduce(&opened, loaded)
                // A conversation just opened is drawn for the first time: no cached lines.
                let frame = draw(opened, palette: palette, cache: TranscriptLineCache())
                _ = FrameDiff.update(from: previous, drawnAt: size, to: frame, size: size)
                opens.append((ContinuousClock.now - start).seconds)
                openState = opened
            }
            report("open the \(big.messageCount)-message conversation, \(limit) messages loaded", opens)
            // Scrolling it: each key is a new frame of the same transcript.
            guard var reading = openState else { continue }
            let scrollCache = TranscriptLineCache()
            var last = draw(reading, palette: palette, cache: scrollCache)
            var scrolls: [Double] = []
            for index in 0..<runs {
                let start = ContinuousClock.now
                _ = AppReducer.reduce(&reading, .terminal(.key(index % 2 == 0 ? .pageUp : .character("k"))))
                let frame = draw(reading, palette: palette, cache: scrollCache)
                _ = FrameDiff.update(from: last, drawnAt: size, to: frame, size: size)
                scrolls.append((ContinuousClock.now - start).seconds)
                last = frame
            }
            report("scroll it (PgUp, k), key to frame", scrolls)
        }
    }

    func draw(_ state: AppState, palette: Palette, cache: TranscriptLineCache) -> Frame {
        AppView.frame(
            for: state, size: state.size, palette: palette, glyphs: state.glyphs,
            time: TimeFormatting(timeZone: state.timeZone, nowMs: state.nowMs), cache: cache)
    }

    func report(_ label: String, _ times: [Double]) {
        let sorted = times.sorted()
        guard !sorted.isEmpty else { return }
        print(
            String(
                format: "%@: median %.2f ms of %d (min %.2f, max %.2f)", label, sorted[sorted.count / 2] * 1000,
                sorted.count, sorted[0] * 1000, sorted[sorted.count - 1] * 1000))
    }
}

/// A check that fails the benchmark with a message instead of trapping.
func require<T>(_ value: T?, _ message: @autoclosure () -> String = "missing value") throws -> T {
    guard let value else { throw ProcessTimer.Failure(description: message()) }
    return value
}
