import ChatmailApp
import ChatmailStore
import TerminalKit
import TerminalUI
import Testing
import TextFormatting

@Suite("App: the screener's filter and count, the codes drawer")
struct ScreenerCodesTests {
    typealias Data = AppTestData

    static func frame(_ state: AppState) -> [String] {
        AppView.frame(
            for: state, size: state.size, palette: Palette(isEnabled: false), glyphs: .rounded,
            time: TimeFormatting(timeZone: Data.utc, nowMs: Data.nowMs)
        ).lines
    }

    static func screenerFilter() -> ConversationFilter { ListFilter.screener.conversationFilter(limit: 500) }

    /// Presses `f` until the screener's section is chosen.
    static func chooseScreener(_ state: inout AppState) -> [AppEffect] {
        var effects: [AppEffect] = []
        while state.filter != .screener { effects = Data.work(Data.press(&state, .character("f"))) }
        return effects
    }

    // MARK: - Screener

    @Test("the screener's section lists what it holds; its label counts them, and says when it is off")
    func screenerFilter() {
        var state = Data.state(columns: 100, rows: 12)
        #expect(state.screener == nil)
        #expect(Self.chooseScreener(&state) == [.loadConversations(Self.screenerFilter()), .loadScreener])
        // Before the count arrives the label is the bare name.
        #expect(Self.frame(state).last?.contains("me@example.com · Screener · ") == true)
        _ = AppReducer.reduce(&state, .screenerLoaded(ScreenerStatus(isEnabled: true, heldCount: 2)))
        _ = AppReducer.reduce(&state, .conversationsLoaded(Self.screenerFilter(), [Data.summary(7), Data.summary(8)]))
        #expect(state.conversations.map(\.id) == [Data.id(7), Data.id(8)] && state.selectedID == Data.id(7))
        var lines = Self.frame(state)
        #expect(lines.last?.contains("me@example.com · Screener (2) · ") == true, "\(lines.last ?? "")")
        #expect(lines.contains { $0.contains("Conversation 7") } && !lines.contains { $0.contains("Conversation 1") })
        // Off: the section still lists what the screener would hold, and says so.
        _ = AppReducer.reduce(&state, .screenerLoaded(ScreenerStatus(isEnabled: false, heldCount: 2)))
        #expect(Self.frame(state).last?.contains("Screener (2, off)") == true)
        // Emptied (the user wrote back to both): a sentence, not an empty pane.
        _ = AppReducer.reduce(&state, .conversationsLoaded(Self.screenerFilter(), []))
        lines = Self.frame(state)
        #expect(lines.contains { $0.contains("The screener holds no conversations.") })
    }

    @Test("the count is asked for with every reload of the list: at start, after a sync, an action, a send")
    func countRefreshes() {
        var state = Data.state(columns: 80)
        let synced = Data.work(
            AppReducer.reduce(
                &state, .syncFinished(SyncSummary(finishedAtMs: Data.nowMs, pendingCount: 0, failedCount: 0)))
        )
        #expect(synced.contains(.loadScreener))
        let acted = Data.work(
            AppReducer.reduce(
                &state,
                .actionFinished(
                    ActionReport(
                        kind: .archive, conversation: Data.id(1), title: "x", actionIDs: [], messagesChanged: 1))))
        #expect(acted.contains(.loadScreener))
        #expect(Data.work(AppReducer.reduce(&state, .sendFinished("Sent"))).contains(.loadScreener))
        // A new count replaces the old one whichever filter is chosen.
        _ = AppReducer.reduce(&state, .screenerLoaded(ScreenerStatus(isEnabled: true, heldCount: 4)))
        _ = AppReducer.reduce(&state, .screenerLoaded(ScreenerStatus(isEnabled: true, heldCount: 1)))
        #expect(state.screener == ScreenerStatus(isEnabled: true, heldCount: 1))
    }

