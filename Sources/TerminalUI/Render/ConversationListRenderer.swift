import TextFormatting

/// Renders the conversation list as one line per conversation:
/// title with unread count, snippet, and a relative time, never wider than the terminal.
public struct ConversationListRenderer: Sendable {
    public var width: Int
    public var time: TimeFormatting
    public var palette: Palette
    public var glyphs: Glyphs

    public init(width: Int, time: TimeFormatting, palette: Palette, glyphs: Glyphs = .rounded) {
        self.width = width
        self.time = time
        self.palette = palette
        self.glyphs = glyphs
    }

    /// - Parameter omittedCount: how many more conversations a limit left out, said on a last line.
    public func render(_ conversations: [ConversationRow], omittedCount: Int = 0) -> String {
        guard !conversations.isEmpty else { return "No conversations.\n" }
        let times = conversations.map { time.relative($0.lastMessageAtMs) }
        // As wide as the widest time shown, so a list of today's chats does not waste ten columns.
        let timeWidth = times.lazy.map { DisplayWidth.of($0) }.max() ?? 5
        return zip(conversations, times).map { row($0, relativeTime: $1, timeWidth: timeWidth) }.joined(separator: "\n")
            + "\n" + LimitNote.line(omittedCount, palette: palette)
    }

    /// `● Title (2)   [news] snippet…   14:02`: marker, title with its unread badge, snippet (after its
    /// author's name when there is one), time.
    func row(_ conversation: ConversationRow, relativeTime: String, timeWidth: Int) -> String {
        let marker = conversation.unreadCount > 0 ? glyphs.unreadMarker : " "
        let when = String(repeating: " ", count: max(0, timeWidth - DisplayWidth.of(relativeTime))) + relativeTime
        let unread = conversation.unreadCount > 0 ? " (\(conversation.unreadCount))" : ""
        let tag = conversation.isNewsletter ? "[news] " : ""
        let unreadWidth = DisplayWidth.of(unread)
        // marker + space, title column, two spaces, snippet, two spaces, time.
        let titleWidth = min(32, max(14, (width - 2) / 3))
        let snippetWidth = width - 2 - titleWidth - 2 - 2 - timeWidth
        let fullTitle = TerminalSafeText.singleLine(conversation.title)
        guard snippetWidth >= 8 else {
            // Too narrow for columns: the title alone, cut to fit.
            return paint(marker, .badge) + " "
                + DisplayWidth.truncate(fullTitle + unread, toWidth: max(1, width - 2), ellipsis: glyphs.ellipsis)
        }
        let title = DisplayWidth.truncate(
            fullTitle, toWidth: max(4, titleWidth - unreadWidth), ellipsis: glyphs.ellipsis)
        let titleCellWidth = DisplayWidth.of(title) + unreadWidth
        let padding = String(repeating: " ", count: max(0, titleWidth - titleCellWidth))
        // A long badge may push the title cell past its column; the snippet gives the columns back.
        let overflow = max(0, titleCellWidth - titleWidth)
        let snippetRoom = snippetWidth - overflow - DisplayWidth.of(tag)
        let author = conversation.snippetAuthor.map { TerminalSafeText.singleLine($0) + ": " } ?? ""
        let snippet = DisplayWidth.pad(
            author + TerminalSafeText.singleLine(conversation.snippet), toWidth: max(0, snippetRoom),
            ellipsis: glyphs.ellipsis)
        return paint(marker, .badge) + " " + palette.paint(title, .bold) + paint(unread, .badge)
            + padding + "  " + paint(tag, .newsletter) + palette.paint(snippet, .dim) + "  " + when
    }

    private func paint(_ text: String, _ style: Palette.Style) -> String {
        text == " " ? text : palette.paint(text, style)
    }
}
