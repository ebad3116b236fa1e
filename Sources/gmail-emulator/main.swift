import ArgumentParser
import Foundation
import GmailEmulator

/// `gmail-emulator`: the local Gmail API + OAuth emulator.
@main
struct GmailEmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gmail-emulator", abstract: "A local Gmail REST API and Google OAuth emulator.",
        subcommands: [Serve.self], defaultSubcommand: Serve.self)
}

/// `serve`: prints the base URL on the first stdout line, then serves until SIGINT/SIGTERM.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve a mailbox on 127.0.0.1.")

    @Option(help: "A directory of .eml files (optional labels.json) or an mbox file.") var mailbox: String?
    @Option(help: "Generate this many deterministic synthetic messages instead.") var synthetic: Int?
    @Option(help: "Seed for ids, history gaps, faults and synthetic mail.") var seed: UInt64 = 1
    @Option(help: "Address to bind.") var host = "127.0.0.1"
    @Option(help: "Port to bind (0 = any free port).") var port = 0
    @Option(help: "The account's address.") var me = "me@example.com"
    @Option(help: "Enforce quota at this many units per second.") var quota: Double?
    @Option(help: "History records retained; older startHistoryId values get 404.") var historyRetention: Int?
    @Option(help: "Access-token lifetime in seconds.") var tokenLifetime = 3600
    @Option(help: "The accepted OAuth client id.") var clientId = "emulator-client.apps.googleusercontent.com"
    @Option(help: "A static access token accepted without OAuth.") var accessToken = "emu-static-token"
    @Option(
        help: ArgumentHelp(
            "Keep changes and logins in this file, and replay it on start (same mailbox and seed).", valueName: "file"))
    var journal: String?
    @Flag(help: "Stop when standard input reaches its end: a parent holding the other end of a pipe keeps it alive.")
    var exitWhenStdinCloses = false

    func validate() throws {
        if mailbox != nil && synthetic != nil {
            throw ValidationError("Please pass either --mailbox or --synthetic, not both.")
        }
    }

    func run() async throws {
        var configuration = EmulatorConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.account = me
        configuration.seed = seed
        configuration.quotaUnitsPerSecond = quota
        configuration.historyRetention = historyRetention
        configuration.oauth = .init(clientId: clientId, tokenLifetime: tokenLifetime, staticAccessTokens: [accessToken])
        configuration.journalPath = journal
        if let mailbox {
            configuration.mailbox = .path(mailbox)
        } else if let synthetic {
            configuration.mailbox = .synthetic(count: synthetic)
        }
        let running = try await EmulatorServer.start(configuration)
        // Unbuffered write: scripts read the first line to learn the port.
        FileHandle.standardOutput.write(Data((running.baseURL + "\n").utf8))
        // A graceful shutdown waits for clients' idle keep-alive connections, which may never close; the
        // process must still end, so it exits after 2 s regardless.
        let stop: @Sendable () -> Void = {
            Task { await running.shutdown() }
            DispatchQueue.global().asyncAfter(deadline: .now() + 2) { Foundation.exit(0) }
        }
        let signals = [SIGINT, SIGTERM].map { (signalNumber: Int32) -> any DispatchSourceSignal in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber)
            source.setEventHandler(handler: stop)
            source.resume()
            return source
        }
        if exitWhenStdinCloses {
            // The parent's end of the pipe closes however the parent ends, SIGKILL included, so a child
            // never outlives the program that started it.
            Thread.detachNewThread {
                var buffer = [UInt8](repeating: 0, count: 256)
                while true {
                    let count = read(STDIN_FILENO, &buffer, buffer.count)
                    if count > 0 || (count < 0 && errno == EINTR) { continue }
                    break  // end of file, or an error that means the same: nobody is there any more
                }
                stop()
            }
        }
        try await running.waitUntilStopped()
        _ = signals
    }
}
