import TerminalKit
import TerminalUI
import TextFormatting

/// Draws the app: a pure function of the state, the size and the presentation choices.
///
/// Every line is fitted to exactly the terminal's width and there are exactly as many lines as rows,
/// so a frame can be diffed against the previous one line by line. The list rows, bubbles, search hits
/// and queue rows come from TerminalUI's renderers, the same ones the commands print with; this type
/// only arranges their lines.
public enum AppView {
    /// - parameter cache: the session's cache of the open transcript's lines; a fresh one draws afresh.
    public static func frame(
        for state: AppState, size: TerminalSize, palette: Palette, glyphs: Glyphs, time: TimeFormatting,
        cache: TranscriptLineCache = TranscriptLineCache()
    ) -> Frame {
        guard size.rows > 0, size.columns > 0 else {
            return Frame(lines: Array(repeating: "", count: max(0, size.rows)))
        }
        let context = Context(state: state, palette: palette, glyphs: glyphs, time: time, cache: cache)
        let composer = state.composer.map { composerLines($0, context: context, width: size.columns) }
        let layout = AppLayout(size: size, composerRows: composer?.lines.count ?? 0)
        let rows = layout.paneRows
        var lines: [String]
        var cursor: Frame.Cursor?
        switch state.focus {
        case .help:
            lines = helpPane(context, width: size.columns, rows: rows)
        case .search:
            (lines, cursor) = searchPane(context, width: size.columns, rows: rows)
        case .pending:
            lines = pendingPane(context, width: size.columns, rows: rows)
        case .codes:
            // A drawer over the panes' lower rows: what was on screen stays in sight above it.
            let drawer = codesDrawer(context, width: size.columns, rows: rows)
            let above = Array(mainPanes(context, layout: layout).prefix(rows - drawer.count))
            lines = above + Array(repeating: "", count: rows - drawer.count - above.count) + drawer
        case .list, .transcript, .composer:
            lines = mainPanes(context, layout: layout)
        }
        lines = lines.prefix(rows).map { StyledLine.fit($0, width: size.columns) }
        lines += Array(repeating: String(repeating: " ", count: size.columns), count: max(0, rows - lines.count))
        // The composer sits above the status line; on a screen too short for both, it wins.
        if let composer {
            let shown = Array(composer.lines.suffix(max(0, size.rows - 1)))
            if state.focus == .composer, let place = composer.cursor {
                cursor = Frame.Cursor(
                    row: lines.count + place.row - (composer.lines.count - shown.count), column: place.column)
            }
            lines += shown.map { StyledLine.fit($0, width: size.columns) }
        }
        lines.append(StyledLine.fit(statusLine(context, width: size.columns), width: size.columns))
        let frameLines = Array(lines.suffix(size.rows))
        if let place = cursor, place.row < 0 || place.row >= size.rows || place.column >= size.columns {
            cursor = nil
        }
        return Frame(lines: frameLines, cursor: cursor)
    }

    /// What the panes need besides their size.
    struct Context {
        var state: AppState
        var palette: Palette
        var glyphs: Glyphs
        var time: TimeFormatting
        var cache: TranscriptLineCache
    }

    /// Side by side when wide; when narrow, the transcript once one is being read, else the list.
    static func mainPanes(_ context: Context, layout: AppLayout) -> [String] {
        let state = context.state
        let rows = layout.paneRows
        guard layout.isWide else {
            let over = state.focus == .composer || state.focus == .codes
            let reading = state.focus == .transcript || over && state.returnFocus == .transcript
            return reading
                ? transcriptPane(context, width: layout.transcriptWidth, rows: rows)
                : listPane(context, width: layout.listWidth, rows: rows)
        }
        let left = listPane(context, width: layout.listWidth, rows: rows)
        let right = transcriptPane(context, width: layout.transcriptWidth, rows: rows)
        let separator = context.palette.paint(context.glyphs.vertical, .dim)
        return (0..<rows).map { row in
            StyledLine.fit(row < left.count ? left[row] : "", width: layout.listWidth) + separator
                + StyledLine.fit(row < right.count ? right[row] : "", width: layout.transcriptWidth)
        }
    }

    // MARK: - Composer