    @Test("with the screener on, the other lists' status line counts what it holds; off, or none held, it does not")
    func screenedFact() {
        var state = Data.state(columns: 120, rows: 10)
        _ = AppReducer.reduce(&state, .screenerLoaded(ScreenerStatus(isEnabled: true, heldCount: 3)))
        #expect(Self.frame(state).last?.contains("me@example.com · Inbox · 3 screened · ") == true)
        _ = AppReducer.reduce(&state, .screenerLoaded(ScreenerStatus(isEnabled: false, heldCount: 3)))
        #expect(Self.frame(state).last?.contains("screened") == false)
        _ = AppReducer.reduce(&state, .screenerLoaded(ScreenerStatus(isEnabled: true, heldCount: 0)))
        #expect(Self.frame(state).last?.contains("screened") == false)
        _ = AppReducer.reduce(&state, .screenerLoaded(ScreenerStatus(isEnabled: true, heldCount: 3)))
        _ = Self.chooseScreener(&state)
        let status = Self.frame(state).last ?? ""
        #expect(status.contains("Screener (3)") && !status.contains("screened"), "\(status)")
    }

    // MARK: - Codes

    @Test("C opens the codes drawer and loads the last day's codes; j and k choose; Esc closes it")
    func codesDrawer() {
        var state = Data.state(columns: 80)
        let effects = Data.work(Data.press(&state, .character("C")))
        #expect(effects == [.loadCodes(sinceMs: Data.nowMs - 86_400_000, limit: 50)])
        #expect(state.focus == .codes && !state.codes.isLoaded)
        #expect(Self.frame(state).contains { $0.contains("Looking for codes…") })
        _ = AppReducer.reduce(&state, .codesLoaded([Data.code("482913", in: 3), Data.code("731-904", in: 4)]))
        #expect(state.codes.isLoaded && state.codes.selected?.code == "482913")
        Data.press(&state, .character("j"), .character("j"))
        #expect(state.codes.selected?.code == "731-904")
        Data.press(&state, .up)
        #expect(state.codes.selected?.code == "482913")
        // Keys of the list do nothing here: `e` archives nothing while the drawer is open.
        #expect(Data.work(Data.press(&state, .character("e"))) == [])
        Data.press(&state, .escape)
        #expect(state.focus == .list && state.selectedID == Data.id(1))
        // Opening again starts afresh rather than showing the old codes as current.
        Data.press(&state, .character("C"))
        #expect(state.codes.hits.isEmpty && !state.codes.isLoaded)
    }

