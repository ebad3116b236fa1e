import TextFormatting

/// Renders `chatmail status` as aligned "label  value" lines.
public struct StatusRenderer: Sendable {
    public var time: TimeFormatting
    public var palette: Palette

    public init(time: TimeFormatting, palette: Palette) {
        self.time = time
        self.palette = palette
    }

    public func render(_ status: StatusView) -> String {
        let rows: [(String, String)] = [
            (
                "Account",
                TerminalSafeText.singleLine(status.account)
                    + (status.isDemo ? " (the demo mailbox, served by the local Gmail emulator)" : "")
            ),
            ("Data", TerminalSafeText.singleLine(status.dataPath)),
            status.imapServer.map { ("IMAP server", TerminalSafeText.singleLine($0)) }
                ?? ("History id", status.historyID ?? "none (never synced)"),
            ("Last sync", status.lastSyncAtMs.map { time.iso8601($0) } ?? "never"),
            ("Messages", String(status.messageCount)),
            (
                "Conversations",
                "\(status.conversationCount) (\(status.archivedConversationCount) archived, \(status.unreadConversationCount) unread)"
            ),
            (
                "Pending actions",
                "\(status.pendingActionCount) pending, \(status.failedActionCount) failed, \(status.abandonedActionCount) abandoned"
            ),
            ("Abandoned messages", String(status.abandonedMessageCount)),
        ]
        let labelWidth = rows.map { $0.0.count }.max() ?? 0
        return rows.map { label, value in
            palette.paint(label + String(repeating: " ", count: labelWidth - label.count), .bold) + "  " + value
        }.joined(separator: "\n") + "\n"
    }
}
