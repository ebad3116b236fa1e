import ChatmailStore
import Foundation
import MailText
import RecordViews
import Testing
import TextFormatting

@testable import TerminalUI

/// Golden-file snapshots of the transcript and the conversation list at three widths, with colour on
/// and off. The files live in `Golden/`; `scripts/update-goldens` rewrites them after an intended change
/// (that run fails on purpose: it checked nothing), then review the diff like any other code.
@Suite struct GoldenTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let widths = [40, 80, 120]

    @Test("show matches its golden file", arguments: widths, [false, true])
    func show(width: Int, colour: Bool) throws {
        let output = TranscriptRenderer(
            width: width, time: GoldenCast.time, palette: Palette(isEnabled: colour)
        ).render(GoldenCast.groupTranscript)
        try Self.check(output, width: width, against: "show-\(width)\(colour ? "-colour" : "").txt")
    }

    @Test("conversations matches its golden file", arguments: widths, [false, true])
    func conversations(width: Int, colour: Bool) throws {
        let output = ConversationListRenderer(
            width: width, time: GoldenCast.time, palette: Palette(isEnabled: colour)
        ).render(GoldenCast.conversations)
        try Self.check(output, width: width, against: "conversations-\(width)\(colour ? "-colour" : "").txt")
    }

    @Test("the ASCII transcript matches its golden file")
    func ascii() throws {
        let output = TranscriptRenderer(
            width: 80, time: GoldenCast.time, palette: Palette(isEnabled: false), glyphs: .ascii
        ).render(GoldenCast.groupTranscript)
        try Self.check(output, width: 80, against: "show-80-ascii.txt")
    }

    /// Every line fits, only our own SGR sequences appear, and the output equals the golden file.
    static func check(_ output: String, width: Int, against name: String) throws {
        let plain = output.replacingOccurrences(of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
        for line in plain.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(DisplayWidth.of(line) <= width, "\(name): \(line)")
        }
        #expect(!plain.unicodeScalars.contains { $0.value == 0x1B || (0x80...0x9F).contains($0.value) })
        let file = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["CHATMAIL_UPDATE_GOLDENS"] == "1" {
            try output.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("CHATMAIL_UPDATE_GOLDENS is set: \(name) was written, not checked")
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        if output != expected {
            let got = output.split(separator: "\n", omittingEmptySubsequences: false)
            let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }
            Issue.record(
                "\(name) differs at line \((first?.offset ?? min(got.count, want.count)) + 1): got \(first.map { String($0.element.0) } ?? "<end>"), want \(first.map { String($0.element.1) } ?? "<end>")"
            )
        }
    }
}

/// The people and messages of the golden files: a group with CJK, RTL and emoji names, long URLs,
/// a removed quote, attachments, a newsletter card, an unread run and several days.
enum GoldenCast {
    // Wed 2025-03-05 12:00 UTC.
    static let now: Int64 = 1_741_176_000_000
    static let minute: Int64 = 60_000
    static let day: Int64 = 86_400_000
    static let time = TimeFormatting(timeZone: TimeZone(secondsFromGMT: 0)!, nowMs: now)

    static let me = EmailAddress(address: "me@example.org", name: "Me")
    static let alice = EmailAddress(address: "alice@example.com", name: "Alice Liddell")
    static let wei = EmailAddress(address: "wei@example.cn", name: "陈伟")
    static let noa = EmailAddress(address: "noa@example.co.il", name: "נועה כהן")
    static let news = EmailAddress(address: "news@shop.example", name: "Shop News 🛍️")

    static func message(
        _ id: Int64, from: EmailAddress, at: Int64, subject: String = "Trip planning", text: String,
        original: String? = nil, unread: Bool = false, newsletter: Bool = false,
        attachments: [TranscriptMessage.Attachment] = []
    ) -> TranscriptMessage {
        TranscriptMessage(
            id: MessageID(rawValue: id), gmailID: "g\(id)", threadID: "t", from: from, isFromMe: from == me,
            internalDateMs: at, subject: subject, subjectBase: ReplySubject.topicBase(subject), text: text,
            originalText: original, isNewsletter: newsletter,
            labels: unread ? ["INBOX", "UNREAD"] : ["INBOX"], attachments: attachments)
    }

