import ChatmailApp
import ChatmailStore
import TerminalKit
import Testing

@Suite("App reducer: list, transcript, actions, sync")
struct AppReducerTests {
    typealias Data = AppTestData

    @Test("start loads the inbox and the screener's count, and syncs")
    func start() {
        var state = AppState(account: "me@example.com", size: TerminalSize(columns: 120, rows: 30))
        let effects = Data.work(AppReducer.start(&state))
        #expect(effects == [.loadConversations(ConversationFilter(limit: 500)), .loadScreener, .syncNow])
    }

    @Test("j, k, arrows, g and G move the selection, clamped at both ends")
    func movement() {
        var state = Data.state(columns: 80)
        #expect(state.selectedID == Data.id(1))
        Data.press(&state, .character("j"), .down)
        #expect(state.selectedID == Data.id(3))
        Data.press(&state, .character("k"))
        #expect(state.selectedID == Data.id(2))
        Data.press(&state, .up, .up, .up)
        #expect(state.selectedIndex == 0)
        Data.press(&state, .character("G"))
        #expect(state.selectedID == Data.id(5))
        Data.press(&state, .character("j"))
        #expect(state.selectedID == Data.id(5))
        Data.press(&state, .character("g"))
        #expect(state.selectedID == Data.id(1))
    }

    @Test("wide: moving opens the selected conversation on the right; narrow: only Enter does")
    func wideSelectionLoadsTranscript() {
        var wide = Data.state(columns: 120)
        #expect(Data.work(Data.press(&wide, .character("j"))) == [.loadTranscript(Data.id(2), limit: 200)])
        #expect(wide.focus == .list)
        var narrow = Data.state(columns: 80)
        #expect(Data.work(Data.press(&narrow, .character("j"))) == [])
        #expect(Data.work(Data.press(&narrow, .enter)) == [.loadTranscript(Data.id(2), limit: 200)])
        #expect(narrow.focus == .transcript)
    }

    @Test("narrow: Enter opens the conversation, Esc goes back to the list")
    func narrowEnterEscape() {
        var state = Data.state(columns: 60)
        Data.press(&state, .enter)
        #expect(state.focus == .transcript && state.transcript?.id == Data.id(1))
        Data.press(&state, .escape)
        #expect(state.focus == .list)
    }

