import ChatmailStore
import Foundation
import MailText
import MarkdownExport
import RecordViews
import Testing
import TextFormatting

@testable import TerminalUI

/// The chat, the Markdown export and a reply agree on when the topic changes, in every language: each
/// reads the subject base the store computed when it stored the message, so none keeps a prefix list.
@Suite struct SubjectBaseAgreementTests {
    /// Subjects that follow "Plan", and whether they carry on its topic.
    static let subjects: [(String, Bool)] = [
        ("Re: Plan", true), ("RE: Plan", true), ("re:plan", true), ("Re: plan", true), ("Re :  Plan ", true),
        ("Aw: Plan", true), ("AW: Plan", true),  // German reply
        ("Wg: Plan", true), ("WG: Plan", true),  // German forward
        ("Fwd: Plan", true), ("Fw: Plan", true), ("FW: Plan", true),
        ("Tr: Plan", true), ("TR: Plan", true),  // French forward
        ("SV: Plan", true), ("VS: Plan", true), ("Antw: Plan", true), ("Odp: Plan", true), ("RIF: Plan", true),
        ("R: Plan", true), ("Ynt: Plan", true), ("Отв: Plan", true), ("ΑΠ: Plan", true), ("RV: Plan", true),
        ("回复: Plan", true), ("回复：Plan", true), ("转发: Plan", true), ("답장: Plan", true),
        ("Re[2]: Plan", true), ("Re(3): Plan", true), ("Re^2: Plan", true),  // reply counters
        ("Re: Fwd: Re: Plan", true), ("AW: WG: AW: Plan", true),  // nested, mixed
        ("Plans", false), ("Re: Plans", false), ("Results: Plan", false), ("Re-Plan", false),
        ("Fwd: Budget", false), ("Meeting at 10:30", false), ("Re[x]: Plan", false), ("[dev] Plan", false),
    ]

    /// "Plan", then `subject`, then the account's reply to it, stored as the sync stores them.
    static func transcript(after subject: String) throws -> Transcript {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("agree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup: nothing to lose
        let store = try ChatmailStore(
            path: dir.appendingPathComponent("chatmail.sqlite").path, subjectBase: ReplySubject.topicBase)
        let (me, alice) = (GoldenCast.me, GoldenCast.alice)
        let messages = [
            (alice, me, "Plan", "first"), (alice, me, subject, "second"),
            (me, alice, ReplySubject.make(from: subject), "reply"),
        ]
        let conversation = try store.write { tx in
            let account = try tx.ensureAccount(email: me.address)
            var conversation: ConversationID?
            for (index, (from, to, subject, text)) in messages.enumerated() {
                let stored = try tx.upsert(
                    MessageInput(
                        gmailID: "g\(index)", threadID: "t", internalDateMs: GoldenCast.now - Int64(3 - index) * 60_000,
                        from: from, to: [to], subject: subject, bodyText: text, labelIDs: ["INBOX"]),
                    in: account)
                conversation = stored.conversationID
                try tx.recomputeRollups(for: stored.affectedConversations)
            }
            return conversation
        }
        let id = try #require(conversation)
        return try #require(try store.transcript(of: id, limit: 10))
    }

    /// Which of the three bubbles show a subject line: the line above their text.
    static func terminalShowsSubject(_ transcript: Transcript) -> [Bool] {
        let output = TranscriptRenderer(width: 100, time: GoldenCast.time, palette: Palette(isEnabled: false))
            .render(TranscriptView(transcript))
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("│") }.map { String($0.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces) }
        return zip(["first", "second", "reply"], transcript.messages).map { text, message in
            guard let index = lines.firstIndex(of: text), index > 0 else { return false }
            return lines[index - 1] == TerminalSafeText.singleLine(message.subject)
        }
    }

    /// Which of the three sections of the export write the subject.
    static func markdownShowsSubject(_ transcript: Transcript) -> [Bool] {
        let markdown = ConversationMarkdown(time: GoldenCast.time, options: .init(version: "test"))
            .render(transcript)
        return markdown.components(separatedBy: "\n### ").dropFirst().map { $0.contains("**Subject:**") }
    }

    @Test("the chat, the export and a reply agree on where the topic changes", arguments: subjects)
    func agree(subject: String, carriesOn: Bool) throws {
        let transcript = try Self.transcript(after: subject)
        #expect(transcript.messages.map(\.text) == ["first", "second", "reply"])
        // The first message shows its subject; the second only when it changes the topic; the reply never,
        // since answering keeps to the topic of what it answers.
        let expected = [true, !carriesOn, false]
        #expect(Self.terminalShowsSubject(transcript) == expected, "terminal, after \(subject)")
        #expect(Self.markdownShowsSubject(transcript) == expected, "Markdown, after \(subject)")
        #expect(
            (ReplySubject.topicBase(subject) == ReplySubject.topicBase("Plan")) == carriesOn, "the rule, \(subject)")
    }
}
