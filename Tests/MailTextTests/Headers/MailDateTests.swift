import MailText
import Testing

@Suite struct MailDateTests {
    /// 2025-03-03T14:02:00Z, the instant most rows describe.
    static let utc: Int64 = 1_741_010_520_000

    @Test(
        "Parses the date shapes found in mail",
        arguments: [
            // RFC 5322 canonical form with a positive offset.
            ("Tue, 3 Mar 2025 14:02:00 +0100", 1_741_006_920_000),
            // Zero offset.
            ("Mon, 3 Mar 2025 14:02:00 +0000", utc),
            // Weekday mismatch is ignored (3 March 2025 is a Monday).
            ("Fri, 3 Mar 2025 14:02:00 +0000", utc),
            // Missing weekday.
            ("3 Mar 2025 14:02:00 +0000", utc),
            // Missing seconds.
            ("Mon, 3 Mar 2025 14:02 +0000", utc),
            // Comment after the zone.
            ("Mon, 3 Mar 2025 15:02:00 +0100 (CET)", utc),
            // -0000 means UTC with unknown local zone (RFC 5322 §3.3).
            ("Mon, 3 Mar 2025 14:02:00 -0000", utc),
            // Obsolete zone names (RFC 5322 §4.3).
            ("Mon, 3 Mar 2025 14:02:00 GMT", utc),
            ("Mon, 3 Mar 2025 14:02:00 UT", utc),
            ("Mon, 3 Mar 2025 09:02:00 EST", utc),
            ("Mon, 3 Mar 2025 06:02:00 PST", utc),
            ("Mon, 3 Mar 2025 07:02:00 PDT", utc),
            // Military single-letter zones are treated as +0000.
            ("Mon, 3 Mar 2025 14:02:00 Q", utc),
            // Missing zone means UTC.
            ("Mon, 3 Mar 2025 14:02:00", utc),
            // Extra whitespace and lowercase month.
            ("  Mon,   3   mar   2025   14:02:00   +0000  ", utc),
            // Full month name.
            ("3 March 2025 14:02:00 +0000", utc),
            // Negative offset with half hours elsewhere: +0530.
            ("Mon, 3 Mar 2025 14:02:00 +0530", 1_740_990_720_000),
            // Two-digit year below 50 is 20xx (RFC 5322 §4.3).
            ("Mon, 3 Mar 25 14:02:00 +0000", utc),
            // Two-digit year 50 and above is 19xx.
            ("Fri, 31 Dec 99 23:59:00 +0000", 946_684_740_000),
            // Three-digit year adds 1900.
            ("Thu, 1 Jan 087 00:00:00 +0000", 536_457_600_000),
            // ISO 8601 with Z.
            ("2025-03-03T14:02:00Z", utc),
            // ISO 8601 with an offset that has a colon.
            ("2025-03-03T15:02:00+01:00", utc),
            // ISO 8601 with fractional seconds.
            ("2025-03-03T14:02:00.250Z", utc),
            // asctime, day padded with a space.
            ("Mon Mar  3 14:02:00 2025", utc),
            // Zone glued to the time.
            ("3 Mar 2025 14:02:00+0000", utc),
            // Leap day.
            ("Thu, 29 Feb 2024 00:00:00 +0000", 1_709_164_800_000),
            // Day-month-year with dashes.
            ("03-Mar-2025 14:02:00 +0000", utc),
            // RFC 5322 appendix A example with a comment-only zone.
            ("Fri, 21 Nov 1997 09:55:06 -0600", 880_127_706_000),
            // Month name with a trailing dot.
            ("3 Mar. 2025 14:02:00 +0000", utc),
            // Date without time: midnight.
            ("Thu, 29 Feb 2024", 1_709_164_800_000),
        ] as [(String, Int64)])
    func parses(value: String, expected: Int64) {
        #expect(MailDate.parse(value) == expected)
    }

    @Test(
        "Rejects dates out of range or without a date",
        arguments: [
            "",  // empty
            "not a date",  // prose
            "Mon, 30 Feb 2025 14:02:00 +0000",  // February 30th
            "Mon, 3 Foo 2025 14:02:00 +0000",  // no month
            "Mon, 3 Mar 2025 25:02:00 +0000",  // hour 25
            "Mon, 3 Mar 2025 14:61:00 +0000",  // minute 61
            "Mon, 32 Mar 2025 14:02:00 +0000",  // day 32
            "Mon, 3 Mar 2025 14:02:00 +2500",  // zone out of range
            "2025-13-03T14:02:00Z",  // ISO month 13
            "Mon, 3 Mar 2025 14:xx:00 +0000",  // garbage time
        ])
    func rejects(value: String) {
        #expect(MailDate.parse(value) == nil)
    }
}
