import ArgumentParser
import ChatmailStore
import Foundation

/// The 100k-message store the export and search benchmarks share: seeded like `chatmail-bench store`,
/// or reused from `--home` when it already holds one (seeding takes a few seconds; reuse keeps runs comparable).
struct BenchmarkStore {
    let home: URL
    let scratch: URL?

    static func prepare(home: String?, messages: Int, conversations: Int) throws -> BenchmarkStore {
        let scratch = home == nil ? FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-bench-\(UUID().uuidString)") : nil
        let dir = home.map { URL(fileURLWithPath: $0) } ?? scratch!
        let database = dir.appendingPathComponent("chatmail.sqlite")
        if FileManager.default.fileExists(atPath: database.path) {
            print("store: reusing \(dir.path)")
        } else {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let store = try ChatmailStore(path: database.path)
            let start = ContinuousClock.now
            try SyntheticMailbox(
                messageCount: messages, conversationCount: conversations, bigConversationSize: 2_000, endDateMs: 1_763_800_000_000
            ).seed(into: store)
            print("store: seeded \(messages) messages in \(conversations) conversations in \(String(format: "%.1f", (ContinuousClock.now - start).seconds)) s")
        }
        return BenchmarkStore(home: dir, scratch: scratch)
    }

    func cleanUp() {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup of a scratch dir
    }

    var environment: [String: String] { ["CHATMAIL_HOME": home.path, "NO_COLOR": "1", "COLUMNS": "100", "TZ": "UTC"] }
}

/// `chatmail-bench export`: whole-process `chatmail export --all` on the 100k-message store.
struct ExportBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Time `chatmail export --all -o DIR` on a 100,000-message store (messages/s), and check re-exports are byte-identical.")

    @Option(help: "Messages to seed.") var messages = 100_000
    @Option(help: "Conversations to seed.") var conversations = 10_000
    @Option(help: "Timed exports.") var runs = 5
    @Option(help: "A chatmail home to reuse (or seed and keep).") var home: String?

    func run() throws {
        let store = try BenchmarkStore.prepare(home: home, messages: messages, conversations: conversations)
        defer { store.cleanUp() }
        let chatmail = try ProcessTimer.siblingExecutable(named: "chatmail")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-bench-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }  // best-effort cleanup of a scratch dir
        // --force rewrites every file each run: the timed work is the same as into an empty directory,
        // plus the rename of each file over its predecessor.
        let times = try ProcessTimer.time(
            chatmail, arguments: ["export", "--all", "-o", output.path, "--force"], environment: store.environment, runs: runs)
        let digest = try Self.digest(of: output)
        _ = try ProcessTimer.time(chatmail, arguments: ["export", "--all", "-o", output.path, "--force"], environment: store.environment, runs: 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).count
        let rates = times.map { Double(messages) / $0 }.sorted()
        print("export --all: \(messages) messages into \(files) files, \(runs) runs, whole process (median / min / max):")
        print("  \(Int(rates[rates.count / 2])) / \(Int(rates.first!)) / \(Int(rates.last!)) messages/s"
            + " (\(Self.format(times.sorted()[times.count / 2])) s median)")
        print("  byte-identical after another export: \(try Self.digest(of: output) == digest ? "yes" : "NO")")
    }

    /// Every file's name and bytes, for comparing two exports.
    static func digest(of directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    static func format(_ seconds: Double) -> String { String(format: "%.2f", seconds) }
}

/// `chatmail-bench search`: whole-process `chatmail search` latency on the 100k-message store.
struct SearchBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Time `chatmail search` with a one-word and a three-word query on a 100,000-message store (target ≤ 50 ms).")

    @Option(help: "Messages to seed.") var messages = 100_000
    @Option(help: "Conversations to seed.") var conversations = 10_000
    @Option(help: "Timed runs of each query.") var runs = 21
    @Option(help: "A chatmail home to reuse (or seed and keep).") var home: String?

    func run() throws {
        let store = try BenchmarkStore.prepare(home: home, messages: messages, conversations: conversations)
        defer { store.cleanUp() }
        let chatmail = try ProcessTimer.siblingExecutable(named: "chatmail")
        // The synthetic vocabulary is small, so these are broad queries: "invoice" is in about half the
        // messages and all three words together in about a tenth, the costly end of ranking.
        let cases: [(String, [String])] = [
            ("chatmail --help (process start-up)", ["--help"]),
            ("chatmail search invoice", ["search", "invoice"]),
            ("chatmail search budget hotel invoice", ["search", "budget", "hotel", "invoice"]),
            ("chatmail search \"quick note\" (phrase)", ["search", "\"quick note\""]),
            ("chatmail search invoice --person <name>", ["search", "invoice", "--person", SyntheticMailbox.person(0).name!]),
        ]
        for (_, arguments) in cases.dropFirst() {
            let count = try Self.hitCount(chatmail, arguments: arguments + ["--json", "--limit", "1000000"], environment: store.environment)
            print("  \(arguments.dropFirst().joined(separator: " ")): \(count) matching messages")
        }
        print("whole-process wall time, \(runs) runs each, default --limit 20, output to a file (median / min / max):")
        for (label, arguments) in cases {
            let times = try ProcessTimer.time(chatmail, arguments: arguments, environment: store.environment, runs: runs).sorted()
            print("  \(label): \(ms(times[times.count / 2])) / \(ms(times.first!)) / \(ms(times.last!)) ms")
        }
    }

    /// How many messages a query matches (one untimed run with a huge limit).
    static func hitCount(_ executable: URL, arguments: [String], environment: [String: String]) throws -> Int {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (try JSONSerialization.jsonObject(with: data) as? [Any])?.count ?? -1
    }

    private func ms(_ seconds: Double) -> String { String(Double(Int(seconds * 10_000)) / 10) }
}
