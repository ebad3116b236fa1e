/// The bytes that change the screen from one frame to the next.
///
/// Rewriting only the lines that changed keeps each keystroke's output to a few hundred bytes, which is
/// what makes typing feel immediate over ssh; clearing the screen on every frame would flicker. Each line
/// is written from column 1 after a style reset and followed by another reset, so a style left open in one
/// line never colours the next, and the line's old tail is erased with `ESC[K` (in the default colours,
/// since the reset comes first).
public enum FrameDiff {
    /// Hides the cursor, so it does not flash across the screen while lines are written.
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let resetStyle = "\u{1B}[0m"
    static let eraseToEndOfLine = "\u{1B}[K"
    static let clearScreen = "\u{1B}[H\u{1B}[2J"

    /// The update from `previous` (drawn at `previousSize`) to `next` at `size`.
    ///
    /// The whole screen is redrawn, after `ESC[2J`, when there is no previous frame or the size changed,
    /// since the terminal reflowed or cleared what was there. Otherwise only lines that differ are
    /// written, and an unchanged frame with an unchanged cursor gives the empty string. `next` is fitted
    /// to `size` first (see `fitted(_:to:)`), so a frame that breaks its contract cannot scroll or garble
    /// the screen.
    public static func update(
        from previous: Frame?,
        drawnAt previousSize: TerminalSize?,
        to next: Frame,
        size: TerminalSize
    ) -> String {
        let target = fitted(next, to: size)
        let isFullRedraw = previous == nil || previousSize != size
        let old = isFullRedraw ? nil : previous.map { fitted($0, to: size) }
        var output = ""
        for row in target.lines.indices where isFullRedraw || old?.lines[row] != target.lines[row] {
            if output.isEmpty { output = hideCursor + (isFullRedraw ? resetStyle + clearScreen : "") }
            output += moveCursor(row: row, column: 0) + resetStyle + target.lines[row] + resetStyle
            if !isFullRedraw && LineFitter.width(of: target.lines[row]) < size.columns {
                // A line that fills the row leaves the cursor on its last cell, where `ESC[K` would erase
                // that cell; it has no old tail anyway.
                output += eraseToEndOfLine
            }
        }
        guard !output.isEmpty || old?.cursor != target.cursor else { return "" }
        if let cursor = target.cursor {
            output += moveCursor(row: cursor.row, column: cursor.column) + showCursor
        } else if output.isEmpty {
            output = hideCursor  // written lines began by hiding it
        }
        return output
    }

    /// `frame` made to fit `size`: exactly `size.rows` lines (missing ones blank, extra ones dropped), each
    /// cut to `size.columns` cells with anything but SGR sequences and printable text removed, and the
    /// cursor dropped when it lies outside the screen.
    public static func fitted(_ frame: Frame, to size: TerminalSize) -> Frame {
        let rows = max(0, size.rows)
        var lines = frame.lines.prefix(rows).map { LineFitter.fit($0, columns: size.columns) }
        lines += Array(repeating: "", count: rows - lines.count)
        let cursor = frame.cursor.flatMap { cursor in
            (0..<rows).contains(cursor.row) && (0..<max(1, size.columns)).contains(cursor.column) ? cursor : nil
        }
        return Frame(lines: lines, cursor: cursor)
    }

    /// `ESC[row;columnH`, from zero-based coordinates.
    static func moveCursor(row: Int, column: Int) -> String {
        "\u{1B}[\(row + 1);\(column + 1)H"
    }
}
