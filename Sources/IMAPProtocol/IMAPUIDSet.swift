/// A set of UIDs (or sequence numbers) as IMAP writes them: `1:5,7,9:*`.
///
/// `*` stands for the largest UID in the mailbox, which only the server knows. A range with a `*` end
/// is kept as such (`upperBound == nil`); ``contains(_:)`` reads it as "no upper bound".
///
/// Invariant: `ranges` is canonical, so equal sets compare equal: bounded ranges come first, sorted, with
/// overlapping and adjacent ranges merged (`1:3,4` is `1:4`); then open ranges `n:*` sorted by `n`
/// without duplicates; then a bare `*` if present. Bounded ranges are never merged into an open one,
/// because `9:*` can mean fewer UIDs than 9 and above (when the largest UID is below 9, it means `*:9`).
public struct IMAPUIDSet: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `lowerBound:upperBound`; nil is `*`, and `lowerBound` is nil only in a bare `*`.
    public struct Range: Sendable, Equatable, Hashable {
        public var lowerBound: UInt32?
        public var upperBound: UInt32?

        public init(lowerBound: UInt32?, upperBound: UInt32?) {
            self.lowerBound = lowerBound
            self.upperBound = upperBound
        }
    }

    public private(set) var ranges: [Range]

    /// The set of exactly these UIDs, coalesced into ranges.
    public init(_ uids: some Sequence<UInt32>) {
        self.init(canonical: uids.map { Range(lowerBound: $0, upperBound: $0) })
    }

    /// The set of the given ranges, put in canonical order (a reversed range `5:1` is `1:5`).
    public init(ranges: [Range]) {
        self.init(canonical: ranges)
    }

    /// Parses `1:5,7,9:*`. UIDs are 1 through 4294967295; a set is never empty.
    public init(parsing text: String) throws(IMAPProtocolError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .malformed("empty UID set") }
        var ranges: [Range] = []
        for element in bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let bounds = element.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard bounds.count == 1 || bounds.count == 2 else {
                throw .malformed("bad UID set \(Excerpt.quote(bytes))")
            }
            var values: [UInt32?] = []
            for bound in bounds {
                if bound.elementsEqual([UInt8(ascii: "*")]) {
                    values.append(nil)
                } else if let value = IMAPReader.number(bound), value > 0, let uid = UInt32(exactly: value) {
                    values.append(uid)
                } else {
                    throw .malformed("bad UID set \(Excerpt.quote(bytes))")
                }
            }
            ranges.append(Range(lowerBound: values[0], upperBound: values.count == 2 ? values[1] : values[0]))
        }
        self.init(canonical: ranges)
    }

    /// `uid:*`: the UID and every later one.
    public static func from(uid: UInt32) -> IMAPUIDSet {
        IMAPUIDSet(ranges: [Range(lowerBound: uid, upperBound: nil)])
    }

    /// Splits UIDs into sets of at most `maxCount` UIDs each (at least one), in ascending order, for
    /// commands whose line would otherwise grow too long. Duplicates are dropped.
    public static func chunked(_ uids: some Sequence<UInt32>, maxCount: Int) -> [IMAPUIDSet] {
        let sorted = Array(Set(uids)).sorted()
        let size = Swift.max(1, maxCount)
        return stride(from: 0, to: sorted.count, by: size).map {
            IMAPUIDSet(sorted[$0..<Swift.min($0 + size, sorted.count)])
        }
    }

    private init(canonical input: [Range]) {
        var bounded: [(UInt32, UInt32)] = []
        var openLowerBounds = Set<UInt32>()
        var hasStar = false
        for range in input {
            switch (range.lowerBound, range.upperBound) {
            case (let low?, let high?): bounded.append((Swift.min(low, high), Swift.max(low, high)))
            case (let low?, nil), (nil, let low?): openLowerBounds.insert(low)
            case (nil, nil): hasStar = true
            }
        }
        bounded.sort { $0.0 < $1.0 }
        var merged: [(UInt32, UInt32)] = []
        for (low, high) in bounded {
            if let last = merged.last, last.1 == UInt32.max || low <= last.1 + 1 {
                merged[merged.count - 1].1 = Swift.max(last.1, high)
            } else {
                merged.append((low, high))
            }
        }
        ranges =
            merged.map { Range(lowerBound: $0.0, upperBound: $0.1) }
            + openLowerBounds.sorted().map { Range(lowerBound: $0, upperBound: nil) }
            + (hasStar ? [Range(lowerBound: nil, upperBound: nil)] : [])
    }

    public var isEmpty: Bool { ranges.isEmpty }

    /// Whether every range has known bounds, so ``uids`` lists the whole set.
    public var isBounded: Bool { ranges.allSatisfy { $0.lowerBound != nil && $0.upperBound != nil } }

    /// How many UIDs the bounded ranges hold, to check before expanding a set a server sent.
    public var boundedCount: UInt64 {
        ranges.reduce(0) { total, range in
            guard let low = range.lowerBound, let high = range.upperBound else { return total }
            return total + UInt64(high - low) + 1
        }
    }

    /// The UIDs of the bounded ranges, ascending. An open range (`n:*`, `*`) names UIDs only the server
    /// knows, so it adds none: check ``isBounded`` when that matters, or use ``uids(resolvingStarAs:)``.
    public var uids: [UInt32] {
        ranges.flatMap { range -> [UInt32] in
            guard let low = range.lowerBound, let high = range.upperBound else { return [] }
            return Array(low...high)
        }
    }

    /// Every UID, reading `*` as `largestUID` (as the server does: `9:*` with largest 5 is `5:9`).
    public func uids(resolvingStarAs largestUID: UInt32) -> [UInt32] {
        IMAPUIDSet(
            ranges: ranges.map {
                Range(lowerBound: $0.lowerBound ?? largestUID, upperBound: $0.upperBound ?? largestUID)
            }
        ).uids
    }

    /// Whether `uid` is in the set, `*` read as no upper bound (a bare `*` as 4294967295).
    public func contains(_ uid: UInt32) -> Bool {
        ranges.contains { range in
            (range.lowerBound ?? UInt32.max) <= uid && uid <= (range.upperBound ?? UInt32.max)
        }
    }

    /// The canonical IMAP form, `1:5,7,9:*`.
    public var description: String {
        ranges.map { range in
            let low = range.lowerBound.map(String.init) ?? "*"
            let high = range.upperBound.map(String.init) ?? "*"
            return low == high ? low : "\(low):\(high)"
        }.joined(separator: ",")
    }
}
