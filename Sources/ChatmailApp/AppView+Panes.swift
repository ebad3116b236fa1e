import ChatmailStore
import RecordViews
import TerminalKit
import TerminalUI
import TextFormatting

extension AppView {
    /// Columns the selection marker takes before each row: "> " on the selected one.
    static let gutterWidth = 2

    /// The selected row: reverse video when colour is on; the `>` in its gutter marks it either way,
    /// which is all a `NO_COLOR` terminal shows.
    static func marked(_ line: String, isSelected: Bool, width: Int, palette: Palette) -> String {
        let row = StyledLine.fit((isSelected ? "> " : "  ") + line, width: width)
        return isSelected ? palette.paintLine(row, .reverse) : row
    }

    /// The first of `count` items to show in `rows` rows so that `selected` is on screen, near the middle.
    static func windowStart(selected: Int, count: Int, rows: Int) -> Int {
        guard count > rows else { return 0 }
        return min(max(0, selected - rows / 2), count - rows)
    }

    // MARK: - List

    /// The conversation list, one row each, by ``ConversationListRenderer`` as `chatmail conversations`
    /// draws it, the selected row marked.
    static func listPane(_ context: Context, width: Int, rows: Int) -> [String] {
        let state = context.state
        guard rows > 0 else { return [] }
        guard !state.conversations.isEmpty else {
            let empty =
                state.running.contains(.loading)
                ? "Loading…"
                : state.filter == .screener
                    ? "The screener holds no conversations." : "No conversations in " + filterName(state.filter)
            return ["  " + context.palette.paint(empty, .dim)]
        }
        let first = windowStart(selected: state.selectedIndex, count: state.conversations.count, rows: rows)
        let shown = state.conversations[first..<min(state.conversations.count, first + rows)]
        let renderer = ConversationListRenderer(
            width: max(1, width - gutterWidth), time: context.time, palette: context.palette, glyphs: context.glyphs)
        let rendered = renderer.render(shown.map(ConversationRow.init)).split(separator: "\n").map(String.init)
        return rendered.enumerated().map { offset, line in
            marked(line, isSelected: first + offset == state.selectedIndex, width: width, palette: context.palette)
        }
    }

    // MARK: - Transcript

    /// The open conversation's bubbles by ``TranscriptRenderer``, from the scroll offset (or its end,
    /// when following new messages).
    static func transcriptPane(_ context: Context, width: Int, rows: Int) -> [String] {
        guard rows > 0 else { return [] }
        guard let open = context.state.transcript else {
            return [context.palette.paint(" Select a conversation and press Enter.", .dim)]
        }
        guard let transcript = open.transcript else { return [context.palette.paint(" Loading…", .dim)] }
        let lines = context.cache.lines(
            transcript, width: width, palette: context.palette, glyphs: context.glyphs, time: context.time)
        let bottom = max(0, lines.count - rows)
        let top = open.followsBottom ? bottom : min(max(0, open.top), bottom)
        return Array(lines[top..<min(lines.count, top + rows)])
    }

    // MARK: - Search

