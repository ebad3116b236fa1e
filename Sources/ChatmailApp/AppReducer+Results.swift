import ChatmailStore
import RecordViews

extension AppReducer {
    /// The answers to effects. A stale answer (a list for a filter no longer chosen, a transcript no
    /// longer open, hits for a query since changed) is dropped: a newer request is on its way.
    static func result(_ state: inout AppState, _ event: AppEvent) -> [AppEffect] {
        switch event {
        case .conversationsLoaded(let filter, let conversations):
            guard filter == state.filter.conversationFilter(limit: state.listLimit) else { return [] }
            finish(&state, .loading)
            return listLoaded(&state, conversations)
        case .transcriptLoaded(let transcript):
            guard var open = state.transcript, open.id == transcript.conversation.id else { return [] }
            finish(&state, .loading)
            open.transcript = transcript
            state.transcript = open
            measureTranscript(&state)
        case .screenerLoaded(let screener):
            state.screener = screener
        case .loadFailed(let message):
            finish(&state, .loading)
            state.status.lastError = message
        case .codesLoaded(let hits, let omittedCount):
            finish(&state, .codes)
            // A new code arrives at the top: the chosen one stays chosen where it moved to.
            let chosen = state.codes.selected?.gmailID
            state.codes.hits = hits
            state.codes.omittedCount = omittedCount
            state.codes.isLoaded = true
            state.codes.error = nil
            state.codes.selection =
                hits.firstIndex { $0.gmailID == chosen } ?? min(state.codes.selection, max(0, hits.count - 1))
        case .codesFailed(let message):
            finish(&state, .codes)
            state.codes.isLoaded = true
            state.codes.error = message
        case .searchResults(let query, let hits):
            guard query == state.search.query, state.focus == .search else { return [] }
            finish(&state, .search)
            state.search.hits = hits
            state.search.hitsQuery = query
            state.search.error = nil
            state.search.selection = min(state.search.selection, max(0, hits.count - 1))
            if state.search.opensOnArrival { return openSelectedHit(&state) }
        case .searchFailed(let query, let message):
            guard query == state.search.query, state.focus == .search else { return [] }
            finish(&state, .search)
            state.search.hits = []
            state.search.hitsQuery = query
            state.search.opensOnArrival = false
            state.search.error = message
        case .actionFinished(let report):
            finish(&state, .action)
            state.lastAction =
                report.isUndo
                ? nil
                : LastAction(
                    kind: report.kind, conversation: report.conversation, title: report.title,
                    actionIDs: report.actionIDs)
            state.status.note = note(for: report)
            state.status.lastError = nil
            return reloadList(&state) + reloadTranscript(&state) + requestSync(&state)
        case .actionFailed(let message):
            finish(&state, .action)
            state.status.lastError = message
        case .syncStarted:
            state.running.insert(.sync)
        case .syncFinished(let report):
            finish(&state, .sync)
            state.status.lastSyncAtMs = report.finishedAtMs
            state.status.pendingCount = report.pendingCount
            state.status.failedCount = report.failedCount
            state.status.isOffline = false
            state.status.lastError = nil
            var effects = reloadList(&state) + reloadTranscript(&state)
            if state.focus == .pending { effects += [.loadPending] + begin(&state, .pending) }
            // A code being waited for arrives with a sync: the open pane shows it without a key.
            if state.focus == .codes { effects += loadCodes(&state) }
            if state.syncRequestedWhileRunning {
                state.syncRequestedWhileRunning = false
                effects += requestSync(&state)
            }
            return effects
        case .syncFailed(let message, let isOffline):
            finish(&state, .sync)
            // The next tick tries again; retrying at once would only fail the same way.
            state.syncRequestedWhileRunning = false
            state.status.isOffline = isOffline
            state.status.lastError = message
        case .pendingLoaded(let actions):
            finish(&state, .pending)
            state.pending.actions = actions
            state.pending.selection = min(state.pending.selection, max(0, actions.count - 1))
            state.status.pendingCount = actions.count { $0.status == .pending || $0.status == .processing }
            state.status.failedCount = actions.count { $0.status == .failed || $0.status == .abandoned }
        case .pendingChanged(let note):
            finish(&state, .pending)
            state.status.note = note
            return [.loadPending] + begin(&state, .pending) + reloadList(&state) + requestSync(&state)
        case .pendingFailed(let message):
            finish(&state, .pending)
            state.status.lastError = message
        case .sendFinished(let note):
            finish(&state, .send)
            state.sentDraft = nil
            state.status.note = note
            state.status.lastError = nil
            return reloadList(&state) + reloadTranscript(&state) + requestSync(&state)
        case .sendFailed(let message):
            finish(&state, .send)
            state.status.lastError = message
            // Nothing typed is lost: the draft comes back for another try.
            if let draft = state.sentDraft, state.composer == nil {
                state.composer = draft
                // Focused wherever the user is, or the composer would sit on screen out of reach.
                enter(&state, .composer)
            }
            state.sentDraft = nil
        case .editorFinished(let text):
            state.composer?.isInEditor = false
            if let text { state.composer?.replaceText(text) }
        case .terminal, .tick, .serverChanged:
            break
        }
        return []
    }

    /// Puts a freshly loaded list in place, keeping the selected conversation selected wherever it moved,
    /// or the same row when it left the list.
    static func listLoaded(_ state: inout AppState, _ conversations: [ConversationSummary]) -> [AppEffect] {
        state.conversations = conversations
        guard !conversations.isEmpty else {
            state.selectedID = nil
            state.selectedIndex = 0
            return []
        }
        if let id = state.selectedID, let index = conversations.firstIndex(where: { $0.id == id }) {
            state.selectedIndex = index
            return []
        }
        state.selectedIndex = min(max(0, state.selectedIndex), conversations.count - 1)
        state.selectedID = conversations[state.selectedIndex].id
        // Beside the list, the right pane shows the selection, unless the user is reading another one.
        guard state.layout.isWide, state.focus != .transcript else { return [] }
        return open(&state, conversations[state.selectedIndex].id)
    }

    /// "Archived: “Lunch” (U undoes)", in the words the commands use; "Undone: archive “Lunch”".
    static func note(for report: ActionReport) -> String {
        let title = "“" + report.title + "”"
        if report.isUndo { return "Undone: " + report.kind.rawValue + " " + title }
        return report.kind.pastTense + ": " + title + " (U undoes)"
    }
}
