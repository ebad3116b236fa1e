import ChatmailStore
import RecordViews
import TerminalUI
import TextFormatting

extension AppView {
    /// The codes drawer over the panes' lower rows: a rule, a title naming the keys, then a row per code,
    /// the selected one marked and kept in view. It takes at most two thirds of the rows, so the list
    /// stays in sight above it.
    static func codesDrawer(_ context: Context, width: Int, rows: Int) -> [String] {
        guard rows > 0 else { return [] }
        let codes = context.state.codes
        let palette = context.palette
        var header = [
            palette.paint(String(repeating: context.glyphs.horizontal, count: width), .dim),
            palette.paint("Codes from the last 24 hours", .bold)
                + palette.paint("  Enter opens the conversation  Esc closes", .dim),
        ]
        let body: [String]
        if let error = codes.error {
            body = ["  " + palette.paint(TerminalSafeText.singleLine(error), .badge)]
        } else if codes.hits.isEmpty {
            let note = codes.isLoaded ? "No codes in mail from the last 24 hours." : "Looking for codes…"
            body = ["  " + palette.paint(note, .dim)]
        } else {
            let renderer = CodesRenderer(
                width: max(1, width - gutterWidth), time: context.time, palette: palette, glyphs: context.glyphs)
            body =
                renderer.rows(codes.hits).enumerated().map {
                    marked($1, isSelected: $0 == codes.selection, width: width, palette: palette)
                } + moreRow(codes, width: width, palette: palette)
        }
        let height = min(rows, max(3, rows * 2 / 3), header.count + body.count)
        // Too short for the rule, the title and a code: the title gives way last.
        if height < 3 { header.removeFirst() }
        let bodyRows = max(0, height - header.count)
        let first = windowStart(selected: codes.error == nil ? codes.selection : 0, count: body.count, rows: bodyRows)
        return Array((header + body[first..<min(body.count, first + bodyRows)]).prefix(height))
    }

    /// Under a cut list, how many codes it leaves out and the command that lists them; kept last, so it
    /// scrolls into view with the last code.
    static func moreRow(_ codes: CodesState, width: Int, palette: Palette) -> [String] {
        let total = codes.hits.count + codes.omittedCount
        guard
            let note = LimitNote.more(
                codes.omittedCount, "from the last 24 hours", remedy: "chatmail codes --since 24h --limit \(total)")
        else { return [] }
        return [StyledLine.fit("  " + palette.paint(note, .dim), width: width)]
    }
}