    /// The query being typed, with the cursor after it, then the hits by ``SearchResultRenderer``, one
    /// block each, the selected one marked and kept in view.
    static func searchPane(_ context: Context, width: Int, rows: Int) -> ([String], Frame.Cursor?) {
        guard rows > 0 else { return ([], nil) }
        let search = context.state.search
        let prompt = "Search: "
        let query = TerminalSafeText.singleLine(search.query)
        // The end of a long query stays visible, where the typing is.
        let room = max(1, width - DisplayWidth.of(prompt) - 1)
        var shownQuery = query
        while DisplayWidth.of(shownQuery) > room { shownQuery.removeFirst() }
        var lines = [context.palette.paint(prompt, .bold) + shownQuery]
        let cursor = Frame.Cursor(row: 0, column: DisplayWidth.of(prompt) + DisplayWidth.of(shownQuery))
        if let error = search.error {
            lines.append("  " + context.palette.paint(TerminalSafeText.singleLine(error), .badge))
            return (lines, cursor)
        }
        if search.hits.isEmpty {
            let note =
                query.isEmpty
                ? "Type to search subjects and messages."
                : context.state.running.contains(.search) ? "Searching…" : "No messages match."
            lines.append("  " + context.palette.paint(note, .dim))
            return (lines, cursor)
        }
        let renderer = SearchResultRenderer(
            width: max(1, width - gutterWidth), time: context.time, palette: context.palette)
        let blocks = search.hits.map { hit in
            renderer.render([SearchHitView(hit, openCommand: nil)]).split(separator: "\n").map(String.init) + [""]
        }
        // Start far enough back that the whole selected block fits below the prompt.
        var first = search.selection
        var used = blocks[first].count
        while first > 0, used + blocks[first - 1].count <= rows - 1 {
            first -= 1
            used += blocks[first].count
        }
        for index in first..<blocks.count {
            for line in blocks[index] {
                lines.append(
                    marked(line, isSelected: index == search.selection, width: width, palette: context.palette))
            }
            if lines.count >= rows { break }
        }
        return (lines, cursor)
    }

    // MARK: - Pending queue

    /// The queue by ``PendingActionRenderer`` as `chatmail pending` draws it, the selected action's rows
    /// marked, under a line that names the keys.
    static func pendingPane(_ context: Context, width: Int, rows: Int) -> [String] {
        guard rows > 0 else { return [] }
        let pending = context.state.pending
        var lines = [
            context.palette.paint("Pending actions", .bold)
                + context.palette.paint("  R retry  D dismiss  S sync  Esc back", .dim)
        ]
        guard !pending.actions.isEmpty else {
            lines.append("  " + context.palette.paint("No queued actions.", .dim))
            return lines
        }
        let renderer = PendingActionRenderer(
            width: max(1, width - gutterWidth), time: context.time, palette: context.palette)
        let rendered = renderer.render(pending.actions).split(separator: "\n").map(String.init)
        // The renderer writes a header, then a row per action and a second row for its last error.
        var owner: [Int?] = [nil]
        for (index, action) in pending.actions.enumerated() {
            owner += Array(repeating: index, count: action.lastError == nil ? 1 : 2)
        }
        let body = zip(rendered, owner).map { line, index in
            marked(line, isSelected: index == pending.selection, width: width, palette: context.palette)
        }
        let selectedRow = owner.firstIndex { $0 == pending.selection } ?? 0
        let first = windowStart(selected: selectedRow, count: body.count, rows: rows - 1)
        return lines + body[first..<min(body.count, first + rows - 1)]
    }

    // MARK: - Help

    /// Every key, by section, in two columns when the screen is wide enough.
    static func helpPane(_ context: Context, width: Int, rows: Int) -> [String] {
        var blocks: [[String]] = []
        for section in KeyHelp.sections {
            var block = [context.palette.paint(section.title, .bold)]
            let keyWidth = section.entries.map { DisplayWidth.of($0.keys) }.max() ?? 0
            for entry in section.entries {
                block.append("  " + DisplayWidth.pad(entry.keys, toWidth: keyWidth) + "  " + entry.meaning)
            }
            blocks.append(block + [""])
        }
        let title = context.palette.paint("Keys", .bold) + context.palette.paint("  (any key closes this)", .dim)
        let single = blocks.flatMap { $0 }
        let half = (blocks.count + 1) / 2
        guard width >= 120, single.count + 2 > rows else { return [title, ""] + single }
        let left = blocks[..<half].flatMap { $0 }
        let right = blocks[half...].flatMap { $0 }
        let column = width / 2
        return [title, ""]
            + (0..<max(left.count, right.count)).map { row in
                StyledLine.fit(row < left.count ? left[row] : "", width: column) + (row < right.count ? right[row] : "")
            }
    }
}
