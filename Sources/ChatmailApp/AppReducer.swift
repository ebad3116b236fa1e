import ChatmailStore
import TerminalKit
import TerminalUI
import TextFormatting

/// The app's behaviour: `(state, event) → state + effects`. It does no I/O and reads no clock, so every
/// key and every result can be tested by feeding events to a state.
public enum AppReducer {
    /// A progress note appears once work has run this long, so quick work never flickers one.
    public static let progressDelayMs: Int64 = 200

    /// What to do when the app starts: load the list and, for a Gmail mailbox, sync.
    public static func start(_ state: inout AppState) -> [AppEffect] {
        reloadList(&state) + requestSync(&state)
    }

    public static func reduce(_ state: inout AppState, _ event: AppEvent) -> [AppEffect] {
        // Several pieces of work may start at once; one wake-up serves them all.
        var scheduled = false
        return dispatch(&state, event).filter { effect in
            guard case .scheduleTick = effect else { return true }
            defer { scheduled = true }
            return !scheduled
        }
    }

    static func dispatch(_ state: inout AppState, _ event: AppEvent) -> [AppEffect] {
        switch event {
        case .terminal(.key(let key)): return self.key(&state, key)
        case .terminal(.resize(let size)):
            state.size = size
            measureTranscript(&state)
            return []
        case .terminal(.resumed): return [.redrawAll]
        case .terminal(.terminate): return [.quit]
        case .tick(let nowMs): return tick(&state, nowMs: nowMs)
        case .serverChanged: return requestSync(&state)
        default: return result(&state, event)
        }
    }

    /// Stamps work that started since the last tick, and starts the periodic sync when it is due.
    static func tick(_ state: inout AppState, nowMs: Int64) -> [AppEffect] {
        state.nowMs = nowMs
        var effects: [AppEffect] = []
        // Work is stamped at the first tick after it started, never before it, so the note can come late
        // but never early.
        if state.runningSince.count < state.running.count {
            for work in state.running where state.runningSince[work] == nil { state.runningSince[work] = nowMs }
            effects.append(.scheduleTick(afterMs: progressDelayMs))
        }
        guard let due = state.nextSyncAtMs else {
            state.nextSyncAtMs = nowMs + state.syncIntervalMs
            return effects
        }
        if nowMs >= due { effects += requestSync(&state) }
        return effects
    }

    static func key(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        if key == .control("c") { return [.quit] }
        // While an external editor has the text, the terminal belongs to it.
        if state.composer?.isInEditor == true { return [] }
        switch state.focus {
        case .list: return listKey(&state, key)
        case .transcript: return transcriptKey(&state, key)
        case .search: return searchKey(&state, key)
        case .composer: return composerKey(&state, key)
        case .pending: return pendingKey(&state, key)
        case .codes: return codesKey(&state, key)
        case .help:
            // Any key closes the overlay; it only lists keys.
            state.focus = state.helpReturnFocus
            return []
        }
    }

    // MARK: - List and transcript

