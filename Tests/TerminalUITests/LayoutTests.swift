import ChatmailStore
import Foundation
import JSONOutput
import RecordViews
import Testing
import TextFormatting

@testable import TerminalUI

@Suite struct DisplayWidthTests {
    @Test(
        "measures grapheme clusters",
        arguments: [
            ("hello", 5),
            ("日本語", 6),  // East Asian wide
            ("한국어", 6),  // Hangul syllables
            ("e\u{301}", 1),  // combining acute accent adds nothing
            ("👍", 2),
            ("👍🏽", 2),  // skin tone
            ("👨‍👩‍👧", 2),  // ZWJ family
            ("🇫🇷", 2),  // flag
            ("❤️", 2),  // VS16
            ("ＡＢ", 4),  // fullwidth Latin
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
    static let sample =
        "Here is https://example.com/a/very/long/path/that/does/not/fit/anywhere?query=1 and 日本語のテキストも and 👨‍👩‍👧 emoji"

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

    @Test(
        "relative times",
        arguments: [
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
            id: ConversationID(rawValue: 1), title: title,
            participants: [EmailAddress(address: "m@example.com", name: title)],
            lastMessageAtMs: 1_741_176_000_000 - 400 * 86_400_000,
            snippet: hostile + " " + String(repeating: "long snippet ", count: 20),
            messageCount: 4, unreadCount: unread, hasInbox: true, archivedAtMs: nil, isNewsletter: newsletter)
    }

    @Test("list rows fit the width and carry no escape but our own", arguments: [20, 40, 80, 120])
    func listFits(width: Int) {
        var mailingList = Self.conversation("Dev talk")
        mailingList.list = MailingList(id: "dev.lists.example.org", postAddress: nil, name: "Dev talk")
        mailingList.lastSender = LastSender(
            from: EmailAddress(address: "m@example.com", name: Self.hostile), isFromMe: false)
        let rows = [
            Self.conversation(Self.hostile),
            Self.conversation("A very long newsletter title indeed", unread: 12_345, newsletter: true),
            mailingList,
        ]
        for colour in [false, true] {
            let output = ConversationListRenderer(width: width, time: Self.time, palette: Palette(isEnabled: colour))
                .render(rows)
            let plain = output.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
            for line in plain.split(separator: "\n") {
                #expect(DisplayWidth.of(line) <= width, "\(line)")
            }
            #expect(
                !plain.unicodeScalars.contains {
                    $0.value == 0x1B || (0x80...0x9F).contains($0.value) || $0 == "\u{202E}"
                })
        }
    }

    @Test("transcript lines fit the width; my messages sit on the right", arguments: [30, 80])
    func transcriptFits(width: Int) throws {
        let base: Int64 = 1_741_176_000_000
        func message(_ id: Int64, mine: Bool, text: String) -> TranscriptMessage {
            TranscriptMessage(
                id: MessageID(rawValue: id), gmailID: "g\(id)", threadID: "t",
                from: EmailAddress(address: mine ? "me@x.org" : "m@example.com", name: Self.hostile),
                isFromMe: mine, internalDateMs: base + id * 60_000, subject: "s", subjectBase: "s", text: text,
                originalText: nil,
                isNewsletter: false, labels: [],
                attachments: [
                    .init(filename: "re\u{1B}port.pdf", mimeType: "application/pdf", size: 2_500_000, isInline: false)
                ])
        }
        let transcript = Transcript(
            conversation: Self.conversation("Mallory"),
            messages: [
                message(
                    1, mine: false, text: Self.hostile + " https://example.com/a/very/long/url/that/never/ends/at/all"),
                message(2, mine: true, text: "ok"),
            ],
            earlierMessageCount: 0)
        let output = TranscriptRenderer(width: width, time: Self.time, palette: Palette(isEnabled: false)).render(
            transcript)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines {
            #expect(DisplayWidth.of(line) <= width, "\(line)")
        }
        #expect(!output.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) })
        // My header and my bubble touch the right edge; the other side's bubble starts at column 0.
        let myHeader = try #require(lines.first { $0.hasSuffix("You · 12:02") })
        #expect(DisplayWidth.of(myHeader) == width)
        let okLine = try #require(lines.last { $0.contains("│ ok") })
        #expect(okLine.hasSuffix("│") && DisplayWidth.of(okLine) == width && okLine.hasPrefix(" "))
        let myAttachment = try #require(lines.last { $0.contains("📎") })
        #expect(DisplayWidth.of(myAttachment) == width)
        let theirFirstLine = try #require(lines.first { $0.contains("Mallory") && $0.hasPrefix("│ ") })
        #expect(theirFirstLine.hasSuffix("│"))
        #expect(lines.filter { $0.hasPrefix("╭") }.count == 1 && lines.filter { $0.hasSuffix("╮") }.count == 2)
        // A bubble is at most about 70% of the width.
        #expect(lines.filter { $0.hasPrefix("│") }.allSatisfy { DisplayWidth.of($0) <= max(14, width * 7 / 10) })
        if width >= 40 { #expect(output.contains("report.pdf (2.4 MB)")) }
    }

    @Test("JSON escapes C1 and bidi controls instead of printing them raw")
    func jsonEscapes() throws {
        let json = try JSONRenderer(time: Self.time).render([Self.conversation(Self.hostile)])
        #expect(
            !json.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) || $0 == "\u{202E}" })
        #expect(json.contains("\\u009b") && json.contains("\\u202e"))
        // And the data survives a round trip.
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [[String: Any]]
        #expect(decoded[0]["title"] as? String == Self.hostile)
    }

    @Test(
        "byte counts read like a person would write them",
        arguments: [
            (Int64(512), "512 B"), (2_048, "2 KB"), (1_536, "1.5 KB"), (2_500_000, "2.4 MB"), (50_000_000, "48 MB"),
        ])
    func bytes(count: Int64, expected: String) {
        #expect(ByteCount.format(count) == expected)
    }
}

