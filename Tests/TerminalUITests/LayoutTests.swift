import ChatmailStore
import Foundation
import Testing
@testable import TerminalUI

@Suite struct DisplayWidthTests {
    @Test("measures grapheme clusters", arguments: [
        ("hello", 5),
        ("日本語", 6),              // East Asian wide
        ("한국어", 6),              // Hangul syllables
        ("e\u{301}", 1),           // combining acute accent adds nothing
        ("👍", 2),
        ("👍🏽", 2),                // skin tone
        ("👨‍👩‍👧", 2),                // ZWJ family
        ("🇫🇷", 2),                 // flag
        ("❤️", 2),                  // VS16
        ("ＡＢ", 4),                // fullwidth Latin
    ])
    func widths(text: String, expected: Int) {
        #expect(DisplayWidth.of(text) == expected)
    }

    @Test("truncation never exceeds the width and marks the cut")
    func truncate() {
        #expect(DisplayWidth.truncate("hello world", toWidth: 8) == "hello w…")
        #expect(DisplayWidth.truncate("日本語テキスト", toWidth: 7) == "日本語…")
        #expect(DisplayWidth.truncate("short", toWidth: 10) == "short")
        for width in 1...12 {
            #expect(DisplayWidth.of(DisplayWidth.truncate("日本語 text 👍 more", toWidth: width)) <= width)
        }
    }
}

@Suite struct TextWrapperTests {
    static let sample = "Here is https://example.com/a/very/long/path/that/does/not/fit/anywhere?query=1 and 日本語のテキストも and 👨‍👩‍👧 emoji"

    @Test("no wrapped line is wider than the width", arguments: [10, 15, 20, 33, 40, 80])
    func fits(width: Int) {
        let lines = TextWrapper.wrap(Self.sample, width: width)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width })
        // Nothing is lost: the non-space characters come back in order.
        #expect(lines.joined().filter { $0 != " " } == Self.sample.filter { $0 != " " })
    }

    @Test("wraps at word boundaries and keeps paragraphs")
    func words() {
        #expect(TextWrapper.wrap("one two three four", width: 9) == ["one two", "three", "four"])
        #expect(TextWrapper.wrap("a\n\nb", width: 9) == ["a", "", "b"])
    }
}

@Suite struct TimeFormattingTests {
    // Wed 2025-03-05 12:00:00 UTC.
    static let now: Int64 = 1_741_176_000_000
    static let hour: Int64 = 3_600_000
    static let format = TimeFormatting(timeZone: TimeZone(secondsFromGMT: 0)!, nowMs: now)

    @Test("relative times", arguments: [
        (now - 2 * hour, "10:00"),
        (now - 24 * hour, "Yesterday"),
        (now - 3 * 24 * hour, "Sun"),
        (now - 30 * 24 * hour, "3 Feb"),
        (now - 400 * 24 * hour, "2024-01-30"),
    ])
    func relative(ms: Int64, expected: String) {
        #expect(Self.format.relative(ms) == expected)
    }

    @Test("ISO 8601 carries an explicit offset")
    func iso() {
        #expect(Self.format.iso8601(Self.now) == "2025-03-05T12:00:00+00:00")
        let paris = TimeFormatting(timeZone: TimeZone(secondsFromGMT: 3600)!, nowMs: Self.now)
        #expect(paris.iso8601(Self.now) == "2025-03-05T13:00:00+01:00")
        let newfoundland = TimeFormatting(timeZone: TimeZone(secondsFromGMT: -12_600)!, nowMs: Self.now)
        #expect(newfoundland.iso8601(Self.now) == "2025-03-05T08:30:00-03:30")
    }
}

@Suite struct RendererTests {
    static let time = TimeFormatting(timeZone: TimeZone(secondsFromGMT: 0)!, nowMs: 1_741_176_000_000)
    static let hostile = "\u{1B}]0;pwned\u{07}Mallory \u{202E}evil\u{9B}31m 日本語 👍"