    static func listKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        let page = max(1, state.layout.paneRows - 1)
        switch key {
        case .character("j"), .down: return select(&state, index: state.selectedIndex + 1)
        case .character("k"), .up: return select(&state, index: state.selectedIndex - 1)
        case .character("g"), .home: return select(&state, index: 0)
        case .character("G"), .end: return select(&state, index: state.conversations.count - 1)
        case .enter:
            guard let conversation = state.selectedConversation else { return [] }
            let effects = open(&state, conversation.id)
            state.focus = .transcript
            return effects
        case .pageDown, .pageUp, .character(" "):
            // With the transcript beside the list, paging reads it; alone, the list pages.
            if state.layout.isWide && state.transcript != nil {
                scroll(&state, by: key == .pageUp ? -pageSize(state) : pageSize(state))
                return []
            }
            return select(&state, index: state.selectedIndex + (key == .pageUp ? -page : page))
        default: return commonKey(&state, key)
        }
    }

    static func transcriptKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        switch key {
        case .character("j"), .down: scroll(&state, by: 1)
        case .character("k"), .up: scroll(&state, by: -1)
        case .character("g"), .home: scroll(&state, by: Int.min / 2)
        case .character("G"), .end: scroll(&state, by: Int.max / 2)
        case .pageDown, .character(" "): scroll(&state, by: pageSize(state))
        case .pageUp: scroll(&state, by: -pageSize(state))
        case .escape: state.focus = .list
        default: return commonKey(&state, key)
        }
        return []
    }

    /// The keys the list and the transcript share: actions, undo, the other modes, quitting.
    static func commonKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        switch key {
        case .character("q"): return [.quit]
        case .character("?"): enter(&state, .help)
        case .character("/"):
            state.search = SearchState()
            enter(&state, .search)
        case .character("e"):
            guard let target = state.actionTarget else { return [] }
            return perform(&state, target.isArchived ? .unarchive : .archive, on: target)
        case .character("u"):
            guard let target = state.actionTarget else { return [] }
            return perform(&state, target.unreadCount > 0 ? .read : .unread, on: target)
        case .character("s"):
            guard let target = state.actionTarget else { return [] }
            return perform(&state, isStarred(target.id, in: state) ? .unstar : .star, on: target)
        case .character("#"):
            guard let target = state.actionTarget else { return [] }
            return perform(&state, .trash, on: target)
        case .character("U"):
            guard let last = state.lastAction else {
                state.status.note = "Nothing to undo."
                return []
            }
            state.lastAction = nil
            return [.undo(last)] + begin(&state, .action)
        case .character("r"):
            guard let target = state.actionTarget else { return [] }
            state.composer = Composer(purpose: .reply(target.id, title: target.title))
            enter(&state, .composer)
        case .character("c"):
            state.composer = Composer(purpose: .newMessage)
            enter(&state, .composer)
        case .character("f"):
            state.filter = state.filter.next
            return reloadList(&state)
        case .character("p"):
            enter(&state, .pending)
            return [.loadPending] + begin(&state, .pending)
        case .character("C"):
            state.codes = CodesState()
            enter(&state, .codes)
            return loadCodes(&state)
        case .character("S"):
            switch state.origin {
            case .synced: return requestSync(&state)
            case .local: state.status.note = MailboxOrigin.localSyncNote
            }
        default: break
        }
        return []
    }

    // MARK: - Helpers

    /// Moves to `mode`, remembering where Esc returns to.
    static func enter(_ state: inout AppState, _ mode: Focus) {
        if mode == .help {
            state.helpReturnFocus = state.focus
            state.focus = .help
            return
        }
        if state.focus == .list || state.focus == .transcript { state.returnFocus = state.focus }
        state.focus = mode
    }

    /// Selects the row at `index` (clamped); beside the list, the selected conversation opens on the right.
    static func select(_ state: inout AppState, index: Int) -> [AppEffect] {
        guard !state.conversations.isEmpty else { return [] }
        let clamped = min(max(0, index), state.conversations.count - 1)
        let id = state.conversations[clamped].id
        let changed = id != state.selectedID
        state.selectedIndex = clamped
        state.selectedID = id
        guard changed, state.layout.isWide else { return [] }
        return open(&state, id)
    }

    /// Opens a conversation (scrolled to `message`, or following its newest message) and loads it.
    static func open(_ state: inout AppState, _ id: ConversationID, at message: MessageID? = nil) -> [AppEffect] {
        if message == nil, state.transcript?.id == id { return [] }
        state.transcript = OpenTranscript(id: id, targetMessage: message)
        return [.loadTranscript(id, limit: state.transcriptLimit)] + begin(&state, .loading)
    }

    static func perform(_ state: inout AppState, _ kind: PendingActionKind, on target: ConversationSummary)
        -> [AppEffect]
    {
        state.status.note = nil
        return [.perform(kind, conversation: target.id, title: target.title)] + begin(&state, .action)
    }

    /// Whether the open transcript of `id` has a starred message: `s` then unstars. The list's rows do
    /// not carry stars, so an unopened conversation is starred.
    static func isStarred(_ id: ConversationID, in state: AppState) -> Bool {
        guard let transcript = state.transcript?.transcript, transcript.conversation.id == id else { return false }
        return transcript.messages.contains { $0.labels.contains("STARRED") }
    }

    /// Rows a page scrolls: the pane's height less one line kept for context.
    static func pageSize(_ state: AppState) -> Int { max(1, state.layout.paneRows - 1) }

    /// Scrolls the transcript by `lines`, clamped to its length; reaching the end follows new messages.
    static func scroll(_ state: inout AppState, by lines: Int) {
        guard var open = state.transcript else { return }
        let bottom = max(0, open.lineCount - state.layout.paneRows)
        let top = open.followsBottom ? bottom : open.top
        open.top = min(max(0, top + lines), bottom)
        open.followsBottom = open.top >= bottom
        state.transcript = open
    }

    /// Measures the open transcript at the current width and places it: at a message it was opened at,
    /// at the bottom when following, else where it was, clamped.
    static func measureTranscript(_ state: inout AppState) {
        guard var open = state.transcript, let transcript = open.transcript else { return }
        let width = state.layout.transcriptWidth
        let time = TimeFormatting(timeZone: state.timeZone, nowMs: state.nowMs)
        open.lineCount = TranscriptPane.lineCount(transcript, width: width, glyphs: state.glyphs, time: time)
        let bottom = max(0, open.lineCount - state.layout.paneRows)
        if let message = open.targetMessage {
            open.targetMessage = nil
            if let line = TranscriptPane.startLine(
                of: message, in: transcript, width: width, glyphs: state.glyphs, time: time)
            {
                open.top = min(line, bottom)
                open.followsBottom = open.top >= bottom
            } else {
                // Older than the loaded messages: the newest are the next best thing.
                open.followsBottom = true
            }
        }
        open.top = open.followsBottom ? bottom : min(open.top, bottom)
        state.transcript = open
    }

    /// Marks `work` as running; the first tick stamps it, and a progress note follows if it is slow.
    static func begin(_ state: inout AppState, _ work: Work) -> [AppEffect] {
        state.running.insert(work)
        state.runningSince[work] = nil
        return [.scheduleTick(afterMs: progressDelayMs)]
    }

    static func finish(_ state: inout AppState, _ work: Work) {
        state.running.remove(work)
        state.runningSince[work] = nil
    }

    /// Syncs now, or once more after the sync that is running, which may have missed the new work. A local
    /// mailbox never syncs: every caller (the start, the tick, actions, sends) goes through here.
    static func requestSync(_ state: inout AppState) -> [AppEffect] {
        guard case .synced = state.origin else { return [] }
        state.nextSyncAtMs = state.nowMs + state.syncIntervalMs
        if state.running.contains(.sync) {
            state.syncRequestedWhileRunning = true
            return []
        }
        return [.syncNow] + begin(&state, .sync)
    }

    /// Reloads the list, and the screener's count with it: whatever changed the one may change the other.
    static func reloadList(_ state: inout AppState) -> [AppEffect] {
        [.loadConversations(state.filter.conversationFilter(limit: state.listLimit)), .loadScreener]
            + begin(&state, .loading)
    }

    /// Reloads the open transcript, keeping its place.
    static func reloadTranscript(_ state: inout AppState) -> [AppEffect] {
        guard let open = state.transcript else { return [] }
        return [.loadTranscript(open.id, limit: state.transcriptLimit)] + begin(&state, .loading)
    }
}
