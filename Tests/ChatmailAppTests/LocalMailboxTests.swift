import ChatmailApp
import ChatmailStore
import TerminalKit
import TerminalUI
import Testing

/// A mailbox with no login (imported mail) is a normal state: the reducer never asks for a sync, on any
/// path, and the status line says quietly that the mailbox is local.
@Suite("App: a local mailbox")
struct LocalMailboxTests {
    typealias Data = AppTestData

    static func localState(columns: Int = 120, account: String = "me@example.com") -> AppState {
        var state = AppState(
            account: account, origin: .local, size: TerminalSize(columns: columns, rows: 24), timeZone: Data.utc,
            nowMs: Data.nowMs, syncIntervalMs: 60_000)
        _ = AppReducer.start(&state)
        _ = AppReducer.reduce(
            &state, .conversationsLoaded(ListFilter.inbox.conversationFilter(limit: 500), Data.list(3)))
        return state
    }

    static func syncs(_ effects: [AppEffect]) -> Bool { effects.contains(.syncNow) }

    @Test("no path emits a sync: the start, periodic ticks, S, actions, sends and queue changes")
    func neverSyncs() {
        var state = AppState(account: "me@example.com", origin: .local, size: TerminalSize(columns: 120, rows: 24))
        let start = AppReducer.start(&state)
        #expect(!Self.syncs(start) && start.contains(.loadScreener), "the list still loads: \(start)")
        #expect(!state.running.contains(.sync))

        var state2 = Self.localState()
        for minute in 0...5 {
            #expect(!Self.syncs(AppReducer.reduce(&state2, .tick(nowMs: Data.nowMs + Int64(minute) * 61_000))))
        }
        #expect(!Self.syncs(Data.press(&state2, .character("S"))))
        #expect(!Self.syncs(Data.press(&state2, .character("e"))))
        let report = ActionReport(
            kind: .archive, conversation: Data.id(1), title: "Lunch", actionIDs: [], messagesChanged: 1)
        #expect(!Self.syncs(AppReducer.reduce(&state2, .actionFinished(report))))
        #expect(!Self.syncs(AppReducer.reduce(&state2, .sendFinished("Queued for pat@example.net."))))
        #expect(!Self.syncs(AppReducer.reduce(&state2, .pendingChanged("Requeued #1."))))
        #expect(!state2.running.contains(.sync) && state2.status.lastError == nil)
    }

    @Test("S says quietly that there is nothing to sync, which is no error")
    func syncKeyNote() {
        var state = Self.localState()
        #expect(Data.work(Data.press(&state, .character("S"))) == [])
        #expect(state.status.note == MailboxOrigin.localSyncNote)
        #expect(state.status.lastError == nil && state.progressNote == nil)
    }

    @Test("the same keys on a Gmail mailbox still sync")
    func gmailStillSyncs() {
        var state = Data.state()
        #expect(state.origin == .synced)
        #expect(Data.work(Data.press(&state, .character("S"))) == [.syncNow])
    }

    @Test("at 80 columns the status line keeps a long account whole, says local mailbox, and shows no error")
    func statusLine() {
        let account = StatusLineTests.account
        var state = Self.localState(columns: 80, account: account)
        var line = StatusLineTests.statusLine(state)
        #expect(line.hasPrefix(" \(account) · Inbox · local mailbox "), "\(line)")
        #expect(line.hasSuffix(" ? help "), "\(line)")
        #expect(!line.contains("Error") && !line.contains("not synced"), "\(line)")

        // The note after S is long: it is shortened, the account is not.
        Data.press(&state, .character("S"))
        line = StatusLineTests.statusLine(state)
        #expect(DisplayWidth.of(line) == 80, "\(line)")
        #expect(line.hasPrefix(" \(account) "), "\(line)")
        #expect(line.contains("Local mailbox: nothing to sync") && !line.contains("Error"), "\(line)")
    }
}
