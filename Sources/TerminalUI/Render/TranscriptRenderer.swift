import ChatmailStore

/// Renders a transcript as a chat: day separators, a name-and-time header for each run of messages
/// from one sender, other people's messages on the left and mine on the right.
///
/// This is the plain layout; every line fits in ``width`` columns and all email text goes through
/// ``TerminalSafeText``.
public struct TranscriptRenderer: Sendable {
    public var width: Int
    public var time: TimeFormatting
    public var palette: Palette
    /// Show the original text (with quotes and signatures) instead of the bubble text.
    public var showFullText: Bool

    /// A new header starts after this gap between two messages of the same sender.
    static let runBreakMs: Int64 = 30 * 60 * 1000

    public init(width: Int, time: TimeFormatting, palette: Palette, showFullText: Bool = false) {
        self.width = width
        self.time = time
        self.palette = palette
        self.showFullText = showFullText
    }

    public func render(_ transcript: Transcript) -> String {
        var lines: [String] = []
        let title = TerminalSafeText.singleLine(transcript.conversation.title)
        lines.append(palette.paint(DisplayWidth.truncate(title, toWidth: width), .bold))
        let people = transcript.conversation.participants.map { TerminalSafeText.singleLine($0.address) }
        if !people.isEmpty {
            lines.append(contentsOf: TextWrapper.wrap(people.joined(separator: ", "), width: width).map { palette.paint($0, .dim) })
        }
        if transcript.earlierMessageCount > 0 {
            let note = "\(transcript.earlierMessageCount) earlier messages not shown (use --limit)"
            lines.append(contentsOf: TextWrapper.wrap(note, width: width).map { palette.paint($0, .dim) })
        }
        var previous: TranscriptMessage?
        var unreadDividerShown = false
        for message in transcript.messages {
            if previous.map({ !time.isSameDay($0.internalDateMs, message.internalDateMs) }) ?? true {
                lines.append("")
                lines.append(palette.paint(centered("── \(time.dayHeading(message.internalDateMs)) ──"), .dim))
            }
            if message.isUnread && !message.isFromMe && !unreadDividerShown {
                unreadDividerShown = true
                lines.append(palette.paint(centered("── unread ──"), .badge))
            }
            let startsRun = previous.map {
                $0.from.normalizedAddress != message.from.normalizedAddress
                    || message.internalDateMs - $0.internalDateMs > Self.runBreakMs
                    || !time.isSameDay($0.internalDateMs, message.internalDateMs)
            } ?? true
            lines.append(contentsOf: block(for: message, withHeader: startsRun))
            previous = message
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func block(for message: TranscriptMessage, withHeader: Bool) -> [String] {
        let bubbleWidth = max(10, width * 7 / 10)
        var body: [String] = []
        if message.isNewsletter && !message.subject.isEmpty {
            body.append(TerminalSafeText.singleLine(message.subject) + " [newsletter]")
        }
        let text = showFullText ? (message.originalText ?? message.text) : message.text
        body.append(contentsOf: TextWrapper.wrap(TerminalSafeText.sanitize(text), width: bubbleWidth))
        if !showFullText && message.originalText != nil { body.append("[…]") }
        for attachment in message.attachments {
            body.append("📎 " + TerminalSafeText.singleLine(attachment.filename) + " (" + ByteCount.format(attachment.size) + ")")
        }
        body = body.flatMap { TextWrapper.wrap($0, width: bubbleWidth) }
        // Every message starts after an empty line; a run's first message also gets a header.
        var lines: [String] = [""]
        if withHeader {
            let name = message.isFromMe ? "You" : TerminalSafeText.singleLine(message.from.name ?? message.from.address)
            let header = DisplayWidth.truncate(name + " · " + time.clockTime(message.internalDateMs), toWidth: width)
            lines.append(message.isFromMe ? rightAligned(palette.paint(header, .accent), width: DisplayWidth.of(header)) : palette.paint(header, .bold))
        }
        // My block sits against the right edge as a whole; its lines stay left-aligned within it.
        let blockWidth = body.map { DisplayWidth.of($0) }.max() ?? 0
        let indent = message.isFromMe ? String(repeating: " ", count: max(0, width - blockWidth)) : "  "
        for line in body {
            lines.append(indent + line)
        }
        return lines
    }

    private func rightAligned(_ text: String, width textWidth: Int) -> String {
        String(repeating: " ", count: max(0, width - textWidth)) + text
    }

    private func centered(_ text: String) -> String {
        let fitted = DisplayWidth.truncate(text, toWidth: width)
        return String(repeating: " ", count: max(0, (width - DisplayWidth.of(fitted)) / 2)) + fitted
    }
}

/// Human byte counts: "512 B", "12 KB", "3.4 MB".
public enum ByteCount {
    public static func format(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let rounded = value < 10 ? (value * 10).rounded() / 10 : value.rounded()
        let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return "\(text) \(units[unit])"
    }
}
