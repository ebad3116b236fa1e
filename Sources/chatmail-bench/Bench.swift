import ArgumentParser
import ChatmailStore
import Foundation
import GmailEmulator
import MailText

/// Benchmarks and fixtures for chatmail. Figures go to `Docs/PERFORMANCE.md`.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chatmail-bench",
        abstract: "Seed synthetic stores and measure chatmail.",
        subcommands: [
            Seed.self, StoreBenchmark.self, MailTextBenchmark.self, GmailBenchmark.self, SyncBenchmark.self,
            ActionBenchmark.self,
            ExportBenchmark.self, SearchBenchmark.self, TextQualityBenchmark.self, ListRegroupBenchmark.self,
            ReplyBenchmark.self, AppBenchmark.self, CodesBenchmark.self, RulesBenchmark.self, IngestBenchmark.self,
            IMAPBenchmark.self, IMAPSendBenchmark.self,
        ])
}

/// `chatmail-bench seed`: fills a chatmail home with a synthetic mailbox.
struct Seed: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Fill a chatmail home with a synthetic mailbox.")

    @Option(help: "The chatmail home to create.") var home: String
    @Option(help: "Messages to create.") var messages = 500
    @Option(help: "Conversations to spread them over.") var conversations = 40
    @Option(help: "Messages in the first (long) conversation.") var bigConversation = 60

    func run() throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let store = try ChatmailStore(
            path: URL(fileURLWithPath: home).appendingPathComponent("chatmail.sqlite").path,
            subjectBase: ReplySubject.topicBase)
        try SyntheticMailbox(
            messageCount: messages, conversationCount: conversations, bigConversationSize: bigConversation,
            endDateMs: ChatmailStore.systemClock()
        ).seed(into: store)
        print("Seeded \(messages) messages in \(conversations) conversations into \(home)")
    }
}

/// `chatmail-bench store`: the foundation benchmark.
struct StoreBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Seed 100,000 messages in 10,000 conversations, then time `conversations` and `show`.")

    @Option(help: "Messages to seed.") var messages = 100_000
    @Option(help: "Conversations to seed.") var conversations = 10_000
    @Option(help: "Messages in the conversation `show` is timed on.") var bigConversation = 2_000
    @Option(help: "Timed runs of each command.") var runs = 21
    @Option(help: "Keep the seeded home here instead of a temporary directory.") var home: String?

    @Option(help: "Fresh stores to seed; the median seeding rate is reported.") var seedRuns = 3

    func run() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-bench-\(UUID().uuidString)")
        let dir = home.map { URL(fileURLWithPath: $0) } ?? scratch
        if FileManager.default.fileExists(atPath: dir.appendingPathComponent("chatmail.sqlite").path) {
            throw ValidationError("\(dir.path) already holds a chatmail store; give --home an empty directory.")
        }
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup of a scratch dir

        let mailbox = SyntheticMailbox(
            messageCount: messages, conversationCount: conversations, bigConversationSize: bigConversation,
            endDateMs: ChatmailStore.systemClock())
        print(
            "seed: \(messages) messages in \(conversations) conversations through the store API, \(seedRuns) fresh stores"
        )
        var rates: [(total: Double, persist: Double, rollups: Double)] = []
        for run in 1...max(1, seedRuns) {
            // Every run but the last seeds a throwaway store; the last one is kept for the timings below.
            let runDir = run == seedRuns ? dir : scratch.appendingPathComponent("run\(run)")
            try FileManager.default.createDirectory(at: runDir, withIntermediateDirectories: true)
            let store = try ChatmailStore(
                path: runDir.appendingPathComponent("chatmail.sqlite").path, subjectBase: ReplySubject.topicBase)
            let timings = try mailbox.seed(into: store)
            let total = timings.persistSeconds + timings.rollupSeconds
            rates.append((Double(messages) / total, Double(messages) / timings.persistSeconds, timings.rollupSeconds))
            print(
                "  run \(run): \(Int(Double(messages) / total)) messages/s (persist \(format(timings.persistSeconds)) s at \(Int(Double(messages) / timings.persistSeconds)) messages/s, rollups \(format(timings.rollupSeconds)) s)"
            )
        }
        let median = rates.sorted { $0.total < $1.total }[rates.count / 2]
        print(
            "  median run: \(Int(median.total)) messages/s (persist \(Int(median.persist)) messages/s, rollups \(format(median.rollups)) s)"
        )

        let chatmail = try ProcessTimer.siblingExecutable(named: "chatmail")
        let environment = ["CHATMAIL_HOME": dir.path, "NO_COLOR": "1", "COLUMNS": "100"]
        let person = SyntheticMailbox.person(0)
        let cases: [(String, [String])] = [
            ("chatmail --help", ["--help"]),
            ("chatmail conversations", ["conversations"]),
            ("chatmail show <name> (default --limit 50)", ["show", person.name]),
            ("chatmail show <address> --limit 2000", ["show", person.address, "--limit", "2000"]),
        ]
        print("whole-process wall time, \(runs) runs each, output to a file (median / min / max):")
        for (label, arguments) in cases {
            let times = try ProcessTimer.time(chatmail, arguments: arguments, environment: environment, runs: runs)
            let sorted = times.sorted()
            print("  \(label): \(ms(sorted[sorted.count / 2])) / \(ms(sorted.first!)) / \(ms(sorted.last!)) ms")
        }
    }

    private func format(_ seconds: Double) -> String { String(Double(Int(seconds * 100)) / 100) }
    private func ms(_ seconds: Double) -> String { String(Double(Int(seconds * 10_000)) / 10) }
}

extension Array where Element == Double {
    /// The middle value (the upper one of the two middles for an even count); 0 when empty.
    var median: Double {
        let sorted = sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
