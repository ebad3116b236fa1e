import TextFormatting

/// When to colour output.
public enum ColorMode: String, Sendable, CaseIterable {
    case auto, always, never

    /// Whether to colour, following `--color`, then `NO_COLOR` (any non-empty value) and `TERM=dumb`,
    /// then whether stdout is a terminal.
    public func isEnabled(environment: [String: String], stdoutIsTerminal: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return stdoutIsTerminal
        }
    }
}

/// The program's own escape sequences: the only ones that ever reach the terminal.
///
/// Styles wrap text that has ALREADY been through ``TerminalSafeText``; they never take raw email text.
/// Only SGR sequences (`ESC [ n ; n m`) are produced, so tests can strip them with one pattern.
public struct Palette: Sendable {
    public var isEnabled: Bool

    public init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    /// One SGR style.
    public struct Style: Sendable, Equatable {
        /// The SGR parameters, such as "1;33".
        public var parameters: String

        public static let bold = Style(parameters: "1")
        public static let dim = Style(parameters: "2")
        /// My own messages: cyan, which no other person is given.
        public static let accent = Style(parameters: "36")
        /// Unread counts and the unread divider.
        public static let badge = Style(parameters: "1;33")
        public static let newsletter = Style(parameters: "35")
        /// Reverse video: the selected row of the interactive app, and its status line.
        public static let reverse = Style(parameters: "7")

        /// Colours for other people; cyan is left out, it is mine.
        static let personColours = ["32", "33", "34", "35", "31", "92", "93", "94", "95", "91"]

        /// A stable colour for the person with identity key `key`: the same in every run and on every
        /// machine (FNV-1a, not Swift's per-process seeded `Hasher`).
        public static func person(_ key: String) -> Style {
            var hash: UInt32 = 2_166_136_261
            for byte in key.utf8 {
                hash = (hash ^ UInt32(byte)) &* 16_777_619
            }
            return Style(parameters: personColours[Int(hash % UInt32(personColours.count))])
        }

        /// Both styles at once.
        public func with(_ other: Style) -> Style {
            Style(parameters: parameters + ";" + other.parameters)
        }
    }

    /// `text` wrapped in the style's SGR sequence, or unchanged when colour is off.
    public func paint(_ text: String, _ style: Style) -> String {
        guard isEnabled, !text.isEmpty else { return text }
        return "\u{1B}[\(style.parameters)m\(text)\u{1B}[0m"
    }

    /// A whole line, already styled, drawn in `style` throughout: each reset inside it turns the style
    /// back on, so a highlighted row does not lose its highlight after its first bold word.
    public func paintLine(_ line: String, _ style: Style) -> String {
        guard isEnabled, !line.isEmpty else { return line }
        let start = "\u{1B}[\(style.parameters)m"
        return start + line.replacing("\u{1B}[0m", with: "\u{1B}[0m" + start) + "\u{1B}[0m"
    }
}