    static let groupMessages: [TranscriptMessage] = [
        message(
            1, from: alice, at: now - 2 * day,
            text:
                "Shall we book the trip to Kyoto? 🚄 The itinerary is at https://example.com/trips/kyoto-2025/itinerary?day=1&view=full&lang=en"
        ),
        message(
            2, from: alice, at: now - 2 * day + 2 * minute, text: "Also: bring adapters!",
            original: "Also: bring adapters!\n\nOn Monday Bob wrote:\n> what else?"),
        message(3, from: wei, at: now - 2 * day + 5 * minute, text: "好的！我已经预订了京都的酒店，离车站很近，步行五分钟。价格也很合理。"),
        message(
            4, from: me, at: now - 2 * day + 20 * minute, text: "Great, thanks both 👍🏽 I'll sort out the rail passes.",
            attachments: [.init(filename: "rail-pass.pdf", mimeType: "application/pdf", size: 245_760, isInline: false)]
        ),
        message(5, from: me, at: now - 2 * day + 80 * minute, subject: "Re: Trip planning", text: "Passes booked."),
        message(
            6, from: noa, at: now - day, subject: "Photos", text: "שלום! הנה התמונות מהטיול הקודם.",
            attachments: [
                .init(filename: "kyoto-1.jpg", mimeType: "image/jpeg", size: 3_355_443, isInline: false),
                .init(
                    filename: "a-very-long-file-name-that-goes-on-and-on-for-ever.jpg", mimeType: "image/jpeg",
                    size: 1_048_576, isInline: false),
            ]),
        message(
            7, from: news, at: now - day + 30 * minute, subject: "Spring sale: 30% off everything",
            text:
                "Our biggest sale of the year starts today.\nEvery item is 30% off until Sunday.\nFree shipping over 50 €.\nNew arrivals every morning.\nUnsubscribe at any time.",
            newsletter: true),
        message(8, from: alice, at: now - 90 * minute, text: "Are we still on for Friday?", unread: true),
        message(9, from: wei, at: now - 30 * minute, text: "👨‍👩‍👧 全家都去！🇯🇵", unread: true),
    ]

    static let group = ConversationSummary(
        id: ConversationID(rawValue: 1), title: "Alice, 陈伟, נועה", participants: [alice, wei, noa, news],
        lastMessageAtMs: now - 30 * minute, snippet: "👨‍👩‍👧 全家都去！🇯🇵", messageCount: 12, unreadCount: 2,
        hasInbox: true, archivedAtMs: nil, isNewsletter: false)

    static let groupTranscript = Transcript(conversation: group, messages: groupMessages, earlierMessageCount: 3)

    static func row(
        _ id: Int64, _ title: String, _ who: [EmailAddress], at: Int64, snippet: String, unread: Int = 0,
        newsletter: Bool = false
    ) -> ConversationSummary {
        ConversationSummary(
            id: ConversationID(rawValue: id), title: title, participants: who, lastMessageAtMs: at, snippet: snippet,
            messageCount: 3, unreadCount: unread, hasInbox: true, archivedAtMs: nil, isNewsletter: newsletter)
    }

    static let conversations: [ConversationSummary] = [
        group,
        row(
            2, "Alice Liddell", [alice], at: now - 3 * 60 * minute,
            snippet: "See https://example.com/a/very/long/link/that/never/ends/at/all?really=yes", unread: 1),
        row(3, "陈伟", [wei], at: now - day, snippet: "好的！我已经预订了京都的酒店，离车站很近。"),
        row(4, "נועה כהן", [noa], at: now - 3 * day, snippet: "שלום! הנה התמונות"),
        row(
            5, "Shop News 🛍️", [news], at: now - 20 * day, snippet: "Our biggest sale of the year starts today.",
            unread: 12, newsletter: true),
        row(
            6, "Old Friend", [EmailAddress(address: "old@example.net", name: "Old Friend")], at: now - 400 * day,
            snippet: "Long time no see!"),
    ]
}