    /// The composer's rows (at most ``Composer/maximumVisibleLines``, around the cursor) and where the
    /// cursor is among them. The prompt leads the first line; later lines are indented under the text.
    static func composerLines(_ composer: Composer, context: Context, width: Int)
        -> (lines: [String], cursor: (row: Int, column: Int)?)
    {
        // The reply's prompt holds the conversation's title, which came from an email.
        let prompt = TerminalSafeText.singleLine(composer.prompt)
        let promptText =
            DisplayWidth.truncate(prompt, toWidth: max(0, width / 2 - 1), ellipsis: context.glyphs.ellipsis) + " "
        let indent = DisplayWidth.of(promptText)
        let all = composer.lines
        let (cursorLine, cursorOffset) = composer.cursorLine
        let count = min(Composer.maximumVisibleLines, all.count)
        let first = min(max(0, cursorLine - count + 1), all.count - count)
        var lines: [String] = []
        var cursor: (row: Int, column: Int)?
        for index in first..<(first + count) {
            let lead = index == 0 ? context.palette.paint(promptText, .bold) : String(repeating: " ", count: indent)
            var text = Array(all[index])
            var before = index == cursorLine ? cursorOffset : 0
            // A line longer than the screen scrolls sideways so the cursor stays on it.
            let room = max(1, width - indent - 1)
            while index == cursorLine, before > 0, DisplayWidth.of(String(text[..<before])) > room {
                text.removeFirst()
                before -= 1
            }
            if index == cursorLine {
                cursor = (lines.count, indent + DisplayWidth.of(String(text[..<before])))
            }
            lines.append(lead + String(text))
        }
        return (lines, cursor)
    }

    // MARK: - Status line

    /// `me@example.com · Inbox · synced 3 min ago · 2 pending · 1 failed · offline    Syncing…`, in reverse
    /// video, or plain text when colour is off. A mailbox with no login reads "local mailbox" where the
    /// sync would be.
    ///
    /// When the line is short, space goes first to the account's name (whose mail this is: an error
    /// beside a cut name reads as someone else's), then to what is happening at the right (progress, an
    /// error, a note), and the other facts get what is left.
    static func statusLine(_ context: Context, width: Int) -> String {
        let state = context.state
        let status = state.status
        let ellipsis = context.glyphs.ellipsis
        let dot = " " + context.glyphs.separatorDot + " "
        var facts = [filterLabel(state)]
        // With the screener on, what it holds is out of the other lists' sight: the count says it waits.
        if let screener = state.screener, screener.isEnabled, screener.heldCount > 0, state.filter != .screener {
            facts.append("\(screener.heldCount) screened")
        }
        switch state.origin {
        case .synced: facts.append(status.lastSyncAtMs.map { "synced " + context.time.ago($0) } ?? "not synced yet")
        case .local: facts.append("local mailbox")
        }
        if status.pendingCount > 0 { facts.append("\(status.pendingCount) pending") }
        if status.failedCount > 0 { facts.append("\(status.failedCount) failed") }
        if status.isOffline { facts.append("offline") }
        let message =
            state.progressNote
            ?? status.lastError.map { "Error: " + TerminalSafeText.singleLine($0) }
            ?? status.note.map(TerminalSafeText.singleLine)
            ?? "? help"
        // A space at each end and at least one between the left part and the message.
        let room = max(0, width - 3)
        let account = DisplayWidth.truncate(
            TerminalSafeText.singleLine(state.account), toWidth: room, ellipsis: ellipsis)
        let messageRoom = room - DisplayWidth.of(account)
        let messageText =
            messageRoom > 0 ? DisplayWidth.truncate(message, toWidth: messageRoom, ellipsis: ellipsis) : ""
        let factsText = DisplayWidth.truncate(
            dot + facts.joined(separator: dot), toWidth: max(0, messageRoom - DisplayWidth.of(messageText)),
            ellipsis: ellipsis)
        let left = " " + account + factsText
        let gap = String(
            repeating: " ", count: max(1, width - DisplayWidth.of(left) - DisplayWidth.of(messageText) - 1))
        let line = StyledLine.fit(left + gap + messageText + " ", width: width)
        return context.palette.paint(line, .reverse)
    }

    static func filterName(_ filter: ListFilter) -> String {
        switch filter {
        case .inbox: "Inbox"
        case .unread: "Unread"
        case .people: "People"
        case .lists: "Lists"
        case .newsletters: "Newsletters"
        case .all: "All mail"
        case .screener: "Screener"
        }
    }

    /// The filter's name for the status line; the screener's with its count, and "off" while it is off,
    /// when what it lists still shows in the inbox too: "Screener (3)", "Screener (3, off)".
    static func filterLabel(_ state: AppState) -> String {
        let name = filterName(state.filter)
        guard state.filter == .screener, let screener = state.screener else { return name }
        return name + " (\(screener.heldCount)" + (screener.isEnabled ? ")" : ", off)")
    }
}