    @Test("Enter opens the chosen code's conversation, selected in the list when it is there")
    func codesEnter() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("C"))
        _ = AppReducer.reduce(&state, .codesLoaded([Data.code("482913", in: 3), Data.code("111222", in: 42)]))
        #expect(Data.work(Data.press(&state, .enter)) == [.loadTranscript(Data.id(3), limit: 200)])
        #expect(state.focus == .transcript && state.selectedID == Data.id(3) && state.selectedIndex == 2)
        // A code from a conversation the list does not show (another filter) still opens it.
        Data.press(&state, .escape, .character("C"))
        _ = AppReducer.reduce(&state, .codesLoaded([Data.code("482913", in: 3), Data.code("111222", in: 42)]))
        Data.press(&state, .character("G"))
        #expect(Data.work(Data.press(&state, .enter)) == [.loadTranscript(Data.id(42), limit: 200)])
        #expect(state.focus == .transcript && state.selectedID == Data.id(3))
        // Nothing found, nothing opened.
        Data.press(&state, .escape, .character("C"))
        _ = AppReducer.reduce(&state, .codesLoaded([]))
        #expect(Data.work(Data.press(&state, .enter)) == [] && state.focus == .codes)
    }

    @Test("a sync while the drawer is open looks again; the chosen code stays chosen as a new one arrives")
    func codesAfterSync() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("C"))
        _ = AppReducer.reduce(&state, .codesLoaded([Data.code("482913", in: 3), Data.code("731-904", in: 4)]))
        Data.press(&state, .character("j"))
        let later = Data.nowMs + 30_000
        _ = AppReducer.reduce(&state, .tick(nowMs: later))
        #expect(Data.work(Data.press(&state, .character("S"))) == [.syncNow])
        let synced = Data.work(
            AppReducer.reduce(&state, .syncFinished(SyncSummary(finishedAtMs: later, pendingCount: 0, failedCount: 0))))
        #expect(synced.contains(.loadCodes(sinceMs: later - 86_400_000, limit: 50)))
        _ = AppReducer.reduce(
            &state,
            .codesLoaded([
                Data.code("555000", in: 5, minutesAgo: 0), Data.code("482913", in: 3), Data.code("731-904", in: 4),
            ]))
        #expect(state.codes.selected?.code == "731-904" && state.codes.selection == 2)
        // Closed, a sync leaves the codes alone.
        Data.press(&state, .escape)
        let closed = Data.work(
            AppReducer.reduce(&state, .syncFinished(SyncSummary(finishedAtMs: later, pendingCount: 0, failedCount: 0))))
        #expect(!closed.contains { if case .loadCodes = $0 { true } else { false } })
    }

    @Test("the drawer lists code, service, sender and age below the list, which stays in sight; errors show in it")
    func codesView() {
        var state = Data.state(columns: 80, rows: 20)
        Data.press(&state, .character("C"))
        _ = AppReducer.reduce(
            &state,
            .codesLoaded([Data.code("482913", in: 3), Data.code("731-904", in: 4, service: nil, minutesAgo: 90)]))
        let lines = Self.frame(state)
        #expect(lines.count == 20)
        #expect(lines.contains { $0.contains("Conversation 1") }, "the list above the drawer")
        let title = try! #require(lines.firstIndex { $0.hasPrefix("Codes from the last 24 hours") })
        #expect(lines[title - 1].hasPrefix("────"))
        // One marked row in the drawer; the list above keeps its own selection marked.
        let marked = lines[title...].filter { $0.hasPrefix("> ") }
        #expect(marked.count == 1)
        let first = try! #require(marked.first)
        #expect(first.hasPrefix("> 482913   GitHub") && first.hasSuffix("5 min ago"), "\(first)")
        // The sender's name repeats the service: the address says more. Without a service, the name.
        #expect(first.contains("noreply@github.com"))
        #expect(lines.contains { $0.hasPrefix("  731-904") && $0.contains(" GitHub ") && $0.contains("1 h ago") })
        #expect(lines.last?.contains("me@example.com") == true)

        _ = AppReducer.reduce(&state, .codesLoaded([]))
        #expect(Self.frame(state).contains { $0.contains("No codes in mail from the last 24 hours.") })
        _ = AppReducer.reduce(&state, .codesFailed("database is locked"))
        #expect(Self.frame(state).contains { $0.contains("database is locked") })
        #expect(state.status.lastError == nil && state.focus == .codes)
    }

    @Test("a cut list of codes says under its last code how many more the day holds, and where to see them")
    func codesDrawerMore() {
        var state = Data.state(columns: 80, rows: 13)
        Data.press(&state, .character("C"))
        let fifty = (0..<50).map { Data.code(String(100_000 + $0), in: 1, minutesAgo: Int64($0)) }
        _ = AppReducer.reduce(&state, .codesLoaded(fifty, omittedCount: 16))
        #expect(state.codes.omittedCount == 16)
        let note = "  16 more from the last 24 hours (chatmail codes --since 24h --limit 66)"
        #expect(!Self.frame(state).contains { $0.hasPrefix(note) }, "out of view at the top of the list")
        Data.press(&state, .character("G"))
        var lines = Self.frame(state)
        #expect(lines.contains { $0.hasPrefix("> 100049") })
        #expect(lines.contains { $0.hasPrefix(note) }, "\(lines.joined(separator: "\n"))")
        // The note is not a code: the selection stops at the last one.
        Data.press(&state, .character("j"))
        #expect(state.codes.selected?.code == "100049")
        _ = AppReducer.reduce(&state, .codesLoaded(Array(fifty.prefix(3))))
        lines = Self.frame(state)
        #expect(!lines.contains { $0.contains(" more ") }, "a complete list says nothing more")
    }

    @Test("the drawer takes at most two thirds of the panes, keeping the chosen code in view")
    func codesDrawerHeight() {
        var state = Data.state(columns: 80, rows: 13)
        Data.press(&state, .character("C"))
        let many = (0..<30).map { Data.code(String(100_000 + $0), in: 1, minutesAgo: Int64($0)) }
        _ = AppReducer.reduce(&state, .codesLoaded(many))
        Data.press(&state, .character("G"))
        let lines = Self.frame(state)
        let title = try! #require(lines.firstIndex { $0.hasPrefix("Codes from") })
        // 12 pane rows: 8 for the drawer (rule, title, six codes), 4 for the list.
        #expect(title == 5 && lines.dropFirst(title + 1).dropLast().count == 6)
        #expect(lines.contains { $0.hasPrefix("> 100029") })
        #expect(lines.contains { $0.contains("Conversation 1") })
    }
}
