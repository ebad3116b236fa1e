import ArgumentParser
import ChatmailApp
import ChatmailAppRuntime
import ChatmailStore
import ChatmailSync
import Foundation
import GmailAPI
import TerminalKit

/// `chatmail app` (and `chatmail` alone on a terminal): the interactive app.
struct App: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open the interactive app: conversations and chats in one screen, kept up to date.",
        discussion: """
            Conversations on the left, the open chat on the right (one pane at a time below 100 columns), \
            and a status line. Press ? for the keys: j/k move, Enter opens, / searches, e archives, r \
            replies, f changes the filter (the screener's filter shows how many it holds), C shows the \
            one-time codes of the last day, p shows the queue, S syncs, q quits. A sync runs every \
            --sync-every seconds and after each action; the screen never waits for the network. Mail \
            imported with no login is a local mailbox: it is never synced, and the status line says so.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: ArgumentHelp("Seconds between background syncs.", valueName: "seconds")) var syncEvery = 60

    func validate() throws {
        if syncEvery < 5 { throw ValidationError("--sync-every must be at least 5 seconds.") }
    }

    func run() async throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CommandError.needsTerminal
        }
        let env = makeEnvironment()
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        // Decided here, once, so the reducer can leave a mailbox with no login alone: imported mail is a
        // normal state, and a sync attempted only to fail would be reported as an error on every tick.
        let origin: MailboxOrigin =
            account.provider == .imap || GmailSession.hasSavedLogin(env) ? .synced : .local
        // One connection for the whole session (a demo home starts its emulator once). A login that cannot
        // be used (revoked, unreadable, a demo emulator that will not start) still opens the app: reading
        // and local actions need no network, and the status line says why syncs fail.
        let connection: Result<GmailConnection, any Error> =
            switch (origin, account.provider) {
            case (.synced, .gmail): Result { try GmailConnection.open(env) }
            case (.synced, .imap), (.local, _): .failure(StoreError.noAccount)
            }
        defer { if case .success(let open) = connection { open.close() } }
        let client: Result<GmailClient, any Error> = connection.map(\.client)
        var imapEngine: (@Sendable () throws -> SyncEngine)?
        var imapPusher: (@Sendable () throws -> IMAPActionPusher)?
        var serverChanges: (@Sendable () -> AsyncStream<Void>)?
        if account.provider == .imap {
            // A link that cannot be built (settings gone) leaves reading and local actions working; each
            // sync and send reports why it cannot run.
            let link = Result { try IMAPSession.link(for: account, in: store, env: env) }
            let clock = env.clock
            let pusher: @Sendable () throws -> IMAPActionPusher = {
                IMAPActionPusher(store: store, link: try link.get(), clock: clock)
            }
            imapPusher = pusher
            imapEngine = { SyncEngine(store: store, imap: try link.get().imap, pusher: try pusher()) }
            if case .success(let link) = link {
                serverChanges = { IMAPIdleWatcher(connector: link.imap).changes() }
            }
        }
        let effects = AppEffects(
            store: store, account: account, gmail: { try client.get() }, syncEngine: imapEngine, clock: env.clock,
            timeZone: .current, imapPusher: imapPusher, serverChanges: serverChanges)
        let glyphs = env.glyphs
        let state = AppState(
            account: account.email, origin: origin, size: TerminalSize(columns: 80, rows: 24), glyphs: glyphs,
            timeZone: .current, nowMs: env.clock(), syncIntervalMs: Int64(syncEvery) * 1000)
        let environment = env.environment
        let runtime = AppRuntime(
            terminal: RawTerminal(), effects: effects, palette: env.palette, glyphs: glyphs,
            editText: { text in
                // The editor's failure leaves the draft as it was.
                try? MessageTextInput.edit(environment: environment, help: [], initialText: text)
            })
        try await runtime.run(state)
    }
}
