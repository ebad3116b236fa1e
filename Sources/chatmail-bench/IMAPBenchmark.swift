import ArgumentParser
import ChatmailSync
import DovecotLauncher
import Foundation

/// `chatmail-bench imap`: IMAP sync against a real Dovecot on 127.0.0.1.
///
/// 1. Initial sync of the corpus: `chatmail sync` into a fresh home against `mbsync` into a fresh Maildir
///    followed by `notmuch new` on it, whole processes, alternating order round after round, after one
///    untimed run of each (which also has Dovecot index the folder). The ratio is taken within each round.
/// 2. Incremental syncs of synthetic mailboxes (1k and 20k messages), with CONDSTORE/QRESYNC and without
///    (Office 365's capability list): a sync with no changes, and one after 20 changes made with doveadm.
/// 3. The peak RSS of the 20k initial syncs, from `wait4`.
struct IMAPBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imap",
        abstract:
            "IMAP sync against a local Dovecot: initial sync against mbsync + notmuch new, incremental syncs at 1k and 20k with and without CONDSTORE, peak RSS."
    )

    @Option(help: "The directory of .eml files (searched recursively) served for the initial-sync comparison.")
    var corpus = "Fixtures/corpus"
    @Option(help: "Rounds of the initial-sync comparison; each times both sides once, in alternating order.")
    var rounds = 3
    @Option(help: "Timed runs of each incremental sync (the median is reported).") var runs = 3
    @Flag(help: "Skip the 20k-message mailboxes (incremental syncs and peak RSS).") var skipLarge = false
    @Flag(help: "Run only the initial-sync comparison.") var skipIncremental = false
    @Option(help: "The mbsync executable, found on PATH when not given.") var mbsync: String?
    @Option(help: "The notmuch executable, found on PATH when not given.") var notmuch: String?

    func validate() throws {
        guard rounds >= 1, runs >= 1 else { throw ValidationError("--rounds and --runs must be at least 1.") }
    }

    func run() throws {
        guard DovecotServer.executableIsInstalled else {
            throw ValidationError("Dovecot is not installed (Debian: apt-get install dovecot-imapd).")
        }
        // Short: Dovecot's sockets live under it, and a socket's path must fit in 108 bytes.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cmb-imap-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup of a scratch dir
        let chatmail = MeasuredProcess(
            executable: try ProcessTimer.siblingExecutable(named: "chatmail"),
            environment: ChatmailIMAPHome.environment(scratch: scratch))
        try initialComparison(chatmail: chatmail, scratch: scratch.appendingPathComponent("initial"))
        guard !skipIncremental else { return }
        let sizes = skipLarge ? [1_000] : [1_000, 20_000]
        var peaks: [(String, Int)] = []
        for size in sizes {
            for capabilities in [DovecotConfiguration.Capabilities.full, .outlookLike] {
                let initial = try incremental(
                    size: size, capabilities: capabilities, chatmail: chatmail,
                    scratch: scratch.appendingPathComponent("\(size)-\(capabilities)"))
                if size == 20_000 { peaks.append((Self.name(capabilities), initial.maxRSSKB)) }
            }
        }
        guard let worst = peaks.map(\.1).max() else { return }
        say(
            "peak RSS of the 20k initial syncs: \(peaks.map { "\($0.0) \(Self.mb($0.1)) MB" }.joined(separator: ", ")) (target <= 200 MB: \(worst <= 200 * 1024 ? "met" : "missed"))"
        )
    }

    // MARK: - Initial sync against mbsync + notmuch new

    private func initialComparison(chatmail: MeasuredProcess, scratch: URL) throws {
        let messages = try Self.corpusMessages(corpus)
        let bytes = messages.reduce(0) { $0 + $1.count }
        let server = try DovecotServer.start(in: scratch.appendingPathComponent("dv"))
        defer { try? server.stop() }  // deinit stops it too; nothing to report after the figures
        try server.fillMaildir(messages, folder: "INBOX", user: ChatmailIMAPHome.user, seen: true)
        let output = scratch.appendingPathComponent("output.txt").path
        let home = ChatmailIMAPHome(
            chatmail: chatmail, home: scratch.appendingPathComponent("home"), port: server.port, outputPath: output)
        let mbsyncTool = mbsync.map { URL(fileURLWithPath: $0) } ?? IngestBenchmark.onPath("mbsync")
        let notmuchTool = notmuch.map { URL(fileURLWithPath: $0) } ?? IngestBenchmark.onPath("notmuch")
        var missing: [String] = []
        if !Self.isExecutable(mbsyncTool) {
            missing.append(
                mbsync.map { "\($0) is not an executable" } ?? "mbsync is not installed (Debian: apt-get install isync)"
            )
        }
        if !Self.isExecutable(notmuchTool) {
            missing.append(
                notmuch.map { "\($0) is not an executable" }
                    ?? "notmuch is not installed (Debian: apt-get install notmuch)")
        }
        var other: MbsyncNotmuchRun?
        if let mbsyncTool, Self.isExecutable(mbsyncTool) {
            let run = MbsyncNotmuchRun(
                mbsync: mbsyncTool, notmuch: Self.isExecutable(notmuchTool) ? notmuchTool : nil, port: server.port,
                scratch: scratch, outputPath: output)
            try run.writeConfigurations(isync15: try MbsyncNotmuchRun.isISync15OrLater(mbsyncTool, outputPath: output))
            other = run
        }
        say(
            "initial sync: \(messages.count) messages (\(String(format: "%.1f", Double(bytes) / 1_048_576)) MB) from \(corpus) in one Dovecot INBOX, \(rounds) rounds, whole processes, fresh stores"
        )
        if !missing.isEmpty {
            say(
                "  \(missing.joined(separator: "; ")): \(other == nil ? "only chatmail's figures follow" : "mbsync's figures stand alone")."
            )
        }

        func chatmailOnce() throws -> MeasuredProcess.Sample {
            try home.loginFresh()
            let (sample, report) = try home.sync()
            guard report.messagesAdded == messages.count else {
                throw ProcessTimer.Failure(
                    description: "chatmail sync stored \(report.messagesAdded) of \(messages.count) messages")
            }
            return sample
        }
        // mbsync skips a message whose header has no blank line after it ("incomplete header"); chatmail
        // stores it. What mbsync skipped is said, and left in the comparison: it only makes mbsync's side
        // lighter. A count that moves between runs would mean a failed run instead.
        var mbsyncCount: Int?
        func otherOnce() throws -> MbsyncNotmuchRun.Sample? {
            guard let sample = try other?.once() else { return nil }
            guard sample.messages > 0, mbsyncCount == nil || mbsyncCount == sample.messages else {
                let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                throw ProcessTimer.Failure(
                    description: "mbsync fetched \(sample.messages) of \(messages.count) messages: \(said.prefix(2000))"
                )
            }
            if mbsyncCount == nil {
                mbsyncCount = sample.messages
                let skipped = (try String(contentsOfFile: output, encoding: .utf8)).split(separator: "\n")
                    .filter { $0.contains("incomplete header") }.count
                say(
                    "  mbsync stores \(sample.messages) of the \(messages.count) messages (it skips \(skipped) whose header has no blank line after it; chatmail stores them all)"
                )
            }
            return sample
        }
        // Untimed: Dovecot indexes the Maildir and fills its cache for what each client asks, and the page
        // cache holds both sides' binaries.
        _ = try chatmailOnce()
        _ = try otherOnce()

        var ours: [MeasuredProcess.Sample] = []
        var theirs: [MbsyncNotmuchRun.Sample] = []
        var ratios: [Double] = []
        for round in 1...rounds {
            let pair: (ours: MeasuredProcess.Sample, theirs: MbsyncNotmuchRun.Sample?)
            if round % 2 == 1 {
                let first = try chatmailOnce()
                pair = (first, try otherOnce())
            } else {
                let first = try otherOnce()
                pair = (try chatmailOnce(), first)
            }
            ours.append(pair.ours)
            var line = "  round \(round): chatmail sync \(pair.ours.text), peak \(Self.mb(pair.ours.maxRSSKB)) MB"
            if let sample = pair.theirs {
                theirs.append(sample)
                line += "; mbsync \(sample.mbsync.text)"
                if let indexed = sample.notmuch {
                    line += " + notmuch new \(indexed.text) = \(String(format: "%.2f", sample.wall)) s"
                    ratios.append(sample.wall / pair.ours.wall)
                    line += "; ratio \(String(format: "%.2f", sample.wall / pair.ours.wall))×"
                }
            }
            say(line)
        }
        let count = Double(messages.count)
        let wall = ours.map(\.wall).median
        say(
            "median: chatmail sync \(String(format: "%.2f", wall)) s = \(Int(count / wall)) msg/s (CPU \(String(format: "%.2f", ours.map(\.cpu).median)) s, peak \(Self.mb(ours.map(\.maxRSSKB).max() ?? 0)) MB)"
        )
        guard !theirs.isEmpty else { return }
        say(
            "median: mbsync \(String(format: "%.2f", theirs.map(\.mbsync.wall).median)) s (CPU \(String(format: "%.2f", theirs.map(\.mbsync.cpu).median)) s)"
        )
        guard !ratios.isEmpty else { return }
        let notmuchRuns = theirs.compactMap(\.notmuch)
        say(
            "median: notmuch new \(String(format: "%.2f", notmuchRuns.map(\.wall).median)) s (CPU \(String(format: "%.2f", notmuchRuns.map(\.cpu).median)) s); mbsync + notmuch new \(String(format: "%.2f", theirs.map(\.wall).median)) s = \(Int(count / theirs.map(\.wall).median)) msg/s"
        )
        let cpuRatios = zip(ours, theirs).compactMap { ours, theirs in
            theirs.notmuch.map { (theirs.mbsync.cpu + $0.cpu) / ours.cpu }
        }
        let ratio = ratios.median
        say(
            "median ratio (mbsync + notmuch new) ÷ chatmail sync: \(String(format: "%.2f", ratio))× wall, \(String(format: "%.2f", cpuRatios.median))× CPU (target >= 2×: \(ratio >= 2 ? "met" : "missed"))"
        )
    }

    /// Every `.eml` file under `corpus`, in path order.
    static func corpusMessages(_ corpus: String) throws -> [[UInt8]] {
        guard let walker = FileManager.default.enumerator(atPath: corpus) else {
            throw ValidationError("cannot read \(corpus)")
        }
        var paths: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.lowercased().hasSuffix(".eml") { paths.append(relative) }
        }
        guard !paths.isEmpty else { throw ValidationError("no .eml files under \(corpus)") }
        return try paths.sorted().map {
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: corpus).appendingPathComponent($0)))
        }
    }

    static func isExecutable(_ url: URL?) -> Bool {
        url.map { FileManager.default.isExecutableFile(atPath: $0.path) } ?? false
    }

    static func mb(_ kilobytes: Int) -> String { String(format: "%.0f", Double(kilobytes) / 1024) }

    static func name(_ capabilities: DovecotConfiguration.Capabilities) -> String {
        switch capabilities {
        case .full: "CONDSTORE+QRESYNC"
        case .outlookLike: "no CONDSTORE"
        }
    }
}
