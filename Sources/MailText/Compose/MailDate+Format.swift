import Foundation

extension MailDate {
    /// Writes a `Date` header value (RFC 5322 §3.3): `Wed, 25 Nov 2026 21:39:38 +0100`.
    ///
    /// Computed from the instant and the zone's offset at that instant, with no locale or calendar settings
    /// involved, so the same inputs always give the same text. Fractions of a second are dropped, and an
    /// offset with seconds (historic local mean times) is rounded towards zero to whole minutes.
    public static func format(_ date: Date, timeZone: TimeZone) -> String {
        format(date, secondsFromGMT: timeZone.secondsFromGMT(for: date))
    }

    /// Writes a `Date` header value for a fixed offset from UTC, in seconds.
    public static func format(_ date: Date, secondsFromGMT: Int) -> String {
        let fields = WallClock(date, secondsFromGMT: secondsFromGMT)
        // Rounded towards zero, as the clock fields are; an offset under a minute is written `+0000`, since
        // `-0000` means "local time unknown" (RFC 5322 §3.3).
        let offsetMinutes = abs(secondsFromGMT / 60)
        let sign = secondsFromGMT / 60 < 0 ? "-" : "+"
        return "\(weekdayNames[fields.weekday]), \(fields.day) \(monthNames[fields.month - 1]) \(fields.year) "
            + "\(twoDigits(fields.hour)):\(twoDigits(fields.minute)):\(twoDigits(fields.second)) "
            + "\(sign)\(twoDigits(offsetMinutes / 60))\(twoDigits(offsetMinutes % 60))"
    }

    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}

/// The wall-clock fields of an instant at a fixed offset from UTC, in the proleptic Gregorian calendar.
struct WallClock: Equatable {
    var year: Int
    /// 1...12
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    /// 0 is Monday, 6 is Sunday.
    var weekday: Int

    init(_ date: Date, secondsFromGMT: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + secondsFromGMT / 60 * 60
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        // 1970-01-01 was a Thursday (3 when Monday is 0).
        weekday = ((days + 3) % 7 + 7) % 7
        (year, month, day) = CivilTime.civil(fromDays: days)
    }
}

extension CivilTime {
    /// Year, month and day from days since 1970-01-01 (Howard Hinnant's `civil_from_days`), valid far
    /// beyond any date mail carries, before the epoch included.
    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
