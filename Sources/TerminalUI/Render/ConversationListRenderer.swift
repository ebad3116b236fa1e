import ChatmailStore

/// Renders the conversation list as one line per conversation:
/// title with unread count, snippet, and a relative time, never wider than the terminal.
public struct ConversationListRenderer: Sendable {
    public var width: Int
    public var time: TimeFormatting
    public var palette: Palette

    static let timeColumnWidth = 10

    public init(width: Int, time: TimeFormatting, palette: Palette) {
        self.width = width
        self.time = time
        self.palette = palette
    }

    public func render(_ conversations: [ConversationSummary]) -> String {
        guard !conversations.isEmpty else { return "No conversations.\n" }
        return conversations.map(row).joined(separator: "\n") + "\n"
    }

    func row(_ conversation: ConversationSummary) -> String {
        let marker = conversation.unreadCount > 0 ? "●" : " "
        // Right-aligned in a fixed column, wide enough for "2023-03-03" and "Yesterday".
        let relative = time.relative(conversation.lastMessageAtMs)
        let when = String(repeating: " ", count: max(0, Self.timeColumnWidth - DisplayWidth.of(relative))) + relative
        let unread = conversation.unreadCount > 0 ? " (\(conversation.unreadCount))" : ""
        let tag = conversation.isNewsletter ? " [news]" : ""
        let suffixWidth = DisplayWidth.of(unread + tag)
        // marker + space, title column, two spaces, snippet, two spaces, time.
        let timeWidth = DisplayWidth.of(when)
        let titleWidth = min(32, max(8, (width - 2) / 3))
        let snippetWidth = width - 2 - titleWidth - 2 - 2 - timeWidth
        let fullTitle = TerminalSafeText.singleLine(conversation.title)
        guard snippetWidth >= 8 else {
            // Too narrow for columns: the title alone, cut to fit.
            return paint(marker, .badge) + " " + DisplayWidth.truncate(fullTitle + unread + tag, toWidth: max(1, width - 2))
        }
        let title = DisplayWidth.truncate(fullTitle, toWidth: max(1, titleWidth - suffixWidth))
        let titleCellWidth = DisplayWidth.of(title) + suffixWidth
        let padding = String(repeating: " ", count: max(0, titleWidth - titleCellWidth))
        // A long badge may push the title cell past its column; the snippet gives the columns back.
        let overflow = max(0, titleCellWidth - titleWidth)
        let snippet = DisplayWidth.pad(TerminalSafeText.singleLine(conversation.snippet), toWidth: snippetWidth - overflow)
        return paint(marker, .badge) + " " + palette.paint(title, .bold) + paint(unread, .badge) + paint(tag, .newsletter)
            + padding + "  " + palette.paint(snippet, .dim) + "  " + when
    }

    private func paint(_ text: String, _ style: Palette.Style) -> String {
        text == " " ? text : palette.paint(text, style)
    }
}
