import Testing

@testable import TerminalKit

@Suite struct FrameDiffTests {
    let size = TerminalSize(columns: 10, rows: 3)

    /// The rows an update writes to, read from its `ESC[row;1H` moves.
    private func rowsWritten(_ update: String) -> [Int] {
        update.split(separator: "\u{1B}[").compactMap { part in
            guard let semicolon = part.firstIndex(of: ";"), part[semicolon...].hasPrefix(";1H") else { return nil }
            return Int(part[..<semicolon])
        }
    }

    @Test func firstFrameIsAFullRedraw() {
        let frame = Frame(lines: ["one", "two", "three"])
        let update = FrameDiff.update(from: nil, drawnAt: nil, to: frame, size: size)
        #expect(update.hasPrefix("\u{1B}[?25l\u{1B}[0m\u{1B}[H\u{1B}[2J"))
        #expect(rowsWritten(update) == [1, 2, 3])
        #expect(update.contains("\u{1B}[2;1H\u{1B}[0mtwo\u{1B}[0m"))
        #expect(update.hasSuffix("\u{1B}[?25l") || !update.contains("\u{1B}[?25h"))
    }

    @Test func unchangedFrameWritesNothing() {
        let frame = Frame(lines: ["one", "two", "three"], cursor: .init(row: 1, column: 2))
        #expect(FrameDiff.update(from: frame, drawnAt: size, to: frame, size: size) == "")
    }

    @Test func oneChangedLineRewritesOnlyThatLine() {
        let old = Frame(lines: ["one", "two", "three"])
        let new = Frame(lines: ["one", "TWO!", "three"])
        let update = FrameDiff.update(from: old, drawnAt: size, to: new, size: size)
        #expect(update == "\u{1B}[?25l\u{1B}[2;1H\u{1B}[0mTWO!\u{1B}[0m\u{1B}[K")
        #expect(!update.contains("\u{1B}[2J"))
    }

    @Test func resizeIsAFullRedraw() {
        let frame = Frame(lines: ["one", "two", "three"])
        let wider = TerminalSize(columns: 20, rows: 3)
        let update = FrameDiff.update(from: frame, drawnAt: size, to: frame, size: wider)
        #expect(update.contains("\u{1B}[2J"))
        #expect(rowsWritten(update) == [1, 2, 3])
    }

    @Test func cursorShownAtItsPlaceOrHidden() {
        let lines = ["one", "two", "three"]
        let hidden = Frame(lines: lines)
        let shown = Frame(lines: lines, cursor: .init(row: 2, column: 4))
        let show = FrameDiff.update(from: hidden, drawnAt: size, to: shown, size: size)
        #expect(show == "\u{1B}[3;5H\u{1B}[?25h")
        #expect(FrameDiff.update(from: shown, drawnAt: size, to: hidden, size: size) == "\u{1B}[?25l")
        // With lines written, the cursor is hidden first and shown again at the end.
        let changed = Frame(lines: ["one", "two", "four"], cursor: .init(row: 2, column: 4))
        let update = FrameDiff.update(from: shown, drawnAt: size, to: changed, size: size)
        #expect(update.hasPrefix("\u{1B}[?25l"))
        #expect(update.hasSuffix("\u{1B}[3;5H\u{1B}[?25h"))
    }

    @Test func stylesAreResetAroundEachLine() {
        let old = Frame(lines: ["a", "b", "c"])
        let new = Frame(lines: ["a", "\u{1B}[1;31mred", "c"])
        let update = FrameDiff.update(from: old, drawnAt: size, to: new, size: size)
        #expect(update.contains("\u{1B}[0m\u{1B}[1;31mred\u{1B}[0m\u{1B}[K"))
    }

    @Test func aLineFillingTheRowIsNotFollowedByErase() {
        let old = Frame(lines: ["a", "b", "c"])
        let new = Frame(lines: ["a", "0123456789", "日本語日本"])
        let update = FrameDiff.update(from: old, drawnAt: size, to: new, size: size)
        #expect(update.contains("0123456789\u{1B}[0m\u{1B}[3;1H"))
        #expect(update.hasSuffix("日本語日本\u{1B}[0m"))
    }

    @Test func framesAreFittedToTheScreen() {
        let frame = Frame(
            lines: ["0123456789abc", "\u{1B}[2Jx\u{1B}[31my\u{7}\r\nz", "日本語日本語", "extra row"],
            cursor: .init(row: 5, column: 0)
        )
        let fitted = FrameDiff.fitted(frame, to: size)
        #expect(fitted.lines == ["0123456789", "x\u{1B}[31myz", "日本語日本"])
        #expect(fitted.cursor == nil)
        let short = FrameDiff.fitted(Frame(lines: ["only"]), to: size)
        #expect(short.lines == ["only", "", ""])
        #expect(FrameDiff.fitted(Frame(lines: ["ab日"]), to: TerminalSize(columns: 3, rows: 1)).lines == ["ab"])
    }

    @Test func widthCountsCellsNotEscapes() {
        #expect(LineFitter.width(of: "\u{1B}[1mab\u{1B}[0m") == 2)
        #expect(LineFitter.width(of: "日本") == 4)
        #expect(LineFitter.width(of: "e\u{301}") == 1)
        #expect(LineFitter.width(of: "👍🏽🇫🇷❤️") == 6)
    }
}
