/// The line that ends a listing a limit cut short: how many more there are, and how to see them.
///
/// Every listing words it here, so none of them can end as if it were complete, and a reader (or a
/// script looking for "(use --limit)") meets one form everywhere.
public enum LimitNote {
    /// What a cut listing suggests by default: its commands take `--limit N`.
    public static let useLimit = "use --limit"

    /// `66 more in this window (use --limit)`, or `3 more (use --limit)` without `scope`; nil when
    /// nothing was left out.
    /// - Parameters:
    ///   - scope: where the others are, when the listing is bounded by more than its limit (`in this window`).
    ///   - remedy: how to see them, in the parentheses.
    public static func more(_ count: Int, _ scope: String? = nil, remedy: String = useLimit) -> String? {
        guard count > 0 else { return nil }
        return "\(count) more" + (scope.map { " " + $0 } ?? "") + " (\(remedy))"
    }

    /// `24 earlier messages not shown (use --limit)`: a transcript keeps the newest messages, so the ones
    /// it leaves out are the oldest. Nil when none were left out.
    public static func earlier(_ count: Int) -> String? {
        guard count > 0 else { return nil }
        return "\(count) earlier \(count == 1 ? "message" : "messages") not shown (\(useLimit))"
    }

    /// ``more(_:_:remedy:)`` as a dimmed line of its own, or "" when nothing was left out.
    public static func line(_ count: Int, _ scope: String? = nil, palette: Palette) -> String {
        more(count, scope).map { palette.paint($0, .dim) + "\n" } ?? ""
    }
}
