import ChatmailApp
import ChatmailStore
import TerminalKit
import TerminalUI
import Testing
import TextFormatting

@Suite("App view: frames")
struct AppViewTests {
    typealias Data = AppTestData

    static let sizes = [
        TerminalSize(columns: 40, rows: 10), TerminalSize(columns: 100, rows: 30), TerminalSize(columns: 200, rows: 60),
        TerminalSize(columns: 99, rows: 24), TerminalSize(columns: 12, rows: 3),
    ]

    /// Subjects that stress width and safety: CJK, emoji sequences, and escape sequences a hostile
    /// sender might put in a subject.
    static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[31mRED\u{9B}1A"
    static let subjects = [
        "会議の議事録と来週の予定について", "Family 👨‍👩‍👧‍👦 trip 🇯🇵🎉", hostile, String(repeating: "long subject ", count: 30),
    ]

    /// A state in every mode worth drawing, with awkward subjects throughout.
    static func states(size: TerminalSize) -> [(String, AppState)] {
        var base = AppState(account: "me@example.com", size: size, timeZone: Data.utc, nowMs: Data.nowMs)
        let conversations = subjects.enumerated().map { index, subject in
            Data.summary(Int64(index + 1), title: subject, unread: index, snippet: subject)
        }
        _ = AppReducer.reduce(
            &base, .conversationsLoaded(ListFilter.inbox.conversationFilter(limit: 500), conversations))
        var transcript = Data.transcript(1, messages: 6, title: hostile)
        transcript.messages[1].text = subjects.joined(separator: "\n")
        transcript.messages[2].from = EmailAddress(address: "x@example.com", name: hostile)
        _ = AppReducer.reduce(&base, .transcriptLoaded(transcript))
        base.status.lastError = hostile
        var reading = base
        _ = AppReducer.reduce(&reading, .terminal(.key(.enter)))
        _ = AppReducer.reduce(&reading, .transcriptLoaded(transcript))
        var composing = reading
        AppTestData.press(&composing, .character("r"))
        AppTestData.type(&composing, "日本語 and 🎉 ")
        AppTestData.press(&composing, .paste(String(repeating: "wide 語 ", count: 40) + "\nsecond line"))
        var searching = base
        AppTestData.press(&searching, .character("/"))
        AppTestData.type(&searching, "会議")
        _ = AppReducer.reduce(
            &searching, .searchResults(query: "会議", [Data.hit(101, in: 1, text: hostile), Data.hit(201, in: 2)]))
        var pending = base
        AppTestData.press(&pending, .character("p"))
        _ = AppReducer.reduce(&pending, .pendingLoaded([Data.pendingAction(1, error: hostile), Data.pendingAction(2)]))
        var codes = base
        AppTestData.press(&codes, .character("C"))
        var hostileCode = Data.code(hostile + "48 29 13", in: 1, service: hostile + "会議の議事録")
        hostileCode.from = EmailAddress(address: "x@example.com", name: hostile + String(repeating: "語", count: 60))
        _ = AppReducer.reduce(&codes, .codesLoaded([hostileCode, Data.code("731-904", in: 2, service: nil)]))
        var help = base
        AppTestData.press(&help, .character("?"))
        var empty = AppState(account: hostile, size: size)
        empty.status.isOffline = true
        return [
            ("list", base), ("reading", reading), ("composing", composing), ("searching", searching),
            ("pending", pending), ("codes", codes), ("help", help), ("empty", empty),
        ]
    }

    static func frame(_ state: AppState, color: Bool = true, glyphs: Glyphs = .rounded) -> Frame {
        AppView.frame(
            for: state, size: state.size, palette: Palette(isEnabled: color), glyphs: glyphs,
            time: TimeFormatting(timeZone: Data.utc, nowMs: Data.nowMs))
    }

    /// Text as the terminal shows it: the palette's SGR sequences removed.
    static func visible(_ line: String) -> String {
        line.replacing(#/\x1B\[[0-9;]*m/#, with: "")
    }

    @Test("every frame has exactly `rows` lines of at most `columns` cells, whatever the mode and size")
    func frameGeometry() {
        for size in Self.sizes {
            for (mode, state) in Self.states(size: size) {
                for color in [true, false] {
                    for glyphs in [Glyphs.rounded, .ascii] {
                        let frame = Self.frame(state, color: color, glyphs: glyphs)
                        #expect(frame.lines.count == size.rows, "\(mode) at \(size)")
                        for line in frame.lines {
                            let width = DisplayWidth.of(Self.visible(line))
                            #expect(width <= size.columns, "\(mode) at \(size): \(width) cells: \(line)")
                        }
                        if let cursor = frame.cursor {
                            #expect(cursor.row >= 0 && cursor.row < size.rows && cursor.column < size.columns)
                        }
                    }
                }
            }
        }
    }

    @Test("hostile subjects reach the frame neutralized: the palette's SGR is the only escape left")
    func hostileTextNeutralized() {
        for (mode, state) in Self.states(size: TerminalSize(columns: 200, rows: 60)) {
            let frame = Self.frame(state)
            for line in frame.lines {
                let visible = Self.visible(line)
                #expect(
                    !visible.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(mode)")
            }
            let text = frame.lines.map(Self.visible).joined(separator: "\n")
            if mode == "list" { #expect(text.contains("]0;pwned[2J[31mRED1A")) }
        }
    }

    @Test("wide layout shows both panes with a separator; narrow shows one at a time")
    func layouts() {
        var wide = Data.state(columns: 120, rows: 20)
        _ = AppReducer.reduce(&wide, .transcriptLoaded(Data.transcript(1, messages: 2, title: "Picnic")))
        let wideText = Self.frame(wide, color: false).lines
        #expect(wideText.contains { $0.contains("Conversation 2") && $0.contains("│") })
        #expect(wideText.contains { $0.contains("Message number 2") })
        var narrow = Data.state(columns: 60, rows: 20)
        let listText = Self.frame(narrow, color: false).lines.joined(separator: "\n")
        #expect(listText.contains("Conversation 2") && !listText.contains("│ Message"))
        AppTestData.press(&narrow, .enter)
        _ = AppReducer.reduce(&narrow, .transcriptLoaded(Data.transcript(1, messages: 2, title: "Picnic")))
        let reading = Self.frame(narrow, color: false).lines.joined(separator: "\n")
        #expect(reading.contains("Message number 2") && !reading.contains("Conversation 2"))
    }

    @Test("the selected row is marked, in reverse video with colour and by its marker without")
    func selectedRowMarked() {
        var state = Data.state(columns: 80, rows: 12)
        AppTestData.press(&state, .character("j"))
        let plain = Self.frame(state, color: false).lines
        #expect(plain.filter { $0.hasPrefix("> ") }.count == 1)
        #expect(plain.first { $0.hasPrefix("> ") }?.contains("Conversation 2") == true)
        let colored = Self.frame(state).lines
        let selected = try! #require(colored.first { Self.visible($0).hasPrefix("> ") })
        #expect(selected.hasPrefix("\u{1B}[7m") && Self.visible(selected).contains("Conversation 2"))
        // The highlight comes back after each style inside the row (the bold title, the dim snippet).
        let resets = selected.split(separator: "\u{1B}[0m", omittingEmptySubsequences: false).dropFirst()
        #expect(resets.count > 2)
        #expect(resets.dropLast().allSatisfy { $0.hasPrefix("\u{1B}[7m") })
    }

    @Test("the status line names the account, filter, sync, queue, offline and the latest error")
    func statusLine() {
        var state = Data.state(columns: 200, rows: 10)
        _ = AppReducer.reduce(
            &state, .syncFinished(SyncSummary(finishedAtMs: Data.nowMs - 60_000, pendingCount: 3, failedCount: 1)))
        var status = Self.visible(Self.frame(state, color: false).lines.last!)
        #expect(status.contains("me@example.com · Inbox · synced 1 min ago · 3 pending · 1 failed"))
        #expect(status.contains("? help"))
        AppTestData.press(&state, .character("f"))
        _ = AppReducer.reduce(&state, .syncFailed(message: "Could not reach Gmail", isOffline: true))
        status = Self.visible(Self.frame(state, color: false).lines.last!)
        #expect(
            status.contains("Unread") && status.contains("offline") && status.contains("Error: Could not reach Gmail"))
    }

    @Test("the composer sits above the status line with the cursor after the typed text")
    func composerCursor() {
        var state = Data.state(columns: 80, rows: 12)
        AppTestData.press(&state, .character("r"))
        AppTestData.type(&state, "日本")
        let frame = Self.frame(state, color: false)
        #expect(frame.lines[10].hasPrefix("Reply to Conversation 1: 日本"))
        #expect(frame.cursor == Frame.Cursor(row: 10, column: DisplayWidth.of("Reply to Conversation 1: 日本")))
        AppTestData.press(&state, .altEnter)
        AppTestData.type(&state, "x")
        let twoLines = Self.frame(state, color: false)
        #expect(
            twoLines.lines[9].hasPrefix("Reply to")
                && twoLines.lines[10].hasSuffix("x" + String(repeating: " ", count: 80 - 26)))
        #expect(twoLines.cursor == Frame.Cursor(row: 10, column: 26))
    }

    @Test("the search pane shows the query with the cursor and the selected hit marked")
    func searchPane() {
        var state = Data.state(columns: 80, rows: 20)
        AppTestData.press(&state, .character("/"))
        AppTestData.type(&state, "lunch")
        _ = AppReducer.reduce(&state, .searchResults(query: "lunch", [Data.hit(101, in: 1), Data.hit(201, in: 2)]))
        AppTestData.press(&state, .down)
        let frame = Self.frame(state, color: false)
        #expect(frame.lines[0].hasPrefix("Search: lunch") && frame.cursor == Frame.Cursor(row: 0, column: 13))
        let marked = frame.lines.filter { $0.hasPrefix("> ") }
        #expect(marked.first?.contains("Person in Conversation 2") == true)
    }

    @Test("the pending view marks both rows of the selected action")
    func pendingPane() {
        var state = Data.state(columns: 100, rows: 20)
        AppTestData.press(&state, .character("p"))
        _ = AppReducer.reduce(&state, .pendingLoaded([Data.pendingAction(1), Data.pendingAction(2, error: "quota")]))
        AppTestData.press(&state, .character("j"))
        let marked = Self.frame(state, color: false).lines.filter { $0.hasPrefix("> ") }
        #expect(marked.count == 2 && marked[0].contains("#2") && marked[1].contains("last error: quota"))
    }

    @Test("the help lists every key")
    func helpPane() {
        var state = Data.state(columns: 100, rows: 40)
        AppTestData.press(&state, .character("?"))
        let text = Self.frame(state, color: false).lines.joined(separator: "\n")
        for entry in KeyHelp.sections.flatMap(\.entries) {
            #expect(text.contains(entry.meaning), "help misses \(entry.keys)")
        }
    }
}
