import ChatmailStore
import TextFormatting

/// Renders `index.md` of a directory export: one line per conversation file, newest first.
public struct ExportIndexMarkdown: Sendable {
    /// One exported conversation.
    public struct Entry: Sendable {
        public var conversation: ConversationSummary
        /// The file name inside the export directory.
        public var fileName: String
        public var messageCount: Int
        public var firstMessageAtMs: Int64?
        public var lastMessageAtMs: Int64?

        public init(
            conversation: ConversationSummary, fileName: String, messageCount: Int, firstMessageAtMs: Int64?,
            lastMessageAtMs: Int64?
        ) {
            self.conversation = conversation
            self.fileName = fileName
            self.messageCount = messageCount
            self.firstMessageAtMs = firstMessageAtMs
            self.lastMessageAtMs = lastMessageAtMs
        }
    }

    public var time: TimeFormatting
    public var options: ConversationMarkdown.Options

    public init(time: TimeFormatting, options: ConversationMarkdown.Options) {
        self.time = time
        self.options = options
    }

    /// - Parameter entries: in any order; the index lists them by last message, newest first.
    public func render(account: String, entries: [Entry]) -> String {
        let sorted = entries.sorted {
            ($0.lastMessageAtMs ?? 0, $0.conversation.id.rawValue) > (
                $1.lastMessageAtMs ?? 0, $1.conversation.id.rawValue
            )
        }
        var lines = [
            "---",
            "title: " + YAMLScalar.quoted("Conversations of " + TerminalSafeText.singleLine(account)),
            "account: " + YAMLScalar.quoted(TerminalSafeText.singleLine(account)),
            "conversationCount: \(entries.count)",
            "messageCount: \(entries.reduce(0) { $0 + $1.messageCount })",
        ]
        if let exported = options.exportedAtMs {
            lines.append("exportedAt: " + YAMLScalar.quoted(time.iso8601(exported)))
        }
        lines += ["chatmailVersion: " + YAMLScalar.quoted(options.version), "---", "", "# Conversations", ""]
        if sorted.isEmpty { lines.append("No conversations were exported.") }
        for entry in sorted {
            let title = MarkdownText.escapeLine(
                Substring(TerminalSafeText.singleLine(entry.conversation.title)), atLineStart: false, inLinkText: true)
            var line =
                "- [" + (title.isEmpty ? "(untitled)" : title) + "]("
                + MarkdownText.linkDestination(path: entry.fileName) + ")"
            line += entry.messageCount == 1 ? " — 1 message" : " — \(entry.messageCount) messages"
            if let first = entry.firstMessageAtMs, let last = entry.lastMessageAtMs {
                let from = String(time.iso8601(first).prefix(10))
                let to = String(time.iso8601(last).prefix(10))
                line += from == to ? ", \(from)" : ", \(from) to \(to)"
            }
            if entry.conversation.isNewsletter { line += " (newsletter)" }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
