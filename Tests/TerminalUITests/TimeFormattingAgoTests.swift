import Foundation
import TerminalUI
import Testing
import TextFormatting

@Suite struct TimeFormattingAgoTests {
    static let now: Int64 = 1_741_262_400_000  // Thu 6 Mar 2025 12:00 UTC

    static let cases: [(Int64, String)] = [
        (0, "just now"), (-5, "just now"), (1, "1 min ago"), (59, "59 min ago"), (60, "1 h ago"),
        (1439, "23 h ago"), (1440, "Yesterday"),
    ]

    static func ago(_ minutesBefore: Int64) -> String {
        TimeFormatting(timeZone: TimeZone(identifier: "UTC")!, nowMs: now).ago(now - minutesBefore * 60_000)
    }

    @Test(
        "how long ago: just now, minutes, hours, then the day",
        arguments: Self.cases)
    func ago(minutes: Int64, expected: String) {
        #expect(Self.ago(minutes) == expected)
    }
}
