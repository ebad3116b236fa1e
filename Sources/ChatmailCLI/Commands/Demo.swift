import ArgumentParser
import ChatmailStore
import ChatmailSync
import EmulatorLauncher
import Foundation
import GmailAPI
import RecordViews
import TerminalUI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `chatmail demo`: the whole product against the local Gmail emulator, in one command.
///
/// Serves the shipped demo mailbox (real mailing-list messages) through `gmail-emulator` on 127.0.0.1,
/// logs in as one of the people on that list through the real OAuth loopback + PKCE flow (the emulator
/// approves at once; the demo follows the redirect the way a browser would), syncs, and prints
/// `conversations` and one `show`.
///
/// The demo keeps one home, so a second run syncs incrementally and every command tried afterwards
/// works on the same mailbox (see ``DemoHome``). Its output is the same on every machine at the same
/// width and time zone, which is what lets the README show it verbatim.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run chatmail end to end against the local Gmail emulator (login, sync, conversations, show).",
        discussion: """
            The demo's home is --home, else $CHATMAIL_HOME, else `demo` inside the data directory \
            ($XDG_DATA_HOME/chatmail/demo, else ~/.local/share/chatmail/demo). Later runs reuse it, and \
            every other command works there too: commands that talk to Gmail start the emulator themselves.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("A directory of .eml files (with labels.json and ME) to serve.", valueName: "dir"))
    var mailbox: String?

    /// The conversations listed, and the messages of the one shown.
    static let listLimit = 8
    static let showLimit = 4

    func run() async throws {
        let processEnvironment = ProcessInfo.processInfo.environment
        var options = global
        let usesDefaultHome = options.home == nil && (processEnvironment["CHATMAIL_HOME"] ?? "").isEmpty
        if usesDefaultHome { options.home = DemoHome.defaultLocation(environment: processEnvironment).path }
        let env = AppEnvironment(options)
        let (demo, reused) = try prepareHome(env)
        if reused {
            env.note(
                "Reusing the demo home \(Self.displayPath(env.home, environment: processEnvironment)); remove it to start afresh."
            )
        }

        let emulator = try demo.startEmulator(home: env.home)
        defer { emulator.stop() }
        let settings = DemoHome.settings(for: emulator)

        // 1. Log in, the first time: the real loopback + PKCE flow.
        if try CredentialStore(directory: env.home).load() == nil {
            let oauth = OAuthConfiguration(
                clientID: EmulatorChild.clientID, authorizationURL: settings.authorizationURL,
                tokenURL: settings.tokenURL)
            let tokenClient = OAuthTokenClient(configuration: oauth, transport: URLSessionTransport())
            let grant = try await LoginFlow(tokenClient: tokenClient).run(timeoutSeconds: 60) { url in
                Task { await BrowserStandIn.approve(url) }
            }
            guard let refreshToken = grant.refreshToken else {
                throw DemoError.emulatorFailed(reason: "it issued no refresh token")
            }
            let login = try await LoginCompletion.complete(
                grant: grant, refreshToken: refreshToken, tokenClient: tokenClient, settings: settings, environment: env
            )
            try env.write("$ chatmail login\n\(login.summary)\n\n")
        }

        // 2. Sync: initial the first time, incremental afterwards.
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let report = try await SyncEngine(
            store: store, gmail: try GmailSession.client(environment: env, settings: settings)
        )
        .run(account: account)
        try env.write("$ chatmail sync\n\(Sync.summary(report, timed: false))\n\n")

        // 3. The conversation list, and the liveliest conversation this account has written in.
        let list = try store.conversationList(in: account.id, filter: ConversationFilter(limit: Self.listLimit))
        try env.write("$ chatmail conversations --limit \(Self.listLimit)\n")
        try env.write(
            ConversationListRenderer(width: env.width, time: env.time, palette: env.palette, glyphs: env.glyphs).render(
                list))
        if let chat = try Self.liveliestChat(store, account: account),
            let transcript = try store.transcript(of: chat.conversation.id, limit: Self.showLimit)
        {
            try env.write("\n$ chatmail show \(chat.person) --limit \(Self.showLimit)\n")
            try env.write(
                TranscriptRenderer(width: env.width, time: env.time, palette: env.palette, glyphs: env.glyphs).render(
                    transcript))
        }
        let home =
            usesDefaultHome
            ? "export CHATMAIL_HOME=\(Self.displayPath(env.home, environment: processEnvironment))\n" : ""
        try env.write(
            """

            Try more (the demo's mailbox stays in its home; commands that need Gmail start the emulator):
            \(home)chatmail conversations --all
            chatmail show paul
            chatmail archive paul && chatmail sync
            chatmail status

            """)
    }

    /// The home's demo, creating the home on the first run; `reused` is true when an earlier run made it.
    private func prepareHome(_ env: AppEnvironment) throws -> (demo: DemoHome, reused: Bool) {
        if let existing = try DemoHome.existing(at: env.home) {
            if let mailbox, URL(fileURLWithPath: mailbox).standardizedFileURL.path != existing.mailbox {
                throw ValidationError(
                    "This demo home serves \(existing.mailboxDescription); remove it, or choose another --home, to serve \(mailbox)."
                )
            }
            return (existing, true)
        }
        let manager = FileManager.default
        if manager.fileExists(atPath: env.databasePath)
            || manager.fileExists(atPath: CredentialStore(directory: env.home).fileURL.path)
        {
            throw DemoError.homeHoldsAccount(path: env.home.path)
        }
        // An explicit --mailbox is stored as its path; the shipped one by name, and found on each run.
        let demo: DemoHome
        if let mailbox {
            let directory = URL(fileURLWithPath: mailbox).standardizedFileURL
            demo = DemoHome(mailbox: directory.path, me: try Self.owner(of: directory))
        } else {
            demo = DemoHome(mailbox: DemoHome.builtinMailbox, me: try Self.owner(of: try DemoHome.shippedMailbox()))
        }
        do {
            try manager.createDirectory(
                at: env.home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CommandError.outputFailed(
                "cannot create the demo home \(env.home.path) (\(error.localizedDescription))")
        }
        try demo.mark(env.home)
        return (demo, false)
    }

    /// The address in the mailbox's `ME` file, or the emulator's default owner without one.
    static func owner(of mailbox: URL) throws -> String {
        let file = mailbox.appendingPathComponent("ME")
        guard FileManager.default.fileExists(atPath: file.path) else { return "me@example.com" }
        return try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The conversation with the most messages among those where this account wrote and others did too
    /// (on the shipped mailbox, a mailing list), and the address to show it by: a list's posting address
    /// (or its id), else the first participant's address.
    static func liveliestChat(_ store: ChatmailStore, account: Account) throws -> (
        conversation: ConversationSummary, person: String
    )? {
        let people = try store.conversations(
            in: account.id, filter: ConversationFilter(visibility: .all, kind: .people))
        let chats = try people.compactMap { conversation -> (ConversationSummary, Int)? in
            guard let transcript = try store.transcript(of: conversation.id, limit: 1_000) else { return nil }
            let mine = transcript.messages.filter(\.isFromMe).count
            return mine > 0 && mine < transcript.messages.count ? (conversation, transcript.messages.count) : nil
        }
        guard let best = chats.max(by: { $0.1 < $1.1 }),
            let person = best.0.list.map({ $0.postAddress ?? $0.id }) ?? best.0.participants.first?.address
        else {
            return nil
        }
        return (best.0, person)
    }

    /// `path` with the user's home directory written `~`, as a person would type it.
    static func displayPath(_ path: URL, environment: [String: String]) -> String {
        guard let home = environment["HOME"], !home.isEmpty, path.path.hasPrefix(home + "/") else { return path.path }
        return "~" + path.path.dropFirst(home.count)
    }
}
