import Foundation
import MailText
import Testing

@testable import GmailEmulator

/// The one synthetic mailbox the emulator serves and the benchmarks store.
@Suite struct SyntheticMailboxTests {
    @Test("the same seed draws the same messages; another seed draws others")
    func deterministic() {
        let mailbox = SyntheticMailbox.emulator(messageCount: 300, account: "me@example.org")
        let first = Array(mailbox.messages(seed: 11))
        #expect(first.count == 300)
        #expect(first == Array(mailbox.messages(seed: 11)))
        #expect(first.map(\.rfc822) == Array(mailbox.messages(seed: 11)).map(\.rfc822))
        #expect(first.map(\.text) != Array(mailbox.messages(seed: 12)).map(\.text))
    }

    @Test("the emulator's cast grows with the mailbox: one correspondent per ten messages")
    func castGrows() {
        for count in [1_000, 5_000] {
            let messages = Array(
                SyntheticMailbox.emulator(messageCount: count, account: "me@example.org").messages(seed: 1))
            let people = Set(messages.flatMap { [$0.from] + $0.to + $0.cc }.filter { $0.address != "me@example.org" })
            // One per conversation plus the second member of each group conversation (a tenth of them).
            #expect(people.count >= count / 10 - 1 && people.count <= count / 10 + count / 100)
            #expect(messages.contains { $0.isNewsletter })
            #expect(messages.contains { $0.labels == ["SENT"] && $0.from.address == "me@example.org" })
        }
    }

    @Test("conversation 0 holds the long conversation, spread over the whole time range")
    func bigConversation() {
        let mailbox = SyntheticMailbox(
            messageCount: 2_000, conversationCount: 100, bigConversationSize: 400, endDateMs: 1_763_800_000_000)
        let messages = Array(mailbox.messages(seed: 42))
        let big = messages.filter { $0.conversation == 0 }
        #expect(big.count == 400)
        #expect(big.first?.index == 0 && (big.last?.index ?? 0) >= 1_990)
        #expect(zip(messages, messages.dropFirst()).allSatisfy { $0.dateMs < $1.dateMs })
        #expect(messages.last.map { $0.dateMs <= 1_763_800_000_000 } == true)
    }

    @Test("within a conversation, messages form threads of five that reply to each other")
    func threads() {
        let messages = Array(SyntheticMailbox.emulator(messageCount: 500, account: "me@example.org").messages(seed: 3))
        let threads = Dictionary(grouping: messages, by: \.threadKey)
        #expect(threads.values.allSatisfy { $0.count <= 5 && Set($0.map(\.conversation)).count == 1 })
        #expect(threads.values.contains { $0.count == 5 })
        for thread in threads.values {
            #expect(thread.first?.inReplyTo == nil)
            #expect(zip(thread, thread.dropFirst()).allSatisfy { $1.inReplyTo == $0.messageID })
        }
    }

    @Test("every raw rendering decodes to the message's own subject, text, sender and date")
    func rawDecodes() {
        let pipeline = TextPipeline()
        for message in SyntheticMailbox.emulator(messageCount: 40, account: "me@example.org").messages(seed: 5) {
            let processed = pipeline.process(raw: message.rfc822)
            #expect(processed.message.subject == message.subject)
            #expect(processed.text.text.trimmingCharacters(in: .whitespacesAndNewlines) == message.text)
            #expect(processed.message.from.first?.address == message.from.address)
            #expect(processed.message.dateMs == message.dateMs / 1000 * 1000)
            #expect(processed.message.messageID == message.messageID)
        }
    }
}