    static func conversation(_ title: String, unread: Int = 3, newsletter: Bool = false) -> ConversationSummary {
        ConversationSummary(
            id: ConversationID(rawValue: 1), title: title, participants: [EmailAddress(address: "m@example.com", name: title)],
            lastMessageAtMs: 1_741_176_000_000 - 400 * 86_400_000, snippet: hostile + " " + String(repeating: "long snippet ", count: 20),
            messageCount: 4, unreadCount: unread, hasInbox: true, archivedAtMs: nil, isNewsletter: newsletter)
    }

    @Test("list rows fit the width and carry no escape but our own", arguments: [20, 40, 80, 120])
    func listFits(width: Int) {
        let rows = [Self.conversation(Self.hostile), Self.conversation("A very long newsletter title indeed", unread: 12_345, newsletter: true)]
        for colour in [false, true] {
            let output = ConversationListRenderer(width: width, time: Self.time, palette: Palette(isEnabled: colour)).render(rows)
            let plain = output.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
            for line in plain.split(separator: "\n") {
                #expect(DisplayWidth.of(line) <= width, "\(line)")
            }
            #expect(!plain.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) || $0 == "\u{202E}" })
        }
    }

    @Test("transcript lines fit the width; my messages sit on the right", arguments: [30, 80])
    func transcriptFits(width: Int) throws {
        let base: Int64 = 1_741_176_000_000
        func message(_ id: Int64, mine: Bool, text: String) -> TranscriptMessage {
            TranscriptMessage(
                id: MessageID(rawValue: id), gmailID: "g\(id)", threadID: "t", from: EmailAddress(address: mine ? "me@x.org" : "m@example.com", name: Self.hostile),
                isFromMe: mine, internalDateMs: base + id * 60_000, subject: "s", text: text, originalText: nil,
                isNewsletter: false, labels: [], attachments: [.init(filename: "re\u{1B}port.pdf", mimeType: "application/pdf", size: 2_500_000, isInline: false)])
        }
        let transcript = Transcript(
            conversation: Self.conversation("Mallory"),
            messages: [message(1, mine: false, text: Self.hostile + " https://example.com/a/very/long/url/that/never/ends/at/all"), message(2, mine: true, text: "ok")],
            earlierMessageCount: 0)
        let output = TranscriptRenderer(width: width, time: Self.time, palette: Palette(isEnabled: false)).render(transcript)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            #expect(DisplayWidth.of(line) <= width, "\(line)")
        }
        #expect(!output.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) })
        // My header and my block's widest line touch the right edge; others' lines start at column 2.
        let myHeader = try #require(lines.first { $0.hasSuffix("You · 12:02") })
        #expect(DisplayWidth.of(myHeader) == width)
        let myAttachment = try #require(lines.last { $0.contains("📎") })
        #expect(DisplayWidth.of(myAttachment) == width)
        let okLine = try #require(lines.last { $0.hasSuffix("ok") })
        #expect(okLine.prefix { $0 == " " }.count == myAttachment.prefix { $0 == " " }.count)
        let theirFirstLine = try #require(lines.first { $0.contains("Mallory") && $0.hasPrefix("  ") })
        #expect(theirFirstLine.hasPrefix("  ") && !theirFirstLine.hasPrefix("   "))
        if width >= 40 { #expect(output.contains("report.pdf (2.4 MB)")) }
    }

    @Test("JSON escapes C1 and bidi controls instead of printing them raw")
    func jsonEscapes() throws {
        let json = try JSONRenderer(time: Self.time).render([Self.conversation(Self.hostile)])
        #expect(!json.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) || $0 == "\u{202E}" })
        #expect(json.contains("\\u009b") && json.contains("\\u202e"))
        // And the data survives a round trip.
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [[String: Any]]
        #expect(decoded[0]["title"] as? String == Self.hostile)
    }

    @Test("byte counts read like a person would write them", arguments: [
        (Int64(512), "512 B"), (2_048, "2 KB"), (1_536, "1.5 KB"), (2_500_000, "2.4 MB"), (50_000_000, "48 MB"),
    ])
    func bytes(count: Int64, expected: String) {
        #expect(ByteCount.format(count) == expected)
    }
}
