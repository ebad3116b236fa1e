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
public struct Palette: Sendable {
    public var isEnabled: Bool

    public init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    public enum Style: String, Sendable {
        case bold = "1"
        case dim = "2"
        case accent = "36"      // cyan: my own messages
        case badge = "1;33"     // bold yellow: unread counts
        case newsletter = "35"  // magenta: newsletter marker
    }

    /// `text` wrapped in the style's SGR sequence, or unchanged when colour is off.
    public func paint(_ text: String, _ style: Style) -> String {
        guard isEnabled, !text.isEmpty else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }
}
