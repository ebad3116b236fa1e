import ArgumentParser
import ChatmailStore
import ChatmailSync
import DovecotLauncher
import Foundation
import IMAPClient
import MailText

/// `chatmail-bench imap-send`: how long `chatmail reply` takes on an IMAP account from start to exit
/// (SMTP submission and the Sent copy included), against `chatmail --help` in the same run; and how soon
/// IDLE tells chatmail about a message another client APPENDs, and the sync that stores it ends.
///
/// Dovecot (Debian's dovecot-imapd) holds the mailbox; Debian's aiosmtpd accepts the mail (its `Sink`
/// handler, which discards it) on loopback.
struct IMAPSendBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imap-send",
        abstract: "Time `chatmail reply` on an IMAP account (SMTP + Sent copy) and IDLE's new-mail latency.")

    @Option(help: "Synthetic messages in the mailbox.") var messages = 300
    @Option(help: "Timed replies (and --help runs).") var runs = 11
    @Option(help: "Timed IDLE deliveries.") var deliveries = 9
    @Flag(help: "Dovecot with login and IMAP processes started ahead (its high-performance mode).")
    var prestarted = false

    func run() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-bench-imap-send-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup of a scratch dir
        var configuration = DovecotConfiguration()
        configuration.prestartsProcesses = prestarted
        let server = try DovecotServer.start(in: scratch.appendingPathComponent("dv"), configuration: configuration)
        defer { try? server.stop() }  // nothing to report after the figures
        let mail = (0..<messages).map { number in
            Array(
                IMAPBenchMessage.make(
                    id: "bench\(number)", from: "Sender \(number % 12) <sender\(number % 12)@example.net>",
                    body: "Message number \(number).\r\n"
                ).utf8)
        }
        try server.fillMaildir(mail, folder: "INBOX", user: ChatmailIMAPHome.user, seen: true)
        let smtp = try SinkSMTPServer.start()
        defer { smtp.stop() }
        try timeReplies(server: server, smtpPort: smtp.port, scratch: scratch)
        try await timeIdle(server: server, scratch: scratch)
    }

    /// `--help`, a reply that files its Sent copy and one that leaves it to the server, alternating.
    private func timeReplies(server: DovecotServer, smtpPort: Int, scratch: URL) throws {
        let chatmail = MeasuredProcess(
            executable: try ProcessTimer.siblingExecutable(named: "chatmail"),
            environment: ChatmailIMAPHome.environment(scratch: scratch))
        let output = scratch.appendingPathComponent("output.txt").path
        func run(_ arguments: [String], home: String) throws -> Double {
            try chatmail.run(arguments + ["--home", home], outputPath: output).wall
        }
        let policies = ["always", "never"]
        let homes = policies.map { scratch.appendingPathComponent("home-\($0)").path }
        for (policy, home) in zip(policies, homes) {
            _ = try run(
                [
                    "login", "--imap", ChatmailIMAPHome.user, "--host", "127.0.0.1", "--port", String(server.port),
                    "--security", "none", "--password-command", "printf \(ChatmailIMAPHome.password)", "--smtp-host",
                    "127.0.0.1", "--smtp-port", String(smtpPort), "--smtp-security", "none", "--sent-copy", policy,
                ], home: home)
            _ = try run(["sync"], home: home)
        }
        var replies: [[Double]] = [[], []]
        var helps: [Double] = []
        for index in 0..<runs {
            helps.append(try run(["--help"], home: homes[0]))
            for variant in 0..<2 {
                replies[variant].append(
                    try run(["reply", "sender3@example.net", "-m", "Benchmark reply \(index)."], home: homes[variant]))
                let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""  // only read to check it sent
                guard said.hasPrefix("Sent to") else {
                    throw ProcessTimer.Failure(description: "chatmail reply did not send: \(said)")
                }
            }
        }
        let help = helps.median
        for (variant, label) in ["with the Sent copy filed by chatmail", "without a Sent copy (sent_copy never)"]
            .enumerated()
        {
            let times = replies[variant]
            say(
                String(
                    format:
                        "reply on IMAP over SMTP, %@, whole process: median %.1f ms of %d (min %.1f, max %.1f); --help %.1f ms; ratio %.2f (target <= 2.5)",
                    label, times.median * 1000, runs, (times.min() ?? 0) * 1000, (times.max() ?? 0) * 1000,
                    help * 1000, times.median / help))
        }
    }

    /// From an APPEND by another client to IDLE's report, and to the end of the sync that stores it.
    private func timeIdle(server: DovecotServer, scratch: URL) async throws {
        let connector = IMAPConnector(
            endpoint: IMAPEndpoint(host: "127.0.0.1", port: server.port, security: .none),
            authentication: { .password(user: ChatmailIMAPHome.user, password: ChatmailIMAPHome.password) })
        let store = try ChatmailStore(
            path: scratch.appendingPathComponent("idle.sqlite").path, subjectBase: ReplySubject.topicBase)
        _ = try await store.write { tx in
            try tx.saveIMAPAccount(
                email: ChatmailIMAPHome.user,
                settings: IMAPAccountSettings(
                    host: "127.0.0.1", port: server.port, security: .none, login: ChatmailIMAPHome.user,
                    smtpHost: "127.0.0.1", smtpPort: 25, smtpSecurity: .none),
                aliases: [])
        }
        let account = try store.account(.email(ChatmailIMAPHome.user))
        let engine = SyncEngine(store: store, imap: connector, pusher: QueueHoldingPusher())
        _ = try await engine.run(account: account)
        var changes = IMAPIdleWatcher(connector: connector).changes().makeAsyncIterator()
        guard await changes.next() != nil else {  // the first report: the watcher is listening
            throw ProcessTimer.Failure(description: "the IDLE watcher ended before it listened")
        }
        say("IDLE: the watcher listens; timing \(deliveries) deliveries")
        _ = try await engine.run(account: account)
        let other = try await connector.connect()
        var heard: [Double] = []
        var stored: [Double] = []
        for index in 0..<deliveries {
            let message = IMAPBenchMessage.make(
                id: "idle\(index)", from: "Carol <carol@example.com>", body: "Arrived while idling.\r\n")
            let start = ContinuousClock.now
            _ = try await other.append(Array(message.utf8), to: "INBOX", flags: [])
            guard await changes.next() != nil else {
                throw ProcessTimer.Failure(description: "the IDLE watcher stopped")
            }
            heard.append((ContinuousClock.now - start).seconds)
            let report = try await engine.run(account: account)
            stored.append((ContinuousClock.now - start).seconds)
            guard report.messagesAdded >= 1 else {
                throw ProcessTimer.Failure(description: "the sync after IDLE's report stored nothing")
            }
        }
        await other.logout()
        say(
            String(
                format:
                    "IDLE: APPEND by another client to chatmail's report: median %.1f ms of %d (max %.1f); to the end of the sync that stores it: median %.1f ms (max %.1f)",
                heard.median * 1000, deliveries, (heard.max() ?? 0) * 1000, stored.median * 1000,
                (stored.max() ?? 0) * 1000))
    }
}

