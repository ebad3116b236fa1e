/// The first items of a listing cut at a limit, and how many more there were.
///
/// A listing that only returned its first items could not tell a complete list from a cut one, and every
/// caller would print a cut list as if it were all; the count travels with the items so it cannot be lost.
public struct LimitedList<Item: Sendable & Equatable>: Sendable, Equatable {
    /// The items, in the listing's order.
    public var items: [Item]
    /// How many more items the listing has past the limit; 0 when `items` is all of them.
    public var omittedCount: Int

    public init(items: [Item], omittedCount: Int = 0) {
        self.items = items
        self.omittedCount = omittedCount
    }

    /// `rows` cut at `limit` (nil for no limit), with `total` the count of the whole listing, which is
    /// asked for only when the rows reach the limit: a listing shorter than its limit is complete.
    static func cut(_ rows: [Item], limit: Int?, total: () throws -> Int) rethrows -> Self {
        guard let limit, rows.count >= limit else { return Self(items: rows) }
        // Callers read the rows and the count in one transaction, so they agree; max only keeps a
        // miscount from printing a negative number.
        return Self(items: rows, omittedCount: max(0, try total() - rows.count))
    }
}
