import ChatmailStore

/// Renders `chatmail status` as aligned "label  value" lines.
public struct StatusRenderer: Sendable {
    public var time: TimeFormatting
    public var palette: Palette

    public init(time: TimeFormatting, palette: Palette) {
        self.time = time
        self.palette = palette
    }

    public func render(_ status: StoreStatus) -> String {
        let actions = status.actionCounts
        let rows: [(String, String)] = [
            ("Account", TerminalSafeText.singleLine(status.account.email)),
            ("History id", status.account.historyID ?? "none (never synced)"),
            ("Last sync", status.account.lastSyncAtMs.map { time.iso8601($0) } ?? "never"),
            ("Messages", String(status.messageCount)),
            ("Conversations", "\(status.conversationCount) (\(status.archivedConversationCount) archived, \(status.unreadConversationCount) unread)"),
            ("Pending actions", "\(actions[.pending, default: 0] + actions[.processing, default: 0]) pending, \(actions[.failed, default: 0]) failed, \(actions[.abandoned, default: 0]) abandoned"),
            ("Abandoned messages", String(status.abandonedMessageCount)),
        ]
        let labelWidth = rows.map { $0.0.count }.max() ?? 0
        return rows.map { label, value in
            palette.paint(label + String(repeating: " ", count: labelWidth - label.count), .bold) + "  " + value
        }.joined(separator: "\n") + "\n"
    }
}
