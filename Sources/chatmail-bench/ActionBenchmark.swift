import ArgumentParser
import ChatmailStore
import Foundation
import GmailEmulator
import MailText

/// `chatmail-bench actions`: how long a local-first action takes on a 100,000-message store, whole
/// process, before any network: `archive` and `unarchive` of a 2,000-message conversation and of a
/// small one, alternately (after the first pair each one coalesces with the queued opposite), then
/// `pending` and `status` with a queue.
struct ActionBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actions",
        abstract: "Time archive/unarchive (local labels, rollups, coalescing) and `pending` on a 100k-message store.")

    @Option(help: "Messages to seed.") var messages = 100_000
    @Option(help: "Conversations to seed.") var conversations = 10_000
    @Option(help: "Messages in the big conversation.") var bigConversation = 2_000
    @Option(help: "Timed archive/unarchive pairs per conversation.") var runs = 11

    func run() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-bench-actions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup of a scratch dir
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = try ChatmailStore(
            path: dir.appendingPathComponent("chatmail.sqlite").path, subjectBase: ReplySubject.topicBase)
        try SyntheticMailbox(
            messageCount: messages, conversationCount: conversations, bigConversationSize: bigConversation,
            endDateMs: ChatmailStore.systemClock()
        ).seed(into: store)
        print("seeded \(messages) messages in \(conversations) conversations (the first has \(bigConversation))")

        let chatmail = try ProcessTimer.siblingExecutable(named: "chatmail")
        let environment = ProcessInfo.processInfo.environment.merging(["CHATMAIL_HOME": dir.path, "NO_COLOR": "1"]) {
            $1
        }
        let output = dir.appendingPathComponent("out.txt").path
        func time(_ arguments: [String]) throws -> Double {
            let start = ContinuousClock.now
            let status = try ProcessTimer.spawnAndWait(
                chatmail.path, arguments: arguments, environment: environment, outputPath: output)
            let elapsed = (ContinuousClock.now - start).seconds
            guard status == 0 else {
                throw ProcessTimer.Failure(description: "\(arguments.joined(separator: " ")) exited \(status)")
            }
            return elapsed
        }
        print("whole-process wall time, median / min / max of \(runs) runs:")
        for (label, person) in [("\(bigConversation)-message conversation", 0), ("small conversation", 1)] {
            let address = SyntheticMailbox.person(person).address
            var archive: [Double] = []
            var unarchive: [Double] = []
            _ = try time(["archive", address])  // the first pair queues real actions; later ones coalesce
            _ = try time(["unarchive", address])
            for _ in 0..<runs {
                archive.append(try time(["archive", address]))
                unarchive.append(try time(["unarchive", address]))
            }
            print("  archive, \(label): \(Self.summary(archive))")
            print("  unarchive, \(label): \(Self.summary(unarchive))")
        }
        for (label, arguments) in [("pending --json", ["pending", "--json"]), ("status", ["status"])] {
            print("  \(label): \(Self.summary(try (0..<runs).map { _ in try time(arguments) }))")
        }
    }

    static func summary(_ times: [Double]) -> String {
        let sorted = times.sorted()
        func ms(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1000) }
        return "\(ms(sorted[sorted.count / 2])) / \(ms(sorted[0])) / \(ms(sorted[sorted.count - 1])) ms"
    }
}
