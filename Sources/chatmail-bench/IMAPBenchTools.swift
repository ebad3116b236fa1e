import ChatmailSync
import Foundation

/// A chatmail home logged in to the benchmark's Dovecot, and `chatmail sync` run on it as a whole process.
struct ChatmailIMAPHome {
    static let user = "alice@example.org"
    static let password = "secret"

    let chatmail: MeasuredProcess
    let home: URL
    let port: Int
    let outputPath: String

    /// Removes whatever `home` held and logs in afresh (untimed): the next sync is an initial one.
    func loginFresh() throws {
        if FileManager.default.fileExists(atPath: home.path) { try FileManager.default.removeItem(at: home) }
        _ = try chatmail.run(
            [
                "login", "--imap", Self.user, "--host", "127.0.0.1", "--port", String(port), "--security", "none",
                "--password-command", "printf \(Self.password)", "--home", home.path,
            ], outputPath: outputPath)
    }

    /// One `chatmail sync --json`, timed, with the report it printed.
    func sync() throws -> (sample: MeasuredProcess.Sample, report: SyncReport) {
        let sample = try chatmail.run(["sync", "--json", "--home", home.path], outputPath: outputPath)
        let output = try Data(contentsOf: URL(fileURLWithPath: outputPath))
        // Anything logged before the summary (warnings go to the same file) is skipped.
        guard let brace = output.firstIndex(of: UInt8(ascii: "{")) else {
            throw ProcessTimer.Failure(
                description:
                    "chatmail sync printed no JSON report: \(String(decoding: output.prefix(600), as: UTF8.self))")
        }
        let report = try JSONDecoder().decode(SyncReport.self, from: output[brace...])
        return (sample, report)
    }

    /// The environment every chatmail run gets: the config file of this machine's user stays out of it.
    static func environment(scratch: URL) -> [String: String] {
        ProcessInfo.processInfo.environment.merging([
            "XDG_CONFIG_HOME": scratch.appendingPathComponent("xdg-config").path, "NO_COLOR": "1",
        ]) { $1 }
    }
}

/// `mbsync` pulling every folder of the benchmark's Dovecot into a fresh Maildir, then `notmuch new`
/// indexing that Maildir into a fresh database: the usual way to get an IMAP account into a local,
/// searchable store with the standard tools.
struct MbsyncNotmuchRun {
    let mbsync: URL
    /// nil when notmuch is missing: only mbsync is run then.
    let notmuch: URL?
    let port: Int
    let scratch: URL
    let outputPath: String

    var mail: URL { scratch.appendingPathComponent("mbsync-mail") }
    var mbsyncConfig: URL { scratch.appendingPathComponent("mbsyncrc") }
    var notmuchConfig: URL { scratch.appendingPathComponent("notmuch-config") }

    struct Sample {
        var mbsync: MeasuredProcess.Sample
        var notmuch: MeasuredProcess.Sample?
        /// From starting mbsync to notmuch's exit.
        var wall: Double
        /// Messages mbsync wrote (every file under a `cur` or `new` directory).
        var messages: Int
    }

    /// Writes both configurations. isync 1.4 spells the TLS setting `SSLType` (1.5 renamed it `TLSType`).
    func writeConfigurations(isync15: Bool) throws {
        let config = """
            IMAPAccount bench
            Host 127.0.0.1
            Port \(port)
            User \(ChatmailIMAPHome.user)
            Pass \(ChatmailIMAPHome.password)
            \(isync15 ? "TLSType" : "SSLType") None
            AuthMechs LOGIN PLAIN

            IMAPStore bench-far
            Account bench

            MaildirStore bench-near
            Path \(mail.path)/
            Inbox \(mail.path)/INBOX
            SubFolders Verbatim

            Channel bench
            Far :bench-far:
            Near :bench-near:
            Patterns *
            Create Near
            Sync Pull
            SyncState *

            """
        try Data(config.utf8).write(to: mbsyncConfig)
        // What `notmuch setup` writes, with the database inside the mail directory (its default); mbsync's
        // state files are not mail.
        let notmuchText = """
            [database]
            path=\(mail.path)
            [user]
            name=Bench
            primary_email=\(ChatmailIMAPHome.user)
            [new]
            tags=unread;inbox;
            ignore=.mbsyncstate;.mbsyncstate.journal;.mbsyncstate.new;.mbsyncstate.lock;.uidvalidity
            [search]
            exclude_tags=deleted;spam;
            [maildir]
            synchronize_flags=true

            """
        try Data(notmuchText.utf8).write(to: notmuchConfig)
    }

    /// Removes the Maildir (and the database in it), then runs mbsync and notmuch new once.
    func once() throws -> Sample {
        if FileManager.default.fileExists(atPath: mail.path) { try FileManager.default.removeItem(at: mail) }
        try FileManager.default.createDirectory(at: mail, withIntermediateDirectories: true)
        let environment = ProcessInfo.processInfo.environment.merging(["NOTMUCH_CONFIG": notmuchConfig.path]) { $1 }
        let start = ContinuousClock.now
        let pulled = try MeasuredProcess(executable: mbsync, environment: environment).run(
            ["-q", "-c", mbsyncConfig.path, "-a"], outputPath: outputPath)
        let messages = try Self.countMessages(in: mail)
        // Its own output file, so a shortfall can be explained by what mbsync said.
        let indexed = try notmuch.map {
            try MeasuredProcess(executable: $0, environment: environment).run(
                ["new", "--quiet"], outputPath: outputPath + ".notmuch")
        }
        let wall = (ContinuousClock.now - start).seconds
        return Sample(mbsync: pulled, notmuch: indexed, wall: wall, messages: messages)
    }

    /// Whether `mbsync --version` says 1.5 or later, which wants `TLSType`.
    static func isISync15OrLater(_ mbsync: URL, outputPath: String) throws -> Bool {
        _ = try MeasuredProcess(executable: mbsync, environment: ProcessInfo.processInfo.environment).run(
            ["--version"], outputPath: outputPath)
        let text = try String(contentsOfFile: outputPath, encoding: .utf8)
        let version = text.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        let parts = version.split(separator: ".").compactMap { Int($0) }
        guard parts.count >= 2 else { return false }
        return parts[0] > 1 || (parts[0] == 1 && parts[1] >= 5)
    }

    static func countMessages(in directory: URL) throws -> Int {
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return 0 }
        var count = 0
        while let relative = walker.nextObject() as? String {
            let parts = relative.split(separator: "/")
            if parts.count >= 2, ["cur", "new"].contains(parts[parts.count - 2]), !parts.last!.hasPrefix(".") {
                count += 1
            }
        }
        return count
    }
}
