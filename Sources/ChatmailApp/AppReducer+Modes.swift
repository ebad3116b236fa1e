import ChatmailStore
import Foundation
import TerminalKit

extension AppReducer {
    // MARK: - Search

    /// Typing edits the query and searches at once; arrows choose a hit; Enter opens it; Esc cancels.
    static func searchKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        switch key {
        case .character(let character):
            state.search.query.append(character)
            return queryChanged(&state)
        case .paste(let text):
            state.search.query += text.map { $0.isNewline ? " " : $0 }
            return queryChanged(&state)
        case .backspace:
            guard !state.search.query.isEmpty else { return [] }
            state.search.query.removeLast()
            return queryChanged(&state)
        case .down, .control("n"), .tab:
            state.search.selection = min(state.search.selection + 1, max(0, state.search.hits.count - 1))
        case .up, .control("p"), .backTab:
            state.search.selection = max(0, state.search.selection - 1)
        case .enter:
            // Hits of an earlier query are not what the person asked for: wait for the current query's.
            guard state.search.hitsQuery == state.search.query else {
                state.search.opensOnArrival = true
                return []
            }
            return openSelectedHit(&state)
        case .escape:
            state.search = SearchState()
            finish(&state, .search)
            state.focus = state.returnFocus
        default: break
        }
        return []
    }

    /// Opens the chosen hit in its conversation, at the message, and leaves search; nothing without hits.
    static func openSelectedHit(_ state: inout AppState) -> [AppEffect] {
        state.search.opensOnArrival = false
        guard state.search.hits.indices.contains(state.search.selection) else { return [] }
        let hit = state.search.hits[state.search.selection]
        let id = hit.conversation.id
        if let index = state.conversations.firstIndex(where: { $0.id == id }) {
            state.selectedIndex = index
            state.selectedID = id
        }
        state.search = SearchState()
        finish(&state, .search)
        state.focus = .transcript
        return open(&state, id, at: hit.messageID)
    }

    /// A new query searches; an empty one shows nothing rather than everything.
    static func queryChanged(_ state: inout AppState) -> [AppEffect] {
        state.search.selection = 0
        state.search.error = nil
        guard !state.search.query.trimmingCharacters(in: .whitespaces).isEmpty else {
            state.search.hits = []
            state.search.hitsQuery = state.search.query
            finish(&state, .search)
            return []
        }
        return [.search(state.search.query)] + begin(&state, .search)
    }

    // MARK: - Composer

    static func composerKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        guard var composer = state.composer else {
            state.focus = state.returnFocus
            return []
        }
        var effects: [AppEffect] = []
        switch key {
        case .character(let character): composer.insert(String(character))
        case .paste(let text): composer.insert(text)
        case .altEnter:
            if composer.stage == .text { composer.insert("\n") }
        case .backspace: composer.deleteBackward()
        case .delete: composer.deleteForward()
        case .left: composer.moveLeft()
        case .right: composer.moveRight()
        case .home, .control("a"): composer.moveToLineStart()
        case .end: composer.moveToLineEnd()
        case .control("e"):
            guard composer.stage == .text else { break }
            composer.isInEditor = true
            effects = [.openEditor(composer.text)]
        case .escape:
            state.composer = nil
            state.focus = state.returnFocus
            return []
        case .enter:
            return submit(&state, composer)
        default: break
        }
        state.composer = composer
        return effects
    }

    /// Enter: the next field of a new message, or hands the text on and closes the composer. Nothing
    /// typed, nothing sent.
    static func submit(_ state: inout AppState, _ composer: Composer) -> [AppEffect] {
        var composer = composer
        switch composer.stage {
        case .addresses:
            let addresses = composer.typedAddresses
            guard !addresses.isEmpty else { return [] }
            composer.addresses = addresses
            composer.stage = .subject
            composer.replaceText(composer.subject)
            state.composer = composer
            return []
        case .subject:
            composer.subject = composer.trimmedText
            composer.stage = .text
            composer.replaceText("")
            state.composer = composer
            return []
        case .text:
            let text = composer.trimmedText
            guard !text.isEmpty else { return [] }
            state.sentDraft = composer
            state.composer = nil
            state.focus = state.returnFocus
            let effect: AppEffect =
                switch composer.purpose {
                case .reply(let id, _): .reply(id, text: text)
                case .newMessage: .send(addresses: composer.addresses, subject: composer.subject, text: text)
                }
            return [effect] + begin(&state, .send)
        }
    }

    // MARK: - Pending queue

    static func pendingKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        let last = max(0, state.pending.actions.count - 1)
        switch key {
        case .character("j"), .down: state.pending.selection = min(state.pending.selection + 1, last)
        case .character("k"), .up: state.pending.selection = max(0, state.pending.selection - 1)
        case .character("g"), .home: state.pending.selection = 0
        case .character("G"), .end: state.pending.selection = last
        case .character("R"):
            guard let action = state.pending.selected else { return [] }
            return [.retryPending(action.id)] + begin(&state, .pending)
        case .character("D"):
            guard let action = state.pending.selected else { return [] }
            return [.dismissPending(action.id)] + begin(&state, .pending)
        case .character("S"): return requestSync(&state)
        case .character("?"): enter(&state, .help)
        case .character("q"): return [.quit]
        case .escape: state.focus = state.returnFocus
        default: break
        }
        return []
    }

    // MARK: - Codes

    /// How far back `C` looks for codes: they expire within minutes, so a day holds every live one.
    static let codesWindowMs: Int64 = 24 * 3_600_000
    /// The most codes the pane lists.
    static let codesLimit = 50

    static func codesKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        let last = max(0, state.codes.hits.count - 1)
        switch key {
        case .character("j"), .down: state.codes.selection = min(state.codes.selection + 1, last)
        case .character("k"), .up: state.codes.selection = max(0, state.codes.selection - 1)
        case .character("g"), .home: state.codes.selection = 0
        case .character("G"), .end: state.codes.selection = last
        case .enter:
            guard let hit = state.codes.selected else { return [] }
            if let index = state.conversations.firstIndex(where: { $0.id == hit.conversation }) {
                state.selectedIndex = index
                state.selectedID = hit.conversation
            }
            state.focus = .transcript
            return open(&state, hit.conversation)
        case .character("S"): return requestSync(&state)
        case .character("?"): enter(&state, .help)
        case .character("q"): return [.quit]
        case .escape:
            finish(&state, .codes)
            state.focus = state.returnFocus
        default: break
        }
        return []
    }

    /// Asks for the codes of the last day, as of the last tick.
    static func loadCodes(_ state: inout AppState) -> [AppEffect] {
        [.loadCodes(sinceMs: state.nowMs - codesWindowMs, limit: codesLimit)] + begin(&state, .codes)
    }
}