@Suite struct WideTextTests {
    @Test("wcwidth drives the width: combining marks, Hangul jamo, emoji newer than the C tables")
    func wcwidthRules() {
        #expect(DisplayWidth.hasUTF8CType)
        #expect(DisplayWidth.of("a\u{0301}\u{0327}") == 1)  // two combining marks on one letter
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}") == 2)  // conjoining jamo: one wide syllable
        #expect(DisplayWidth.of("🫠") == 2)  // Unicode 14 emoji
        #expect(DisplayWidth.of("🫨") == 2)  // Unicode 15: wcwidth says -1, still 2
        #expect(DisplayWidth.of("☺") == 1 && DisplayWidth.of("☺️") == 2)  // text vs emoji presentation
        #expect(DisplayWidth.of("🏳️‍🌈") == 2 && DisplayWidth.of("👋🏿") == 2)
        #expect(DisplayWidth.of("שלום עולם") == 9)  // RTL letters are one column each
    }

    @Test(
        "the built-in table agrees with wcwidth on the wide ranges it covers",
        arguments: [
            "日本語", "한국어", "ＡＢＣ", "中文字符", "カタカナ",
        ])
    func fallbackAgrees(text: String) {
        let fallback = text.unicodeScalars.reduce(0) { $0 + (DisplayWidth.isWideFallback($1.value) ? 2 : 1) }
        #expect(fallback == DisplayWidth.of(text))
    }

    @Test("CJK breaks between characters and keeps closing punctuation off the line start")
    func cjk() {
        let text = "日本語のテキストは、空白なしで折り返されます。「引用」も大丈夫。"
        for width in [6, 7, 10, 15] {
            let lines = TextWrapper.wrap(text, width: width)
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(lines)")
            #expect(lines.joined() == text)
            #expect(!lines.dropFirst().contains { $0.first.map(TextWrapper.noLineStart.contains) ?? false }, "\(lines)")
            #expect(!lines.dropLast().contains { $0.last.map(TextWrapper.noLineEnd.contains) ?? false }, "\(lines)")
        }
        // Mixed text fills the line instead of moving the whole CJK run down.
        #expect(TextWrapper.wrap("see 日本語のテキスト", width: 10) == ["see 日本語", "のテキスト"])
    }

    @Test("a long URL is broken, never overflowing, and comes back whole when joined")
    func longURL() {
        let url = "https://example.com/" + String(repeating: "segment/", count: 20) + "end?x=1"
        let lines = TextWrapper.wrap("read " + url + " now", width: 30)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 30 })
        #expect(lines.first == "read")
        #expect(lines.dropFirst().joined() == url + " now")
    }

    @Test("an ASCII bubble uses no character outside ASCII but the email's own")
    func asciiGlyphs() {
        let message = TranscriptMessage(
            id: MessageID(rawValue: 1), gmailID: "g", threadID: "t",
            from: EmailAddress(address: "a@x.org", name: "Ann"),
            isFromMe: false, internalDateMs: 1_741_176_000_000, subject: "Hi", subjectBase: "hi", text: "plain words",
            originalText: "plain words\n> quoted",
            isNewsletter: false, labels: ["UNREAD"],
            attachments: [.init(filename: "a.txt", mimeType: "text/plain", size: 10, isInline: false)])
        let transcript = Transcript(
            conversation: RendererTests.conversation("Ann"), messages: [message], earlierMessageCount: 2)
        let output = TranscriptRenderer(
            width: 40, time: RendererTests.time, palette: Palette(isEnabled: false), glyphs: .ascii
        ).render(transcript)
        #expect(output.unicodeScalars.allSatisfy { $0.isASCII }, "\(output)")
        #expect(
            output.contains("+-") && output.contains("| plain words") && output.contains("[...]")
                && output.contains("[file] a.txt"))
    }

    @Test(
        "the locale picks the glyphs: LC_ALL, then LC_CTYPE, then LANG",
        arguments: [
            (["LANG": "en_GB.UTF-8"], true), (["LANG": "C"], false), ([:], false),
            (["LC_ALL": "C", "LANG": "en_US.utf8"], false),
            (["LC_CTYPE": "de_DE.UTF-8", "LANG": "C"], true), (["LC_ALL": "", "LANG": "C.UTF-8"], true),
        ])
    func locale(environment: [String: String], rounded: Bool) {
        #expect((Glyphs.forLocale(environment: environment) == .rounded) == rounded)
    }

    @Test("a person's colour is stable and never my accent")
    func personColour() {
        #expect(Palette.Style.person("alice@example.com") == Palette.Style.person("alice@example.com"))
        // Pinned: FNV-1a does not change between runs or machines, unlike Swift's Hasher.
        #expect(Palette.Style.person("alice@example.com").parameters == "95")
        let colours = Set((0..<200).map { Palette.Style.person("p\($0)@example.com").parameters })
        #expect(colours.count >= 8 && !colours.contains(Palette.Style.accent.parameters))
    }
}