    @Test("the selection follows its conversation across reloads and keeps its row when it leaves")
    func selectionAcrossReloads() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("j"), .character("j"))
        #expect(state.selectedID == Data.id(3))
        let filter = ListFilter.inbox.conversationFilter(limit: 500)
        // Conversation 3 moves to the top (a new message): still selected.
        let reordered = [Data.summary(3)] + Data.list(5).filter { $0.id != Data.id(3) }
        _ = AppReducer.reduce(&state, .conversationsLoaded(filter, reordered))
        #expect(state.selectedID == Data.id(3) && state.selectedIndex == 0)
        Data.press(&state, .character("G"))
        // The last one is archived away: the selection stays on the last row, clamped.
        _ = AppReducer.reduce(&state, .conversationsLoaded(filter, Array(reordered.dropLast())))
        #expect(state.selectedIndex == 3 && state.selectedID == reordered[3].id)
        _ = AppReducer.reduce(&state, .conversationsLoaded(filter, []))
        #expect(state.selectedID == nil)
    }

    @Test("a list loaded for another filter is dropped")
    func staleListDropped() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("f"))
        _ = AppReducer.reduce(&state, .conversationsLoaded(ListFilter.inbox.conversationFilter(limit: 500), []))
        #expect(state.conversations.count == 5)
    }

    @Test("f cycles inbox, unread, people, lists, newsletters, all, screener and back, loading each and the count")
    func filterCycle() {
        var state = Data.state(columns: 80)
        let expected: [(ListFilter, ConversationFilter)] = [
            (.unread, ConversationFilter(unreadOnly: true, limit: 500)),
            (.people, ConversationFilter(kind: .people, lists: .excluded, limit: 500)),
            (.lists, ConversationFilter(lists: .only, limit: 500)),
            (.newsletters, ConversationFilter(kind: .newsletters, limit: 500)),
            (.all, ConversationFilter(visibility: .all, limit: 500)),
            (.screener, ConversationFilter(section: .screener, limit: 500)),
            (.inbox, ConversationFilter(limit: 500)),
        ]
        for (filter, storeFilter) in expected {
            #expect(Data.work(Data.press(&state, .character("f"))) == [.loadConversations(storeFilter), .loadScreener])
            #expect(state.filter == filter)
        }
    }

    @Test("scrolling: opens at the bottom, PgUp leaves it, and a reload keeps the place")
    func scrollingAndStickiness() {
        var state = Data.state(columns: 60, rows: 20)
        Data.press(&state, .enter)
        _ = AppReducer.reduce(&state, .transcriptLoaded(Data.transcript(1, messages: 12)))
        let open = try! #require(state.transcript)
        #expect(open.followsBottom && open.lineCount > 40)
        let bottom = open.lineCount - state.layout.paneRows
        #expect(open.top == bottom)
        Data.press(&state, .pageUp)
        #expect(state.transcript?.top == bottom - 18 && state.transcript?.followsBottom == false)
        Data.press(&state, .character("k"))
        #expect(state.transcript?.top == bottom - 19)
        // New messages while scrolled up: the place stays.
        _ = AppReducer.reduce(&state, .transcriptLoaded(Data.transcript(1, messages: 14)))
        #expect(state.transcript?.top == bottom - 19 && state.transcript?.followsBottom == false)
        Data.press(&state, .character("g"))
        #expect(state.transcript?.top == 0)
        Data.press(&state, .character("G"))
        #expect(state.transcript?.followsBottom == true)
        // At the bottom, new messages scroll into view.
        _ = AppReducer.reduce(&state, .transcriptLoaded(Data.transcript(1, messages: 16)))
        let grown = try! #require(state.transcript)
        #expect(grown.followsBottom && grown.top == grown.lineCount - state.layout.paneRows && grown.top > bottom)
        Data.press(&state, .pageUp, .pageDown)
        #expect(state.transcript?.followsBottom == true)
        Data.press(&state, .pageUp, .character(" "))
        #expect(state.transcript?.followsBottom == true)
    }

    @Test("a resize recomputes the layout and keeps the bottom in view")
    func resize() {
        var state = Data.state(columns: 120, rows: 30)
        var transcript = Data.transcript(1, messages: 10)
        transcript.messages[3].text = String(repeating: "words that wrap ", count: 20)
        _ = AppReducer.reduce(&state, .transcriptLoaded(transcript))
        let wideLines = try! #require(state.transcript?.lineCount)
        #expect(state.layout.isWide)
        _ = AppReducer.reduce(&state, .terminal(.resize(TerminalSize(columns: 50, rows: 12))))
        #expect(!state.layout.isWide)
        let open = try! #require(state.transcript)
        #expect(open.lineCount != wideLines && open.top == open.lineCount - 11)
    }

    @Test("a transcript for a conversation no longer open is dropped")
    func staleTranscript() {
        var state = Data.state(columns: 120)
        Data.press(&state, .character("j"))
        _ = AppReducer.reduce(&state, .transcriptLoaded(Data.transcript(1, messages: 2)))
        #expect(state.transcript?.id == Data.id(2) && state.transcript?.transcript == nil)
    }

    @Test("e, u, s and # act on the selection; each result reloads and syncs")
    func actions() {
        var state = Data.state(columns: 80)
        let title = "Conversation 1"
        #expect(
            Data.work(Data.press(&state, .character("e"))) == [
                .perform(.archive, conversation: Data.id(1), title: title)
            ])
        #expect(
            Data.work(Data.press(&state, .character("u"))) == [
                .perform(.unread, conversation: Data.id(1), title: title)
            ])
        #expect(
            Data.work(Data.press(&state, .character("s"))) == [.perform(.star, conversation: Data.id(1), title: title)])
        #expect(
            Data.work(Data.press(&state, .character("#"))) == [.perform(.trash, conversation: Data.id(1), title: title)]
        )
        // Unread conversations are marked read, archived ones go back to the inbox.
        _ = AppReducer.reduce(
            &state,
            .conversationsLoaded(
                ListFilter.inbox.conversationFilter(limit: 500), [Data.summary(1, unread: 2, archived: true)]))
        #expect(
            Data.work(Data.press(&state, .character("u"))) == [.perform(.read, conversation: Data.id(1), title: title)])
        #expect(
            Data.work(Data.press(&state, .character("e")))
                == [.perform(.unarchive, conversation: Data.id(1), title: title)])
        let report = ActionReport(
            kind: .archive, conversation: Data.id(1), title: title, actionIDs: [PendingActionID(rawValue: 9)],
            messagesChanged: 2)
        let effects = Data.work(AppReducer.reduce(&state, .actionFinished(report)))
        #expect(effects == [.loadConversations(ConversationFilter(limit: 500)), .loadScreener, .syncNow])
        #expect(state.status.note == "Archived: “Conversation 1” (U undoes)")
    }

    @Test("s unstars an open conversation that has a starred message")
    func unstar() {
        var state = Data.state(columns: 120)
        var transcript = Data.transcript(1, messages: 2)
        transcript.messages[0].labels.append("STARRED")
        _ = AppReducer.reduce(&state, .transcriptLoaded(transcript))
        Data.press(&state, .enter)
        #expect(
            Data.work(Data.press(&state, .character("s")))
                == [.perform(.unstar, conversation: Data.id(1), title: "Conversation 1")])
    }

    @Test("U undoes the last action once, with its kind, conversation and queued action ids")
    func undo() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("U"))
        #expect(state.status.note == "Nothing to undo.")
        let ids = [PendingActionID(rawValue: 4), PendingActionID(rawValue: 5)]
        _ = AppReducer.reduce(
            &state,
            .actionFinished(
                ActionReport(kind: .trash, conversation: Data.id(2), title: "Lunch", actionIDs: ids, messagesChanged: 3)
            ))
        let expected = LastAction(kind: .trash, conversation: Data.id(2), title: "Lunch", actionIDs: ids)
        #expect(Data.work(Data.press(&state, .character("U"))) == [.undo(expected)])
        #expect(Data.work(Data.press(&state, .character("U"))) == [])
        // The undo's own result is not undone in turn.
        _ = AppReducer.reduce(
            &state,
            .actionFinished(
                ActionReport(
                    kind: .untrash, conversation: Data.id(2), title: "Lunch", actionIDs: [], messagesChanged: 3,
                    isUndo: true)))
        #expect(state.lastAction == nil)
    }

    @Test("a tick starts a sync every interval; a sync asked for while one runs follows it")
    func periodicSync() {
        var state = AppState(account: "a", size: TerminalSize(columns: 80, rows: 24), nowMs: 0, syncIntervalMs: 60_000)
        #expect(Data.work(AppReducer.reduce(&state, .tick(nowMs: 1_000))) == [])
        #expect(Data.work(AppReducer.reduce(&state, .tick(nowMs: 30_000))) == [])
        #expect(Data.work(AppReducer.reduce(&state, .tick(nowMs: 61_000))) == [.syncNow])
        // Running: S waits for it, then one more sync runs.
        #expect(Data.work(Data.press(&state, .character("S"))) == [])
        let effects = Data.work(
            AppReducer.reduce(&state, .syncFinished(SyncSummary(finishedAtMs: 62_000, pendingCount: 2, failedCount: 1)))
        )
        #expect(effects == [.loadConversations(ConversationFilter(limit: 500)), .loadScreener, .syncNow])
        #expect(state.status.lastSyncAtMs == 62_000 && state.status.pendingCount == 2 && state.status.failedCount == 1)
        _ = AppReducer.reduce(&state, .syncFailed(message: "Could not reach Gmail", isOffline: true))
        #expect(state.status.isOffline && state.status.lastError == "Could not reach Gmail")
        // The next due tick tries again.
        #expect(Data.work(AppReducer.reduce(&state, .tick(nowMs: 62_000 + 60_000))) == [.syncNow])
    }

    @Test("the progress note shows only once work has run 200 ms past a tick")
    func progressNote() {
        var state = Data.state(columns: 80)
        #expect(state.running.isEmpty)
        let effects = Data.press(&state, .character("e"))
        #expect(effects.contains(.scheduleTick(afterMs: 200)))
        #expect(effects.count { if case .scheduleTick = $0 { true } else { false } } <= 1)
        _ = AppReducer.reduce(&state, .tick(nowMs: Data.nowMs + 10))
        #expect(state.progressNote == nil)
        _ = AppReducer.reduce(&state, .tick(nowMs: Data.nowMs + 250))
        #expect(state.progressNote == "Working…")
        _ = AppReducer.reduce(&state, .actionFailed("database is locked"))
        #expect(state.progressNote == nil && state.status.lastError == "database is locked")
    }

    @Test("q, Ctrl-C and SIGTERM quit; a resume redraws everything")
    func quitting() {
        var state = Data.state(columns: 80)
        #expect(Data.press(&state, .character("q")) == [.quit])
        #expect(Data.press(&state, .control("c")) == [.quit])
        #expect(AppReducer.reduce(&state, .terminal(.terminate)) == [.quit])
        #expect(AppReducer.reduce(&state, .terminal(.resumed)) == [.redrawAll])
    }

    @Test("? opens the help over any mode and any key closes it")
    func help() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("p"))
        Data.press(&state, .character("?"))
        #expect(state.focus == .help)
        Data.press(&state, .character("x"))
        #expect(state.focus == .pending)
    }
}
