import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GmailAPI
import TerminalUI

/// `chatmail demo`: the whole product against the local Gmail emulator, in one command.
///
/// Starts `gmail-emulator` as a child process on 127.0.0.1 with the shipped demo mailbox (real messages
/// from the shared corpus), logs in through the real OAuth loopback + PKCE flow (the emulator approves at
/// once; the demo follows the redirect the way a browser would), syncs, and prints `conversations` and
/// one `show`. The emulator is stopped afterwards.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run chatmail end to end against the local Gmail emulator (login, sync, conversations, show).")

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("A directory of .eml files (with labels.json and ME) to serve.", valueName: "dir"))
    var mailbox: String?

    func run() async throws {
        var options = global
        if options.home == nil {
            options.home = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-demo-\(UUID().uuidString)").path
        }
        let env = AppEnvironment(options)
        let mailboxDirectory = try mailbox.map { URL(fileURLWithPath: $0) } ?? Self.defaultMailbox()
        let me = (try? String(contentsOf: mailboxDirectory.appendingPathComponent("ME"), encoding: .utf8))?  // absent: the emulator's default owner
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "me@example.com"

        let emulator = try EmulatorChild(mailbox: mailboxDirectory, me: me)
        defer { emulator.stop() }
        let base = emulator.baseURL.absoluteString
        let settings = GmailSettings(
            apiURL: emulator.baseURL, authorizationURL: URL(string: base + "/o/oauth2/v2/auth")!,
            tokenURL: URL(string: base + "/token")!, clientID: EmulatorChild.clientID, clientSecret: nil)
        FileHandle.standardError.write(Data("Gmail emulator on \(base); chatmail home \(env.home.path)\n".utf8))

        // 1. Log in: the real loopback + PKCE flow.
        let oauth = OAuthConfiguration(
            clientID: EmulatorChild.clientID, authorizationURL: settings.authorizationURL, tokenURL: settings.tokenURL)
        let tokenClient = OAuthTokenClient(configuration: oauth, transport: URLSessionTransport())
        let grant = try await LoginFlow(tokenClient: tokenClient).run(timeoutSeconds: 60) { url in
            Task { await BrowserStandIn.approve(url) }
        }
        guard let refreshToken = grant.refreshToken else { throw CommandError.badInput("the emulator issued no refresh token") }
        let login = try await LoginCompletion.complete(
            grant: grant, refreshToken: refreshToken, tokenClient: tokenClient, settings: settings, environment: env)
        try env.write("$ chatmail login\n\(login.summary)\n\n")

        // 2. Sync.
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let report = try await SyncEngine(store: store, gmail: try GmailSession.client(environment: env, settings: settings))
            .run(account: account)
        try env.write("$ chatmail sync\n\(Sync.summary(report))\n\n")

        // 3. Conversations, and the busiest one with a person.
        let rows = try store.conversations(in: account.id, filter: ConversationFilter(kind: .people, limit: 15))
        try env.write("$ chatmail conversations --people --limit 15\n")
        try env.write(ConversationListRenderer(width: env.width, time: env.time, palette: env.palette, glyphs: env.glyphs).render(rows))
        if let busiest = rows.max(by: { $0.messageCount < $1.messageCount }),
           let transcript = try store.transcript(of: busiest.id, limit: 6) {
            let person = busiest.participants.first?.address ?? busiest.title
            try env.write("\n$ chatmail show \(person) --limit 6\n")
            try env.write(TranscriptRenderer(width: env.width, time: env.time, palette: env.palette, glyphs: env.glyphs).render(transcript))
        }
        try env.write("\nTry more: chatmail --home \(env.home.path) conversations --all\n")
    }

    /// `Fixtures/demo-mailbox` of the source tree this binary was built from.
    static func defaultMailbox() throws -> URL {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("Fixtures/demo-mailbox")
        guard FileManager.default.fileExists(atPath: directory.path) else {
            throw CommandError.badInput("the demo mailbox is not at \(directory.path); pass --mailbox DIR")
        }
        return directory
    }
}

/// The `gmail-emulator` executable built beside `chatmail`, run as a child process.
///
/// The CLI's end-to-end tests start theirs through this type too (the test binary sits beside it).
final class EmulatorChild {
    static let clientID = "emulator-client.apps.googleusercontent.com"
    private let process = Process()
    let baseURL: URL

    /// Serves `mailbox` (a directory in the demo-mailbox layout) for the account `me`.
    convenience init(mailbox: URL, me: String) throws {
        try self.init(serveArguments: ["--mailbox", mailbox.path, "--me", me])
    }

    /// Runs `gmail-emulator serve` with `serveArguments` plus this client id, and reads the base URL
    /// it prints on its first stdout line.
    init(serveArguments: [String]) throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("gmail-emulator")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CommandError.badInput("gmail-emulator is not built beside chatmail (\(executable.path)); run `swift build`")
        }
        process.executableURL = executable
        process.arguments = ["serve"] + serveArguments + ["--client-id", Self.clientID]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line.append(byte) }
        guard let url = URL(string: String(decoding: line, as: UTF8.self)), url.host != nil else {
            process.terminate()
            throw CommandError.badInput("gmail-emulator did not start")
        }
        baseURL = url
    }

    /// SIGTERM for a graceful stop, then SIGKILL after 3 s: a graceful shutdown waits for idle
    /// keep-alive connections, and the demo must never hang on its way out.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Plays the user's browser: opens the consent URL, and follows the emulator's redirect to the loopback
/// address where `LoginFlow` is waiting.
enum BrowserStandIn {
    final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    static func approve(_ url: URL) async {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        guard let (_, response) = try? await session.data(from: url),  // failure: LoginFlow times out and says so
              let location = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Location"),
              let callback = URL(string: location)
        else { return }
        _ = try? await session.data(from: callback)  // the loopback receiver answers; LoginFlow gets the code
    }
}
