import Foundation

/// Formats message times for people ("14:02", "Yesterday", "Mon", "3 Mar", "2023-03-03") and for
/// scripts (ISO 8601 with an explicit offset).
///
/// Takes the time zone and "now" as values so output is reproducible in tests.
public struct TimeFormatting: Sendable {
    public var timeZone: TimeZone
    public var nowMs: Int64

    public init(timeZone: TimeZone = .current, nowMs: Int64) {
        self.timeZone = timeZone
        self.nowMs = nowMs
    }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// A short time relative to now, for the conversation list.
    public func relative(_ ms: Int64) -> String {
        let calendar = self.calendar
        let date = Self.date(ms)
        let now = Self.date(nowMs)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
        let startOfToday = calendar.startOfDay(for: now)
        let startOfDay = calendar.startOfDay(for: date)
        let days = calendar.dateComponents([.day], from: startOfDay, to: startOfToday).day ?? 0
        switch days {
        case 0:
            return clock(parts)
        case 1:
            return "Yesterday"
        case 2...6:
            return Self.weekdays[(parts.weekday ?? 1) - 1]
        default:
            if days > 0, parts.year == calendar.component(.year, from: now) {
                return "\(parts.day ?? 1) \(Self.months[(parts.month ?? 1) - 1])"
            }
            return isoDay(parts)
        }
    }

    /// How long ago `ms` was, for what a live screen keeps current: "just now", "5 min ago", "3 h ago",
    /// then the day as ``relative(_:)`` gives it. A time ahead of now (a clock set back) is "just now".
    public func ago(_ ms: Int64) -> String {
        let minutes = (nowMs - ms) / 60_000
        switch minutes {
        case ..<1: return "just now"
        case 1..<60: return "\(minutes) min ago"
        case 60..<(24 * 60): return "\(minutes / 60) h ago"
        default: return relative(ms)
        }
    }

    /// "14:02" in the configured time zone.
    public func clockTime(_ ms: Int64) -> String {
        clock(calendar.dateComponents([.hour, .minute], from: Self.date(ms)))
    }

    /// A day heading such as "Tue 3 Mar 2025".
    public func dayHeading(_ ms: Int64) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: Self.date(ms))
        return
            "\(Self.weekdays[(parts.weekday ?? 1) - 1]) \(parts.day ?? 1) \(Self.months[(parts.month ?? 1) - 1]) \(parts.year ?? 0)"
    }

    /// The local calendar day of `ms` as a number (days since 1970 in the configured time zone): equal
    /// numbers mean the same day. Cheaper than a `Calendar` comparison, which showed in long transcripts.
    public func dayNumber(_ ms: Int64) -> Int {
        let offsetMs = Int64(timeZone.secondsFromGMT(for: Self.date(ms))) * 1000
        let local = ms + offsetMs
        return Int(local >= 0 ? local / 86_400_000 : (local - 86_399_999) / 86_400_000)
    }

    /// Whether two times fall on the same calendar day in the configured time zone.
    public func isSameDay(_ a: Int64, _ b: Int64) -> Bool {
        calendar.isDate(Self.date(a), inSameDayAs: Self.date(b))
    }

    /// ISO 8601 with seconds and an explicit numeric offset: `2025-03-03T14:02:00+01:00`.
    public func iso8601(_ ms: Int64) -> String {
        let date = Self.date(ms)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = timeZone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let hours = abs(offset) / 3600
        let minutes = abs(offset) % 3600 / 60
        return isoDay(parts) + "T" + two(parts.hour) + ":" + two(parts.minute) + ":" + two(parts.second)
            + sign + two(hours) + ":" + two(minutes)
    }

    private func clock(_ parts: DateComponents) -> String { two(parts.hour) + ":" + two(parts.minute) }

    private func isoDay(_ parts: DateComponents) -> String {
        let year = String(parts.year ?? 0)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + "-" + two(parts.month) + "-"
            + two(parts.day)
    }

    private func two(_ value: Int?) -> String {
        let v = value ?? 0
        return v < 10 ? "0\(v)" : String(v)
    }

    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(ms) / 1000) }
}
