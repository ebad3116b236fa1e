/// The characters renderers draw with: rounded box drawing on UTF-8 terminals, plain ASCII elsewhere.
///
/// Email text itself is never transliterated; only the program's own decoration changes.
public struct Glyphs: Sendable, Equatable {
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    public var horizontal: String
    public var vertical: String
    /// The rule around day separators and the unread divider.
    public var rule: String
    public var ellipsis: String
    /// Where quoted text or signatures were removed.
    public var removedText: String
    public var attachment: String
    public var unreadMarker: String
    public var separatorDot: String

    public static let rounded = Glyphs(
        topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯", horizontal: "─", vertical: "│",
        rule: "──", ellipsis: "…", removedText: "[…]", attachment: "📎", unreadMarker: "●", separatorDot: "·")

    public static let ascii = Glyphs(
        topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "-", vertical: "|",
        rule: "--", ellipsis: "...", removedText: "[...]", attachment: "[file]", unreadMarker: "*", separatorDot: "-")

    /// Rounded glyphs when the locale's character set is UTF-8 (`LC_ALL`, then `LC_CTYPE`, then `LANG`,
    /// the first that is set decides), ASCII otherwise, as for any POSIX program.
    public static func forLocale(environment: [String: String]) -> Glyphs {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8") ? .rounded : .ascii
    }
}
