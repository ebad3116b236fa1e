import ArgumentParser
import Foundation

/// `chatmail-bench ingest`: `chatmail import` against `notmuch new` on the same messages.
///
/// Both tools read one scratch copy of the corpus's `.eml` files, as whole processes, in alternating order
/// round after round, each into a fresh store (a new chatmail home; notmuch's database removed). Rates are
/// messages offered per wall second; the ratio is taken within each round and its median reported, since
/// the machine's load moves both tools together. CPU time (user + system) is printed beside wall time.
struct IngestBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest", abstract: "Time `chatmail import` against `notmuch new` on the same messages.")

    @Option(help: "The directory of .eml files (searched recursively).") var corpus = "Fixtures/corpus"
    @Option(help: "Rounds; each times both tools once, in alternating order.") var rounds = 5
    @Option(help: "The notmuch executable, found on PATH when not given.") var notmuch: String?

    func run() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-bench-ingest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup of a scratch dir
        let mail = scratch.appendingPathComponent("mail")
        let count = try copyMessages(to: mail)
        let chatmail = try ProcessTimer.siblingExecutable(named: "chatmail")
        let notmuchTool = notmuch.map { URL(fileURLWithPath: $0) } ?? Self.onPath("notmuch")
        print("ingest: \(count) messages from \(corpus), \(rounds) rounds, whole processes, fresh stores")
        let notmuchRun: NotmuchRun?
        if let notmuchTool, FileManager.default.isExecutableFile(atPath: notmuchTool.path) {
            notmuchRun = try NotmuchRun(executable: notmuchTool, mail: mail, scratch: scratch)
        } else {
            notmuchRun = nil
            let missing = notmuch.map { "\($0) is not an executable" } ?? "notmuch is not installed"
            print("\(missing) (Debian: apt-get install notmuch): only chatmail's figures follow.")
        }
        let output = scratch.appendingPathComponent("output.txt").path
        func importOnce(_ round: Int) throws -> (wall: Double, cpu: Double) {
            let home = scratch.appendingPathComponent("home-\(round)")
            defer { try? FileManager.default.removeItem(at: home) }  // best-effort cleanup of a scratch home
            return try CPUTimer.once(
                chatmail, arguments: ["import", mail.path, "--me", "bench@example.org", "--home", home.path],
                environment: [:], outputPath: output)
        }
        // Untimed warm-up: the page cache holds the files and both binaries before the first timed round.
        _ = try importOnce(0)
        _ = try notmuchRun?.once(outputPath: output)
        var ours: [(wall: Double, cpu: Double)] = []
        var theirs: [(wall: Double, cpu: Double)] = []
        var ratios: [Double] = []
        for round in 1...max(1, rounds) {
            var pair: (ours: (wall: Double, cpu: Double), theirs: (wall: Double, cpu: Double)?)
            if round % 2 == 1 {
                pair.ours = try importOnce(round)
                pair.theirs = try notmuchRun?.once(outputPath: output)
            } else {
                pair.theirs = try notmuchRun?.once(outputPath: output)
                pair.ours = try importOnce(round)
            }
            ours.append(pair.ours)
            var line = "  round \(round): chatmail \(rate(count, pair.ours))"
            if let other = pair.theirs {
                theirs.append(other)
                ratios.append(other.wall / pair.ours.wall)
                line += "; notmuch \(rate(count, other)); ratio \(String(format: "%.2f", other.wall / pair.ours.wall))×"
            }
            print(line)
        }
        let medianWall = ours.map(\.wall).median
        print(
            "median: chatmail import \(Int(Double(count) / medianWall)) msg/s (CPU \(String(format: "%.2f", ours.map(\.cpu).median)) s)"
        )
        guard !theirs.isEmpty else { return }
        print(
            "median: notmuch new \(Int(Double(count) / theirs.map(\.wall).median)) msg/s (CPU \(String(format: "%.2f", theirs.map(\.cpu).median)) s)"
        )
        let cpuRatios = zip(ours, theirs).map { $1.cpu / $0.cpu }
        print(
            "median ratio chatmail/notmuch: \(String(format: "%.2f", ratios.median))× wall, \(String(format: "%.2f", cpuRatios.median))× CPU"
        )
    }

    /// Copies every `.eml` file under the corpus into `mail`, keeping relative paths; returns how many.
    func copyMessages(to mail: URL) throws -> Int {
        guard let walker = FileManager.default.enumerator(atPath: corpus) else {
            throw ValidationError("cannot read \(corpus)")
        }
        var count = 0
        while let relative = walker.nextObject() as? String {
            guard relative.lowercased().hasSuffix(".eml") else { continue }
            let target = mail.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: URL(fileURLWithPath: corpus).appendingPathComponent(relative), to: target)
            count += 1
        }
        guard count > 0 else { throw ValidationError("no .eml files under \(corpus)") }
        return count
    }

    func rate(_ count: Int, _ sample: (wall: Double, cpu: Double)) -> String {
        "\(Int(Double(count) / sample.wall)) msg/s (\(String(format: "%.2f", sample.wall)) s, CPU \(String(format: "%.2f", sample.cpu)) s)"
    }

    /// The first executable named `name` on PATH.
    static func onPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

/// `notmuch new` over a mail directory, with its own configuration, into a fresh database each time.
struct NotmuchRun {
    let executable: URL
    let mail: URL
    let config: URL

    init(executable: URL, mail: URL, scratch: URL) throws {
        self.executable = executable
        self.mail = mail
        config = scratch.appendingPathComponent("notmuch-config")
        // What `notmuch setup` writes, with the database inside the mail directory (its default).
        let text = """
            [database]
            path=\(mail.path)
            [user]
            name=Bench
            primary_email=bench@example.org
            [new]
            tags=unread;inbox;
            ignore=
            [search]
            exclude_tags=deleted;spam;
            [maildir]
            synchronize_flags=true

            """
        try Data(text.utf8).write(to: config)
    }

    func once(outputPath: String) throws -> (wall: Double, cpu: Double) {
        let database = mail.appendingPathComponent(".notmuch")
        if FileManager.default.fileExists(atPath: database.path) {
            try FileManager.default.removeItem(at: database)
        }
        return try CPUTimer.once(
            executable, arguments: ["new", "--quiet"], environment: ["NOTMUCH_CONFIG": config.path],
            outputPath: outputPath)
    }
}
