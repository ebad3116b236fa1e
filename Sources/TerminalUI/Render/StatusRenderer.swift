import ChatmailStore

/// Renders `chatmail status` as aligned "label  value" lines.
public struct StatusRenderer: Sendable {
    public var time: TimeFormatting
    public var palette: Palette

    public init(time: TimeFormatting, palette: Palette) {
        self.time = time
        self.palette = palette
    }

    /// The status of the account whose data lives at `dataPath` (the home directory); `isDemo` marks
    /// the demo's home, whose Gmail is the local emulator.
    public func render(_ status: StoreStatus, dataPath: String, isDemo: Bool = false) -> String {
        let actions = status.actionCounts
        let rows: [(String, String)] = [
            ("Account", TerminalSafeText.singleLine(status.account.email) + (isDemo ? " (the demo mailbox, served by the local Gmail emulator)" : "")),
            ("Data", TerminalSafeText.singleLine(dataPath)),
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
