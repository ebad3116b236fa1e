import ArgumentParser
import ChatmailStore
import Foundation
import GmailEmulator
import MailText

/// `chatmail-bench lists`: what learning a list's posting address costs, and forgetting it again, on a
/// small and a large store.
///
/// My posts to a list that carry no `List-Id` (Gmail keeps only the Sent copy) first land in
/// participant conversations. The first list message that names the posting address moves them into the
/// list's conversation; deleting that message moves them back. Both must stay incremental: the cost
/// follows the posts moved, not the mailbox.
struct ListRegroupBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists",
        abstract: "Time the re-grouping of my list posts when the list's posting address is learned and forgotten.")

    @Option(help: "Messages in the large store.") var large = 100_000
    @Option(help: "Messages in the small store.") var small = 1_000
    @Option(help: "My earlier posts to the list, spread over that many people's conversations.") var posts = 200
    @Option(help: "Timed runs per store (each on a fresh copy of the seeded store).") var runs = 5

    func run() throws {
        let smallTimes = try measure(messages: small)
        let largeTimes = try measure(messages: large)
        let smallMedian = smallTimes.map(\.seconds).median
        let largeMedian = largeTimes.map(\.seconds).median
        let moved = largeTimes.first?.moved ?? 0
        let left = largeTimes.first?.conversations ?? 0
        print(
            String(
                format:
                    "learning a posting address, median of %d: %d messages %.1f ms, %d messages %.1f ms; ratio %.2f",
                runs, large, largeMedian * 1000, small, smallMedian * 1000, largeMedian / smallMedian))
        print("  each run moved \(moved) posts out of \(left) conversations into the list, rollups included")
        let smallForget = smallTimes.map(\.forgetSeconds).median
        let largeForget = largeTimes.map(\.forgetSeconds).median
        print(
            String(
                format:
                    "forgetting it (its only message deleted), median of %d: %d messages %.1f ms, %d messages %.1f ms; ratio %.2f",
                runs, large, largeForget * 1000, small, smallForget * 1000, largeForget / smallForget))
        let movedBack = largeTimes.first?.movedBack ?? 0
        print("  each run moved the posts back into \(movedBack) conversations with their people, rollups included")
    }

    struct Run {
        var seconds: Double
        var moved: Int
        var conversations: Int
        var forgetSeconds: Double
        var movedBack: Int
    }

    /// Seeds a store of `messages` synthetic messages plus my list posts, then times, on a fresh copy each
    /// run, the one transaction that stores the first list message and re-groups what it teaches.
    func measure(messages: Int) throws -> [Run] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-bench-lists-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup of a scratch dir
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let seeded = dir.appendingPathComponent("seeded.sqlite")
        let mailbox = SyntheticMailbox(
            messageCount: messages, conversationCount: max(10, messages / 10), bigConversationSize: 0,
            endDateMs: ChatmailStore.systemClock())
        do {
            let store = try ChatmailStore(path: seeded.path, subjectBase: ReplySubject.topicBase)
            let seeding = ContinuousClock.now
            try mailbox.seed(into: store)
            let seeded = try store.status(of: store.account(.onlyAccount))
            print(
                "seeded \(seeded.messageCount) messages in \(seeded.conversationCount) conversations in "
                    + String(format: "%.1f s", (ContinuousClock.now - seeding).seconds))
            let account = try store.write { tx in try tx.ensureAccount(email: mailbox.me.address) }
            let me = EmailAddress(address: mailbox.me.address, name: mailbox.me.name)
            let list = EmailAddress(address: "dev@lists.example.org")
            try store.write { tx in
                var touched = Set<ConversationID>()
                for index in 0..<posts {
                    // Each post also goes to a person, so it starts in a conversation with them and the list.
                    let person = SyntheticMailbox.person(index % max(1, posts / 4))
                    let post = MessageInput(
                        gmailID: "post-\(index)", threadID: "post-\(index)",
                        internalDateMs: 1_600_000_000_000 + Int64(index),
                        from: me, to: [list, EmailAddress(address: person.address, name: person.name)],
                        subject: "Re: release plan", bodyText: "My answer \(index).", labelIDs: ["SENT"])
                    touched.formUnion(try tx.upsert(post, in: account).affectedConversations)
                }
                try tx.recomputeRollups(for: touched)
            }
        }
        var results: [Run] = []
        for run in 0..<runs {
            let copy = dir.appendingPathComponent("run-\(run).sqlite")
            try FileManager.default.copyItem(at: seeded, to: copy)
            let store = try ChatmailStore(path: copy.path, subjectBase: ReplySubject.topicBase)
            let account = try store.write { tx in try tx.ensureAccount(email: mailbox.me.address) }
            let announcement = MessageInput(
                gmailID: "list-first", threadID: "list-first", internalDateMs: 1_700_000_000_000,
                from: EmailAddress(address: "alice@example.com", name: "Alice"),
                to: [EmailAddress(address: "dev@lists.example.org")], subject: "Re: release plan",
                bodyText: "Thanks, all.", labelIDs: ["INBOX"],
                mailingList: .init(id: "dev.lists.example.org", name: "Dev talk"),
                listPosting: .address(EmailAddress(address: "dev@lists.example.org")))
            let start = ContinuousClock.now
            let upsert = try store.write { tx in
                let upsert = try tx.upsert(announcement, in: account)
                try tx.recomputeRollups(for: upsert.affectedConversations)
                return upsert
            }
            let elapsed = (ContinuousClock.now - start).seconds
            let listRow = try store.conversations(in: account, filter: .init()).first { $0.id == upsert.conversationID }
            let moved = (listRow?.messageCount ?? 1) - 1
            let forgetting = ContinuousClock.now
            let touched = try store.write { tx in
                let touched = try tx.deleteMessages(gmailIDs: ["list-first"], in: account)
                try tx.recomputeRollups(for: touched)
                return touched
            }
            let forgetSeconds = (ContinuousClock.now - forgetting).seconds
            let listLeft = try store.conversations(in: account, filter: .init()).contains {
                $0.id == upsert.conversationID
            }
            precondition(!listLeft, "The list's conversation outlived its last message")
            results.append(
                Run(
                    seconds: elapsed, moved: moved, conversations: upsert.regroupedConversations.count - 1,
                    forgetSeconds: forgetSeconds, movedBack: touched.count - 1))
        }
        return results
    }
}
