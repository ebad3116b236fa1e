/// Parses the `Date` header into milliseconds since the Unix epoch (UTC).
///
/// Hand-written because `DateFormatter` is slow and depends on locale, and because real dates come in many
/// shapes: RFC 5322 with and without weekday or seconds, obsolete zone names (§4.3), two- and three-digit years,
/// comments, ISO 8601 and C `asctime`. The parser reads tokens by what they look like, not by position.
///
/// ```swift
/// MailDate.parse("Tue, 3 Mar 2025 14:02:00 +0100 (CET)")  // 1741006920000
/// ```
public enum MailDate {
    /// Parses a date header value; `nil` when no day, month and year can be found or a field is out of range.
    ///
    /// A missing zone means UTC; unknown zone names and military letters count as `+0000` (RFC 5322 §4.3 says
    /// their meaning is unreliable); a missing time means midnight; the weekday is ignored even when wrong.
    public static func parse(_ value: String) -> Int64? {
        let text = withoutComments(value)
        if let iso = ISODate.parse(text) { return iso }
        var fields = DateFields()
        for token in tokens(of: text) { fields.absorb(token) }
        return fields.millisecondsSinceEpoch()
    }

    /// The text with parenthesized comments (which may nest) replaced by spaces.
    private static func withoutComments(_ value: String) -> Substring.UTF8View {
        var bytes: [UInt8] = []
        var depth = 0
        for byte in value.utf8 {
            if byte == UInt8(ascii: "(") {
                depth += 1
            } else if byte == UInt8(ascii: ")"), depth > 0 {
                depth -= 1
                bytes.append(0x20)
            } else if depth == 0 {
                bytes.append(byte)
            }
        }
        return Substring(String(decoding: bytes, as: UTF8.self)).utf8
    }

    /// Splits on whitespace and commas, and splits `3-Mar-2025` style dashes (a leading sign stays: a zone).
    private static func tokens(of text: Substring.UTF8View) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for word in text.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: ",") || $0 < 0x20 }) {
            let bytes = Array(word)
            let hasTime = bytes.contains(UInt8(ascii: ":"))
            if !hasTime, bytes.dropFirst().contains(UInt8(ascii: "-")),
                bytes.contains(where: { $0 >= UInt8(ascii: "A") })
            {
                result += bytes.split(separator: UInt8(ascii: "-")).map(Array.init)
            } else {
                result.append(bytes)
            }
        }
        return result
    }
}

/// The fields of a date as tokens reveal them.
struct DateFields {
    var year: Int?
    var yearDigits = 0
    var month: Int?
    var day: Int?
    var hour = 0, minute = 0, second = 0
    var hasTime = false
    var offsetSeconds: Int?
    var invalid = false

    /// Obsolete zone names of RFC 5322 §4.3 and a few common ones seen in mail, in minutes east of UTC.
    static let zoneNames: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0,
        "edt": -4 * 60, "est": -5 * 60, "cdt": -5 * 60, "cst": -6 * 60,
        "mdt": -6 * 60, "mst": -7 * 60, "pdt": -7 * 60, "pst": -8 * 60,
    ]

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Interprets one token.
    mutating func absorb(_ token: [UInt8]) {
        guard let first = token.first else { return }
        if token.contains(UInt8(ascii: ":")) {
            absorbTime(token)
        } else if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            absorbOffset(token.dropFirst(), negative: first == UInt8(ascii: "-"))
        } else if let number = Self.number(token[...]) {
            absorbNumber(number, digits: token.count)
        } else {
            absorbWord(String(decoding: token, as: UTF8.self).lowercased())
        }
    }

    private mutating func absorbWord(_ word: String) {
        let stripped = word.filter { $0 != "." }
        if month == nil, stripped.count >= 3, let index = Self.months.firstIndex(of: String(stripped.prefix(3))) {
            month = index + 1
        } else if offsetSeconds == nil, let minutes = Self.zoneNames[stripped] {
            offsetSeconds = minutes * 60
        } else if offsetSeconds == nil, stripped.count == 1 {
            offsetSeconds = 0  // Military zones: RFC 5322 §4.3 says treat as +0000 (they were defined backwards).
        }
        // Weekdays, "AM", unknown zone names: ignored.
    }

    private mutating func absorbNumber(_ number: Int, digits: Int) {
        if digits >= 3 || (day != nil && year == nil) {
            if year == nil {
                year = number
                yearDigits = digits
            }
        } else if day == nil {
            day = number
        }
    }

    private mutating func absorbTime(_ token: [UInt8]) {
        guard !hasTime else { return }
        // A zone glued to the time: `14:02:00+0100` or `14:02:00Z`.
        var timePart = token[...]
        if let sign = token.firstIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            absorbOffset(token[(sign + 1)...], negative: token[sign] == UInt8(ascii: "-"))
            timePart = token[..<sign]
        } else if token.last == UInt8(ascii: "Z") || token.last == UInt8(ascii: "z") {
            offsetSeconds = 0
            timePart = token.dropLast()
        }
        let parts = timePart.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let h = Self.number(parts[0]), let m = Self.number(parts[1])
        else {
            invalid = true
            return
        }
        var s = 0
        if parts.count == 3 {
            // Fractional seconds (`00.123`) are rare in mail; keep the whole seconds.
            let whole = parts[2].prefix { $0 != UInt8(ascii: ".") }
            guard let value = Self.number(whole) else {
                invalid = true
                return
            }
            s = value
        }
        (hour, minute, second, hasTime) = (h, m, s, true)
    }

    private mutating func absorbOffset(_ digits: ArraySlice<UInt8>, negative: Bool) {
        guard offsetSeconds == nil else { return }
        let compact = digits.filter { $0 != UInt8(ascii: ":") }
        guard compact.count == 4 || compact.count == 2, let value = Self.number(compact[...]) else { return }
        let (hours, minutes) = compact.count == 4 ? (value / 100, value % 100) : (value, 0)
        guard hours <= 23, minutes <= 59 else {
            invalid = true
            return
        }
        offsetSeconds = (negative ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// The date as milliseconds since the epoch, or `nil` when incomplete or out of range.
    func millisecondsSinceEpoch() -> Int64? {
        guard !invalid, var year, let month, let day else { return nil }
        // RFC 5322 §4.3: two-digit years below 50 are 20xx, others 19xx; three-digit years add 1900.
        if yearDigits <= 2 { year += year < 50 ? 2000 : 1900 } else if yearDigits == 3 { year += 1900 }
        return CivilTime.milliseconds(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            offsetSeconds: offsetSeconds ?? 0)
    }

    /// A non-negative decimal number made only of ASCII digits (at most 9 of them).
    static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

/// Calendar arithmetic on the proleptic Gregorian calendar, without Foundation.
enum CivilTime {
    /// Validates the fields and converts them to milliseconds since 1970-01-01T00:00:00Z.
    static func milliseconds(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetSeconds: Int
    ) -> Int64? {
        guard (1000...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= daysInMonth(year: year, month: month), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second)
        else { return nil }
        let days = daysFromEpoch(year: year, month: month, day: day)
        // A leap second (60) is read as 59: mail clocks are not that precise and the next second must sort after.
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds
        return Int64(seconds) * 1000
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// Howard Hinnant's days_from_civil.
    static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