/// A minimal message for the benchmark's mailbox.
enum IMAPBenchMessage {
    static func make(id: String, from: String, body: String) -> String {
        "From: \(from)\r\nTo: \(ChatmailIMAPHome.user)\r\nSubject: Benchmark \(id)\r\n"
            + "Date: Mon, 2 Mar 2026 10:00:00 +0000\r\nMessage-ID: <\(id)@example.net>\r\n\r\n\(body)"
    }
}

/// Debian's aiosmtpd with its `Sink` handler (accepts every message and discards it) on a free loopback port,
/// its host name given so that it does not look its own name up for every connection.
final class SinkSMTPServer {
    let port: Int
    private let process: Process

    private init(port: Int, process: Process) {
        self.port = port
        self.process = process
    }

    static func start() throws -> SinkSMTPServer {
        let script = """
            import asyncio
            from aiosmtpd.smtp import SMTP
            from aiosmtpd.handlers import Sink
            async def main():
                loop = asyncio.get_running_loop()
                server = await loop.create_server(lambda: SMTP(Sink(), hostname="localhost"), "127.0.0.1", 0)
                print(server.sockets[0].getsockname()[1], flush=True)
                await asyncio.Event().wait()
            asyncio.run(main())
            """
        let process = Process()
        // Debian's Python, which has Debian's aiosmtpd (a python3 earlier on PATH may not).
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw ProcessTimer.Failure(
                description: "aiosmtpd did not start (Debian: apt-get install python3-aiosmtpd)")
        }
        return SinkSMTPServer(port: port, process: process)
    }

    /// SIGKILL: the child may have inherited this process's blocked signals, SIGTERM among them.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
