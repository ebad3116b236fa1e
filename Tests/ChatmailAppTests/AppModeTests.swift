import ChatmailApp
import ChatmailStore
import TerminalKit
import Testing

@Suite("App reducer: search, composer, pending queue")
struct AppModeTests {
    typealias Data = AppTestData

    // MARK: - Search

    @Test("each keystroke searches; stale results are dropped; Enter opens the hit at its message")
    func searchFlow() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("/"))
        #expect(state.focus == .search)
        #expect(Data.work(Data.type(&state, "lu")) == [.search("l"), .search("lu")])
        _ = AppReducer.reduce(&state, .searchResults(query: "l", [Data.hit(1, in: 1)]))
        #expect(state.search.hits.isEmpty)
        _ = AppReducer.reduce(&state, .searchResults(query: "lu", [Data.hit(101, in: 1), Data.hit(305, in: 3)]))
        #expect(state.search.hits.count == 2)
        Data.press(&state, .down)
        #expect(state.search.selection == 1)
        Data.press(&state, .down)
        #expect(state.search.selection == 1)
        let effects = Data.work(Data.press(&state, .enter))
        #expect(effects == [.loadTranscript(Data.id(3), limit: 200)])
        #expect(state.focus == .transcript && state.selectedID == Data.id(3))
        #expect(state.transcript?.targetMessage == MessageID(rawValue: 305))
        // Loaded: scrolled so the hit's message starts the view, not following the bottom.
        _ = AppReducer.reduce(&state, .transcriptLoaded(Data.transcript(3, messages: 12)))
        let open = try! #require(state.transcript)
        #expect(!open.followsBottom && open.top > 0 && open.top < open.lineCount - state.layout.paneRows)
        #expect(open.targetMessage == nil)
    }

    @Test("Enter pressed before the query's hits arrive opens the first of them when they do, not an earlier query's")
    func enterBeforeResults() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("/"))
        Data.type(&state, "lu")
        _ = AppReducer.reduce(&state, .searchResults(query: "lu", [Data.hit(101, in: 1)]))
        Data.type(&state, "n")
        // The hits on screen answer "lu"; Enter waits for "lun"'s rather than open one of them.
        #expect(Data.work(Data.press(&state, .enter)) == [])
        #expect(state.focus == .search && state.search.opensOnArrival)
        _ = AppReducer.reduce(&state, .searchResults(query: "lu", [Data.hit(102, in: 2)]))
        #expect(state.focus == .search)
        let effects = Data.work(AppReducer.reduce(&state, .searchResults(query: "lun", [Data.hit(305, in: 3)])))
        #expect(effects == [.loadTranscript(Data.id(3), limit: 200)])
        #expect(state.focus == .transcript && state.selectedID == Data.id(3))
        #expect(state.transcript?.targetMessage == MessageID(rawValue: 305))
        #expect(!state.running.contains(.search))
        // Hits arriving after search closed change nothing.
        _ = AppReducer.reduce(&state, .searchResults(query: "", [Data.hit(1, in: 1)]))
        #expect(state.focus == .transcript && state.selectedID == Data.id(3))
    }

    @Test("Enter before a query's hits arrive, when it finds nothing, stays in search")
    func enterBeforeEmptyResults() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("/"))
        Data.type(&state, "zz")
        #expect(Data.work(Data.press(&state, .enter)) == [])
        _ = AppReducer.reduce(&state, .searchResults(query: "zz", []))
        #expect(state.focus == .search && !state.search.opensOnArrival)
        Data.type(&state, "z")
        _ = AppReducer.reduce(&state, .searchResults(query: "zzz", [Data.hit(101, in: 1)]))
        #expect(state.focus == .search, "a later query's hits open nothing without a new Enter")
    }

    @Test("backspace searches again, an emptied query clears the hits, Esc cancels")
    func searchEditing() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("/"))
        Data.type(&state, "ab")
        _ = AppReducer.reduce(&state, .searchResults(query: "ab", [Data.hit(101, in: 1)]))
        #expect(Data.work(Data.press(&state, .backspace)) == [.search("a")])
        #expect(Data.work(Data.press(&state, .backspace)) == [])
        #expect(state.search.hits.isEmpty && state.search.query.isEmpty)
        #expect(Data.work(Data.press(&state, .paste("x\ny"))) == [.search("x y")])
        _ = AppReducer.reduce(&state, .searchFailed(query: "x y", message: "syntax error near \"y\""))
        #expect(state.search.error == "syntax error near \"y\"")
        Data.press(&state, .escape)
        #expect(state.focus == .list && state.search.query.isEmpty)
    }

    // MARK: - Composer

    @Test("the composer inserts, deletes and moves the cursor; Alt-Enter and paste add lines")
    func composerEditing() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("r"))
        #expect(state.focus == .composer)
        Data.type(&state, "Helo")
        Data.press(&state, .left, .left)
        Data.type(&state, "l")
        #expect(state.composer?.text == "Hello" && state.composer?.cursor == 3)
        Data.press(&state, .end, .backspace, .character("o"), .home, .delete)
        #expect(state.composer?.text == "ello" && state.composer?.cursor == 0)
        Data.press(&state, .right, .right, .right, .right, .right)
        #expect(state.composer?.cursor == 4)
        Data.press(&state, .altEnter)
        Data.press(&state, .paste("line two\r\nline\u{1B}[31m three\tend"))
        #expect(state.composer?.text == "ello\nline two\nline[31m three end")
        #expect(state.composer?.lines.count == 3 && state.composer?.cursorLine.line == 2)
        #expect(state.layout.paneRows == 30 - 1 - 3)
    }

    @Test("Enter sends the reply's text and closes the composer; an empty one sends nothing; Esc cancels")
    func replySend() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("r"))
        #expect(Data.work(Data.press(&state, .enter)) == [])
        Data.type(&state, "  ")
        #expect(Data.work(Data.press(&state, .enter)) == [])
        #expect(state.focus == .composer)
        Data.type(&state, "See you")
        Data.press(&state, .altEnter)
        Data.type(&state, "at noon")
        #expect(Data.work(Data.press(&state, .enter)) == [.reply(Data.id(1), text: "See you\nat noon")])
        #expect(state.composer == nil && state.focus == .list)
        // A failed send brings the draft back.
        _ = AppReducer.reduce(&state, .sendFailed("The outbox could not be written"))
        #expect(state.composer?.text == "  See you\nat noon" && state.focus == .composer)
        Data.press(&state, .escape)
        #expect(state.composer == nil && state.focus == .list)
    }

    @Test("Ctrl-E hands the text to the editor and takes back what it returns")
    func editor() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("r"))
        Data.type(&state, "draft")
        #expect(Data.press(&state, .control("e")) == [.openEditor("draft")])
        // Keys wait while the editor runs.
        Data.type(&state, "zz")
        #expect(state.composer?.text == "draft")
        _ = AppReducer.reduce(&state, .editorFinished("draft\nmore"))
        #expect(state.composer?.text == "draft\nmore" && state.composer?.cursor == 10)
        Data.press(&state, .control("e"))
        _ = AppReducer.reduce(&state, .editorFinished(nil))
        #expect(state.composer?.text == "draft\nmore" && state.composer?.isInEditor == false)
    }

    @Test("c asks for addresses, then the subject, then the text, and sends")
    func newMessage() {
        var state = Data.state(columns: 80)
        Data.press(&state, .character("c"))
        #expect(state.composer?.prompt == "To:")
        #expect(Data.work(Data.press(&state, .enter)) == [])
        Data.type(&state, "ann@example.com, bob@example.com")
        Data.press(&state, .enter)
        #expect(state.composer?.prompt == "Subject:" && state.composer?.text == "")
        Data.press(&state, .paste("Lunch\nplans"))
        Data.press(&state, .enter)
        #expect(state.composer?.prompt == "Message:")
        Data.type(&state, "Noon?")
        #expect(
            Data.work(Data.press(&state, .enter)) == [
                .send(addresses: ["ann@example.com", "bob@example.com"], subject: "Lunch plans", text: "Noon?")
            ])
        _ = AppReducer.reduce(&state, .sendFinished("Queued; it goes out with the next sync."))
        #expect(state.status.note == "Queued; it goes out with the next sync." && state.sentDraft == nil)
    }

    // MARK: - Pending queue

    @Test("p loads the queue; R retries and D dismisses the selected action; Esc goes back")
    func pendingQueue() {
        var state = Data.state(columns: 80)
        #expect(Data.work(Data.press(&state, .character("p"))) == [.loadPending])
        _ = AppReducer.reduce(
            &state, .pendingLoaded([Data.pendingAction(7), Data.pendingAction(8, status: .pending, error: nil)]))
        #expect(state.status.failedCount == 1 && state.status.pendingCount == 1)
        #expect(Data.work(Data.press(&state, .character("R"))) == [.retryPending(PendingActionID(rawValue: 7))])
        Data.press(&state, .character("j"), .character("j"))
        #expect(Data.work(Data.press(&state, .character("D"))) == [.dismissPending(PendingActionID(rawValue: 8))])
        let effects = Data.work(AppReducer.reduce(&state, .pendingChanged("Dismissed #8")))
        #expect(effects.contains(.loadPending) && effects.contains(.syncNow))
        _ = AppReducer.reduce(&state, .pendingLoaded([Data.pendingAction(7)]))
        #expect(state.pending.selection == 0)
        Data.press(&state, .escape)
        #expect(state.focus == .list)
    }

    @Test("every key the help lists is one the reducer answers")
    func helpListsRealKeys() {
        let keys = KeyHelp.sections.flatMap(\.entries).flatMap { $0.keys.split(separator: " ") }
        for key in ["j", "k", "g", "G", "e", "u", "s", "#", "U", "r", "c", "/", "f", "p", "C", "S", "?", "q"] {
            #expect(keys.contains(Substring(key)), "help does not list \(key)")
        }
        // And each of those single characters does something from the list.
        for key in ["j", "G", "e", "u", "s", "#", "r", "c", "/", "f", "p", "C", "S", "?", "q"] {
            var state = Data.state(columns: 80)
            let before = state
            let effects = Data.press(&state, .character(Character(key)))
            #expect(!effects.isEmpty || state != before, "\(key) did nothing")
        }
    }
}
