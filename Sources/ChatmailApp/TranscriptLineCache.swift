import ChatmailStore
import Foundation
import Synchronization
import TerminalUI
import TextFormatting

/// The last transcript drawn, as lines, so a frame that shows the same transcript (a scroll, a list
/// move, a tick) slices it instead of drawing every bubble again.
///
/// Drawing a 2,000-message transcript takes about a hundred milliseconds; slicing takes nothing. The key
/// is everything the lines depend on: the transcript (compared by value; an unchanged transcript shares
/// its storage, so the comparison is immediate), the width, colour, the glyphs, the time zone and the
/// minute (day separators say "Today"). The run loop owns one for the session and passes it to every
/// frame; without one, each frame draws afresh, with the same result.
public final class TranscriptLineCache: Sendable {
    struct Key: Equatable {
        var transcript: Transcript
        var width: Int
        var isColored: Bool
        var glyphs: Glyphs
        var timeZone: String
        var minute: Int64
    }

    private let last = Mutex<(key: Key, lines: [String])?>(nil)

    public init() {}

    func lines(
        _ transcript: Transcript, width: Int, palette: Palette, glyphs: Glyphs, time: TimeFormatting
    ) -> [String] {
        let key = Key(
            transcript: transcript, width: width, isColored: palette.isEnabled, glyphs: glyphs,
            timeZone: time.timeZone.identifier, minute: time.nowMs / 60_000)
        if let hit = last.withLock({ $0?.key == key ? $0?.lines : nil }) { return hit }
        let lines = TranscriptPane.lines(transcript, width: width, palette: palette, glyphs: glyphs, time: time)
        last.withLock { $0 = (key, lines) }
        return lines
    }
}
