import ChatmailStore
import RecordViews
import TerminalUI
import TextFormatting

/// The open conversation as lines for the transcript pane, drawn by the same ``TranscriptRenderer``
/// as `chatmail show`; the reducer measures with it too, so scrolling clamps to what the view draws.
enum TranscriptPane {
    /// The rendered lines, without the renderer's final newline.
    static func lines(_ transcript: Transcript, width: Int, palette: Palette, glyphs: Glyphs, time: TimeFormatting)
        -> [String]
    {
        let renderer = TranscriptRenderer(width: max(1, width), time: time, palette: palette, glyphs: glyphs)
        var lines = renderer.render(transcript).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// How many lines the transcript takes at `width`. Colour adds no lines, so it is measured without.
    static func lineCount(_ transcript: Transcript, width: Int, glyphs: Glyphs, time: TimeFormatting) -> Int {
        lines(transcript, width: width, palette: Palette(isEnabled: false), glyphs: glyphs, time: time).count
    }

    /// The first line of what introduces `message` (its day, the unread divider, its sender's header):
    /// the renderer draws messages in order, each from what came before, so the lines of the messages
    /// before it are exactly the lines above it. `nil` when the message is not in the transcript.
    static func startLine(
        of message: MessageID, in transcript: Transcript, width: Int, glyphs: Glyphs, time: TimeFormatting
    ) -> Int? {
        guard let index = transcript.messages.firstIndex(where: { $0.id == message }) else { return nil }
        var before = transcript
        before.messages = Array(transcript.messages[..<index])
        return lineCount(before, width: width, glyphs: glyphs, time: time)
    }
}
