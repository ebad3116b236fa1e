/// A key as the app sees it, decoded from the bytes a terminal sends in raw mode.
public enum Key: Hashable, Sendable {
    /// A printable character (space included), as typed.
    case character(Character)
    case enter, escape, backspace, tab, backTab, delete
    case up, down, left, right, home, end, pageUp, pageDown
    /// Ctrl plus a letter, as the lowercase letter (`control("c")` is Ctrl-C).
    case control(Character)
    /// Alt (or Esc then quickly) plus a character.
    case alt(Character)
    /// Alt-Enter: a new line in a one-line composer.
    case altEnter
    /// Text pasted while bracketed paste is on, line breaks as `\n`.
    case paste(String)
    /// F1 … F12.
    case function(Int)
}

/// The terminal's size in character cells.
public struct TerminalSize: Hashable, Sendable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// One screenful: exactly `size.rows` lines, each already styled (SGR sequences only) and at most
/// `size.columns` cells wide, plus where the cursor goes (hidden when `nil`).
public struct Frame: Hashable, Sendable {
    public var lines: [String]
    /// Zero-based row and column of the visible cursor (the composer's), or `nil` to hide it.
    public var cursor: Cursor?

    public struct Cursor: Hashable, Sendable {
        public var row: Int
        public var column: Int

        public init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    public init(lines: [String], cursor: Cursor? = nil) {
        self.lines = lines
        self.cursor = cursor
    }
}

/// What the terminal tells the app.
public enum TerminalEvent: Hashable, Sendable {
    case key(Key)
    case resize(TerminalSize)
    /// The app was stopped (Ctrl-Z, SIGTSTP) and continued (SIGCONT): the screen must be drawn in full.
    case resumed
    /// SIGTERM or SIGHUP: restore the terminal and quit.
    case terminate
}
