import TextFormatting

/// Renders a transcript as a chat: day separators, a name-and-time header for each run of messages
/// from one sender, and a bubble per message, other people's on the left and mine on the right.
///
/// Invariants, tested at several widths:
/// - no line is wider than ``width`` columns (escape sequences aside);
/// - all email text goes through ``TerminalSafeText``, and the only escape sequences are the
///   palette's own;
/// - a bubble is at most about 70% of the width, so the two sides stay apart.
public struct TranscriptRenderer: Sendable {
    public var width: Int
    public var time: TimeFormatting
    public var palette: Palette
    public var glyphs: Glyphs
    /// Show the original text (with quotes and signatures) instead of the bubble text.
    public var showFullText: Bool

    /// A new header starts after this gap between two messages of the same sender.
    static let runBreakMs: Int64 = 30 * 60 * 1000

    public init(
        width: Int, time: TimeFormatting, palette: Palette, glyphs: Glyphs = .rounded, showFullText: Bool = false
    ) {
        self.width = width
        self.time = time
        self.palette = palette
        self.glyphs = glyphs
        self.showFullText = showFullText
    }

    /// The widest a bubble may be, border included.
    var bubbleWidth: Int { min(width, max(14, width * 7 / 10)) }

    public func render(_ transcript: TranscriptView) -> String {
        var output = ""
        output.reserveCapacity(transcript.messages.count * 512)
        func line(_ text: String) {
            output += text
            output += "\n"
        }
        heading(transcript).forEach(line)
        let content = BubbleContent(
            maxWidth: bubbleWidth - Bubble.frameWidth, glyphs: glyphs, showFullText: showFullText)
        let bubble = Bubble(glyphs: glyphs, palette: palette)
        let firstUnread = transcript.messages.firstIndex { $0.isUnread && !$0.isFromMe }
        var previous: BubbleMessage?
        var previousDay: Int?
        for (index, message) in transcript.messages.enumerated() {
            let day = time.dayNumber(message.dateMs)
            let newDay = day != previousDay
            previousDay = day
            if newDay {
                line("")
                line(palette.paint(centered(time.dayHeading(message.dateMs)), .dim))
            }
            if index == firstUnread {
                let count = transcript.messages[index...].count { $0.isUnread && !$0.isFromMe }
                line("")
                line(palette.paint(centered("\(count) unread"), .badge))
            }
            let startsRun =
                newDay || index == firstUnread
                || previous.map {
                    $0.from.key != message.from.key || $0.isFromMe != message.isFromMe
                        || message.dateMs - $0.dateMs > Self.runBreakMs
                        // A message still in the outbox keeps its own header: the mark is only there.
                        || $0.delivery != message.delivery
                } ?? true
            if startsRun {
                line("")
                line(header(for: message))
            }
            // The subject is shown where the topic changes, and on the first bubble.
            let showSubject = previous.map { $0.subjectBase != message.subjectBase } ?? true
            bubble.draw(
                content.lines(for: message, showSubject: showSubject),
                tag: message.isNewsletter ? "newsletter" : nil,
                border: message.isFromMe ? .accent : .person(message.from.key),
                alignRight: message.isFromMe, lineWidth: width, into: &output)
            previous = message
        }
        return output
    }

    /// The title, who is in the conversation (or the subtitle), and how many older messages are not shown.
    func heading(_ transcript: TranscriptView) -> [String] {
        var lines: [String] = []
        let title = TerminalSafeText.singleLine(transcript.title)
        lines.append(palette.paint(DisplayWidth.truncate(title, toWidth: width, ellipsis: glyphs.ellipsis), .bold))
        let people = transcript.participants.map { person -> String in
            let address = TerminalSafeText.singleLine(person.address)
            guard let name = person.name.map(TerminalSafeText.singleLine), !name.isEmpty, name != address else {
                return address
            }
            return name + " <" + address + ">"
        }
        if let subtitle = transcript.subtitle {
            lines += TextWrapper.wrap(TerminalSafeText.singleLine(subtitle), width: width).map {
                palette.paint($0, .dim)
            }
        } else if !people.isEmpty {
            lines += TextWrapper.wrap(people.joined(separator: ", "), width: width).map { palette.paint($0, .dim) }
        }
        if let note = LimitNote.earlier(transcript.earlierMessageCount) {
            lines += TextWrapper.wrap(note, width: width).map { palette.paint($0, .dim) }
        }
        return lines
    }

    /// "Alice · 14:02" on the left in her colour, or "You · 14:05" on the right ("You · 14:05 · queued"
    /// while the message is in the outbox).
    func header(for message: BubbleMessage) -> String {
        var clock = " " + glyphs.separatorDot + " " + time.clockTime(message.dateMs)
        if let delivery = message.delivery {
            clock += " " + glyphs.separatorDot + " " + TerminalSafeText.singleLine(delivery)
        }
        if message.isFromMe {
            let text = DisplayWidth.truncate("You" + clock, toWidth: width, ellipsis: glyphs.ellipsis)
            return String(repeating: " ", count: max(0, width - DisplayWidth.of(text))) + palette.paint(text, .accent)
        }
        let sender = TerminalSafeText.singleLine(message.from.name ?? "")
        let name = DisplayWidth.truncate(
            sender.isEmpty ? TerminalSafeText.singleLine(message.from.address) : sender,
            toWidth: max(1, width - DisplayWidth.of(clock)), ellipsis: glyphs.ellipsis)
        return palette.paint(name, Palette.Style.person(message.from.key).with(.bold)) + palette.paint(clock, .dim)
    }

    /// `label` between two rules, centred: "── Tue 3 Mar 2025 ──".
    func centered(_ label: String) -> String {
        let fitted = DisplayWidth.truncate(
            glyphs.rule + " " + label + " " + glyphs.rule, toWidth: width, ellipsis: glyphs.ellipsis)
        return String(repeating: " ", count: max(0, (width - DisplayWidth.of(fitted)) / 2)) + fitted
    }
}
