import TextFormatting

/// Renders `chatmail pending`: one row per queued action (id, kind, status, attempts, next attempt,
/// target), with its last error on an indented line below.
public struct PendingActionRenderer: Sendable {
    public var width: Int
    public var time: TimeFormatting
    public var palette: Palette

    public init(width: Int, time: TimeFormatting, palette: Palette) {
        self.width = width
        self.time = time
        self.palette = palette
    }

    static let header = ["ID", "KIND", "STATUS", "ATTEMPTS", "NEXT", "TARGET"]

    public func render(_ actions: [QueuedActionRow]) -> String {
        guard !actions.isEmpty else { return "No queued actions.\n" }
        let rows = actions.map { action -> [String] in
            [
                "#\(action.number)", action.kind, action.status.rawValue, String(action.attempts),
                nextAttempt(action), TerminalSafeText.singleLine(action.target) + count(action.messageCount),
            ]
        }
        var widths = Self.header.map(DisplayWidth.of)
        for row in rows {
            for (column, cell) in row.enumerated().dropLast() {
                widths[column] = max(widths[column], DisplayWidth.of(cell))
            }
        }
        func line(_ cells: [String]) -> String {
            let fixed = cells.enumerated().dropLast().map { DisplayWidth.pad($0.element, toWidth: widths[$0.offset]) }
            let used = fixed.reduce(0) { $0 + DisplayWidth.of($1) + 2 }
            let target = DisplayWidth.truncate(cells[cells.count - 1], toWidth: max(8, width - used))
            return (fixed + [target]).joined(separator: "  ")
        }
        var output = palette.paint(line(Self.header), .bold) + "\n"
        for (action, row) in zip(actions, rows) {
            output += paintStatus(line(row), action.status) + "\n"
            if let error = action.lastError {
                output += "    " + palette.paint("last error: " + TerminalSafeText.singleLine(error), .dim) + "\n"
            }
        }
        return output
    }

    /// "now", "in 4 s", "in 3 min", or "-" for finished actions.
    func nextAttempt(_ action: QueuedActionRow) -> String {
        guard action.status == .pending || action.status == .failed else { return "-" }
        let seconds = (action.nextAttemptAtMs - time.nowMs + 999) / 1000
        if seconds <= 0 { return "now" }
        if seconds < 120 { return "in \(seconds) s" }
        return "in \((seconds + 59) / 60) min"
    }

    private func count(_ messages: Int) -> String {
        messages == 1 ? " (1 message)" : " (\(messages) messages)"
    }

    private func paintStatus(_ text: String, _ status: QueuedActionRow.Status) -> String {
        switch status {
        case .abandoned: palette.paint(text, .badge)
        case .completed: palette.paint(text, .dim)
        case .pending, .processing, .failed: text
        }
    }
}
