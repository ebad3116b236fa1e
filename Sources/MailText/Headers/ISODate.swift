/// ISO 8601 / RFC 3339 timestamps (`2025-03-03T14:02:00Z`), which some generators put in `Date`.
enum ISODate {
    /// Parses `YYYY-MM-DD[T| ]HH:MM[:SS[.fff]][Z|±HH[:]MM]`; `nil` when the text does not start that way.
    static func parse(_ text: Substring.UTF8View) -> Int64? {
        let bytes = Array(text).drop { $0 == 0x20 || $0 == 0x09 }
        guard bytes.count >= 10 else { return nil }
        let s = bytes.startIndex
        guard bytes[s + 4] == UInt8(ascii: "-"), bytes[s + 7] == UInt8(ascii: "-"),
            let year = DateFields.number(bytes[s..<(s + 4)]), let month = DateFields.number(bytes[(s + 5)..<(s + 7)]),
            let day = DateFields.number(bytes[(s + 8)..<(s + 10)])
        else { return nil }
        var fields = DateFields()
        fields.year = year
        fields.yearDigits = 4
        fields.month = month
        fields.day = day
        let rest = bytes[(s + 10)...].drop { $0 == UInt8(ascii: "T") || $0 == UInt8(ascii: "t") || $0 == 0x20 }
        for token in rest.split(separator: 0x20) { fields.absorb(Array(token)) }
        return fields.millisecondsSinceEpoch()
    }
}
