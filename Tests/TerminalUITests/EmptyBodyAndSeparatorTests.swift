import ChatmailStore
import Foundation
import JSONOutput
import MailText
import MarkdownExport
import RecordViews
import Testing
import TextFormatting

@testable import TerminalUI

/// Messages with an empty body, and text carrying the line and paragraph separators U+2028 and U+2029.
@Suite struct EmptyBodyAndSeparatorTests {
    static let sender = EmailAddress(address: "ann@example.org", name: "Ann")

    static func transcript(subject: String, text: String, attachments: [TranscriptMessage.Attachment] = [])
        -> Transcript
    {
        let message = TranscriptMessage(
            id: MessageID(rawValue: 1), gmailID: "g1", threadID: "t", from: sender, isFromMe: false,
            internalDateMs: GoldenCast.now - 60_000, subject: subject,
            subjectBase: ReplySubject.topicBase(subject), text: text, originalText: nil,
            isNewsletter: false,
            labels: ["INBOX"], attachments: attachments)
        let conversation = ConversationSummary(
            id: ConversationID(rawValue: 1), title: subject, participants: [sender],
            lastMessageAtMs: message.internalDateMs,
            snippet: text, messageCount: 1, unreadCount: 0, hasInbox: true, archivedAtMs: nil, isNewsletter: false)
        return Transcript(conversation: conversation, messages: [message], earlierMessageCount: 0)
    }

    func render(_ transcript: Transcript, colour: Bool = false) -> String {
        TranscriptRenderer(width: 60, time: GoldenCast.time, palette: Palette(isEnabled: colour)).render(transcript)
    }

    /// The text of each bubble line, without the border.
    func bubbleLines(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("│") }.map {
            String($0.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test("a message with an empty body gets a bubble that says so, under its subject", arguments: ["", "  \n \n"])
    func emptyBody(text: String) {
        let lines = self.bubbleLines(self.render(Self.transcript(subject: "Lunch?", text: text)))
        #expect(lines == ["Lunch?", "(no text)"])
    }

    @Test("an empty body without a subject still gets the note, and attachments are listed after it")
    func emptyBodyWithAttachment() {
        let attachment = TranscriptMessage.Attachment(
            filename: "photo.jpg", mimeType: "image/jpeg", size: 2048, isInline: false)
        #expect(self.bubbleLines(self.render(Self.transcript(subject: "", text: ""))) == ["(no text)"])
        let lines = self.bubbleLines(self.render(Self.transcript(subject: "", text: "", attachments: [attachment])))
        #expect(lines == ["(no text)", "📎 photo.jpg (2 KB)"])
    }

    @Test("the empty-body note is dimmed when colour is on")
    func emptyBodyDimmed() {
        let output = self.render(Self.transcript(subject: "Lunch?", text: ""), colour: true)
        #expect(output.contains(Palette(isEnabled: true).paint("(no text)", .dim)))
        #expect(!self.render(Self.transcript(subject: "Lunch?", text: "")).contains("\u{1B}"))
    }

    @Test("JSON gives an empty body as an empty string, not null")
    func emptyBodyJSON() throws {
        let json = try JSONRenderer(time: GoldenCast.time).render(Self.transcript(subject: "Lunch?", text: ""))
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let messages = try #require(object["messages"] as? [[String: Any]])
        #expect(messages.first?["text"] as? String == "")
    }

    @Test("the Markdown export writes an empty body as an italic note")
    func emptyBodyMarkdown() {
        let markdown = ConversationMarkdown(time: GoldenCast.time, options: .init(version: "test"))
            .render(Self.transcript(subject: "Lunch?", text: ""))
        #expect(markdown.contains("\n*(no text)*\n"))
    }

    static let separators: [Unicode.Scalar] = ["\u{2028}", "\u{2029}"]

    @Test("U+2028 and U+2029 in a subject and a body never reach the terminal")
    func separatorsInTranscript() {
        let transcript = Self.transcript(
            subject: "Line\u{2028}break\u{2029}subject", text: "first\u{2028}second\u{2029}third")
        for colour in [false, true] {
            let output = self.render(transcript, colour: colour)
            #expect(!output.unicodeScalars.contains(where: Self.separators.contains))
            #expect(output.contains("first"))
            #expect(output.contains("third"))
        }
        #expect(self.bubbleLines(self.render(transcript)) == ["Line break subject", "first", "second", "third"])
    }

    @Test("U+2028 and U+2029 in a conversation list and in Markdown never reach the terminal")
    func separatorsElsewhere() {
        let transcript = Self.transcript(subject: "A\u{2028}B", text: "one\u{2029}two")
        let list = ConversationListRenderer(width: 80, time: GoldenCast.time, palette: Palette(isEnabled: false))
            .render([transcript.conversation])
        #expect(!list.unicodeScalars.contains(where: Self.separators.contains))
        let markdown = ConversationMarkdown(time: GoldenCast.time, options: .init(version: "test")).render(transcript)
        #expect(!markdown.unicodeScalars.contains(where: Self.separators.contains))
    }

    @Test("the terminal filter makes U+2028 and U+2029 a newline, and a space on one line")
    func separatorsInFilter() {
        #expect(TerminalSafeText.sanitize("a\u{2028}b\u{2029}c") == "a\nb\nc")
        #expect(TerminalSafeText.singleLine("a\u{2028}b\u{2029} c") == "a b c")
    }
}