@Suite struct WrapperEquivalenceTests {
    /// The ASCII fast path must wrap exactly as the general path does, so the two are compared on
    /// random text by forcing the general path (a non-ASCII character that is one column wide, then
    /// replaced back).
    @Test("the ASCII fast path wraps exactly like the general path", arguments: [1, 5, 12, 30, 71])
    func asciiMatchesGeneral(width: Int) {
        var generator = SystemRandomNumberGenerator()
        let words = [
            "a", "to", "the", "mail", "chatmail", "https://example.com/a/long/path?q=1", "", "  ",
            "supercalifragilistic",
        ]
        for _ in 0..<200 {
            let line = (0..<Int.random(in: 0...25, using: &generator)).map { _ in
                words.randomElement(using: &generator)!
            }.joined(separator: " ")
            var fast: [String] = []
            TextWrapper.wrapLine(line, width: width, into: &fast)
            // "é" (U+00E9) is one column and never a break point, so the general path wraps the same way.
            var general: [String] = []
            TextWrapper.wrapLine(line.replacingOccurrences(of: "a", with: "é"), width: width, into: &general)
            #expect(fast.map { $0.replacingOccurrences(of: "a", with: "é") } == general, "\(line.debugDescription)")
        }
    }

    @Test("day numbers agree with the calendar across a DST change")
    func dayNumbers() throws {
        let paris = TimeFormatting(timeZone: try #require(TimeZone(identifier: "Europe/Paris")), nowMs: 0)
        // 2025-03-29 … 2025-04-01 in steps of 17 minutes: spans the spring-forward night.
        let start: Int64 = 1_743_206_400_000
        var previous: Int64?
        for step in 0..<(4 * 24 * 60 / 17) {
            let ms = start + Int64(step) * 17 * 60_000
            if let previous {
                #expect((paris.dayNumber(previous) == paris.dayNumber(ms)) == paris.isSameDay(previous, ms))
            }
            previous = ms
        }
        // Before 1970 the division rounds down, not towards zero; Paris is an hour ahead of UTC then.
        let utc = TimeFormatting(timeZone: TimeZone(secondsFromGMT: 0)!, nowMs: 0)
        #expect(
            utc.dayNumber(-1) == -1 && utc.dayNumber(0) == 0 && paris.dayNumber(-3_600_001) == -1
                && paris.dayNumber(-3_600_000) == 0)
    }
}
