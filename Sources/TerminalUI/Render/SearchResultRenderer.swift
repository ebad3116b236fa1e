import TextFormatting
import TextSafety

/// Renders search results: for each hit, who wrote it and when, the command that opens the
/// conversation, the subject and a snippet with the matching words highlighted.
///
/// Matches are shown in bold on a colour terminal; when colour is off (piped, `NO_COLOR`,
/// `--color never`) they are wrapped in ``plainMarks`` so they still stand out in plain text.
public struct SearchResultRenderer: Sendable {
    public var width: Int
    public var time: TimeFormatting
    public var palette: Palette

    /// Marks around a match when colour is off.
    public static let plainMarks = (open: "**", close: "**")

    public init(width: Int, time: TimeFormatting, palette: Palette) {
        self.width = width
        self.time = time
        self.palette = palette
    }

    /// - Parameter omittedCount: how many more messages match than a limit let through, said on a last line.
    public func render(_ hits: [SearchHitView], omittedCount: Int = 0) -> String {
        guard !hits.isEmpty else { return "No messages match.\n" }
        var blocks: [String] = []
        for hit in hits {
            var lines: [String] = []
            let author = hit.isFromMe ? "You" : TerminalSafeText.singleLine(hit.author.name ?? hit.author.address)
            let title = TerminalSafeText.singleLine(hit.conversationTitle)
            let when = time.dayHeading(hit.dateMs) + " " + time.clockTime(hit.dateMs)
            let header = DisplayWidth.truncate(
                author == title ? "\(author) · \(when)" : "\(author) in \(title) · \(when)", toWidth: width)
            lines.append(palette.paint(header, .bold))
            if let open = hit.openCommand {
                lines.append(palette.paint(DisplayWidth.truncate("  " + open, toWidth: width), .dim))
            }
            if !hit.subject.plain.isEmpty {
                lines.append("  Subject: " + highlighted(hit.subject))
            }
            // Not wrapped: a snippet is a few words, and wrapping would have to see through the highlights.
            let snippet = highlighted(hit.snippet)
            if !snippet.isEmpty { lines.append("  " + snippet) }
            blocks.append(lines.joined(separator: "\n"))
        }
        let note = LimitNote.line(omittedCount, palette: palette)
        return blocks.joined(separator: "\n\n") + "\n" + (note.isEmpty ? "" : "\n" + note)
    }

    /// The text on one line, terminal-safe, with matches in bold or between marks.
    func highlighted(_ text: MarkedText) -> String {
        text.segments.map { segment in
            let safe = TerminalSafeText.singleLine(segment.text)
            let spaced =
                (segment.text.first?.isWhitespace == true ? " " : "") + safe
                + (segment.text.last?.isWhitespace == true && !safe.isEmpty ? " " : "")
            guard segment.isMatch, !safe.isEmpty else { return spaced }
            return palette.isEnabled
                ? palette.paint(spaced, .bold)
                : Self.plainMarks.open + spaced + Self.plainMarks.close
        }.joined()
    }
}
