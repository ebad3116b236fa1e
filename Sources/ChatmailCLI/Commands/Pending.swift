import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation
import JSONOutput
import Logging
import RecordViews
import TerminalUI

/// `chatmail pending`: the queue of local actions on their way to Gmail.
struct Pending: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The queue of actions waiting to reach the server: list, run, retry, dismiss.",
        subcommands: [List.self, Run.self, Retry.self, Dismiss.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List queued, failed and abandoned actions.")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Include completed actions (kept for a week).") var all = false
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let env = makeEnvironment()
            let store = try env.openExistingStore()
            let account = try env.selectedAccount(in: store)
            let actions = try store.pendingActions(of: account.id, includeCompleted: all)
            try output(env) {
                try JSONRenderer(time: env.time).render(actions)
            } text: {
                PendingActionRenderer(width: env.width, time: env.time, palette: env.palette).render(actions)
            }
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send due actions to the server now (`chatmail sync` also does, before it pulls).")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "Print what was sent as JSON.") var json = false

        func run() async throws {
            let env = makeEnvironment()
            let store = try env.openExistingStore()
            let account = try env.selectedAccount(in: store)
            if account.provider == .imap {
                return try await runIMAP(account, store: store, env: env)
            }
            let connection = try GmailConnection.open(env)
            defer { connection.close() }
            let sender = PendingActionSender(store: store, gmail: connection.client, clock: env.clock)
            let summary = try await sender.run(account: account.id)
            if json {
                let document = PendingRunJSON(
                    sent: summary.sent, failed: summary.failed, abandoned: summary.abandoned,
                    waiting: summary.waiting, rechecked: summary.rechecked,
                    error: summary.unreachable.map { JSONError($0) })
                try env.write(try JSONRenderer(time: env.time).encode(document))
                if let unreachable = summary.unreachable { throw ErrorReportedInJSON(error: unreachable) }
                return
            }
            try env.write(Self.describe(summary) + "\n")
            // The actions wait safely, but "send now" did not happen: exit 1, with the network's reason.
            if let unreachable = summary.unreachable { throw unreachable }
        }

        /// The same run for an IMAP account: IMAP commands for label changes, SMTP for messages.
        func runIMAP(_ account: Account, store: ChatmailStore, env: AppEnvironment) async throws {
            let pusher = try IMAPSession.pusher(
                for: account, in: store, env: env, crashes: try Sync.crashPoints(env.environment))
            let summary = try await pusher.run(account: account.id)
            let unreachable = summary.unreachable.map(ServerUnreachable.init(reason:))
            if json {
                let document = PendingRunJSON(
                    sent: summary.sent, failed: summary.failed, abandoned: summary.abandoned + summary.unknown,
                    waiting: summary.waiting, rechecked: 0, error: unreachable.map { JSONError($0) })
                try env.write(try JSONRenderer(time: env.time).encode(document))
                if let unreachable { throw ErrorReportedInJSON(error: unreachable) }
                return
            }
            var parts = ["sent \(summary.sent)"]
            if summary.failed > 0 { parts.append("\(summary.failed) failed (retried later)") }
            if summary.abandoned > 0 { parts.append("\(summary.abandoned) abandoned (see `chatmail pending`)") }
            if summary.unknown > 0 {
                parts.append("\(summary.unknown) with an unknown outcome (see `chatmail pending`)")
            }
            if summary.waiting > 0 {
                parts.append(
                    "\(summary.waiting) " + (unreachable == nil ? "not due yet" : "not tried (server unreachable)"))
            }
            try env.write("Actions: " + parts.joined(separator: ", ") + ".\n")
            if let unreachable { throw unreachable }
        }

        static func describe(_ summary: PendingActionSender.Summary) -> String {
            var parts = ["sent \(summary.sent)"]
            if summary.failed > 0 { parts.append("\(summary.failed) failed (retried later)") }
            if summary.abandoned > 0 { parts.append("\(summary.abandoned) abandoned (see `chatmail pending`)") }
            if summary.waiting > 0 {
                parts.append(
                    "\(summary.waiting) "
                        + (summary.unreachable == nil ? "not due yet" : "not tried (Gmail unreachable)"))
            }
            if summary.rechecked > 0 { parts.append("labels of \(summary.rechecked) messages re-read from Gmail") }
            return "Actions: " + parts.joined(separator: ", ") + "."
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put failed or abandoned actions back in the queue, due now, and apply them locally again.")

        @OptionGroup var selection: ActionSelectionOptions

        func run() async throws {
            let env = AppEnvironment(selection.global)
            let store = try env.openExistingStore()
            let account = try env.selectedAccount(in: store)
            let actions = try await ActionQueue(store: store).retry(try selection.selection(), account: account.id)
            let ids = actions.map { "#\($0.id.rawValue)" }.joined(separator: ", ")
            try env.write(
                actions.isEmpty
                    ? "No failed or abandoned actions to retry.\n"
                    : "Requeued \(ids); they are sent on the next `chatmail sync` or `chatmail pending run`.\n")
        }
    }

    struct Dismiss: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Drop failed or abandoned actions and give their messages the server's labels again.")

        @OptionGroup var selection: ActionSelectionOptions

        func run() async throws {
            let env = AppEnvironment(selection.global)
            let store = try env.openExistingStore()
            let account = try env.selectedAccount(in: store)
            let actions = try await ActionQueue(store: store).dismiss(try selection.selection(), account: account.id)
            guard !actions.isEmpty else {
                try env.write("No failed or abandoned actions to dismiss.\n")
                return
            }
            let ids = actions.map { "#\($0.id.rawValue)" }.joined(separator: ", ")
            // Restoring needs Gmail; offline (or logged out), the next sync does it: the ids are queued.
            // Re-reading labels takes the sync lock; when a sync holds it, the ids stay queued for the
            // next run.
            if account.provider == .imap {
                // The server's labels are the copies' folders and flags as the last sync saw them.
                let count = try await IMAPSession.pusher(for: account, in: store, env: env)
                    .restoreLabels(account: account.id)
                try env.write(
                    "Dismissed \(ids). The server's labels restored on \(count == 1 ? "1 message" : "\(count) messages").\n"
                )
                return
            }
            var restored = "Gmail's labels are restored on the next `chatmail sync`."
            do {
                let connection = try GmailConnection.open(env)
                defer { connection.close() }
                let sender = PendingActionSender(store: store, gmail: connection.client, clock: env.clock)
                let count = try await sender.recheckLabels(account: account.id)
                if try store.labelRecheckCount(of: account.id) == 0 {
                    restored = "Gmail's labels restored on \(count == 1 ? "1 message" : "\(count) messages")."
                }
            } catch {
                // Nothing is lost: the ids stay in label_recheck until a run can re-read them.
                env.logger.info("could not re-read labels now", metadata: ["error": "\(error)"])
            }
            try env.write("Dismissed \(ids). \(restored)\n")
        }
    }
}

/// `retry` and `dismiss` take one action id or `--all`.
struct ActionSelectionOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The action's id, as `chatmail pending` lists it (#3 or 3).") var id: String?
    @Flag(help: "Every failed and abandoned action.") var all = false

    func validate() throws {
        switch (id, all) {
        case (nil, false): throw ValidationError("Give an action id, or --all.")
        case (.some, true): throw ValidationError("Give an action id or --all, not both.")
        case (.some(let id), false) where Int64(id.hasPrefix("#") ? String(id.dropFirst()) : id) == nil:
            throw ValidationError("\(EchoedInput.quoted(id)) is not an action id; `chatmail pending` lists them.")
        default: break
        }
    }

    func selection() throws -> ActionQueue.Selection {
        guard let id else { return .all }
        guard let number = Int64(id.hasPrefix("#") ? String(id.dropFirst()) : id) else {
            throw ValidationError("\(EchoedInput.quoted(id)) is not an action id; `chatmail pending` lists them.")
        }
        return .one(PendingActionID(rawValue: number))
    }
}

/// The account's server could not be reached: what was queued waits, and "send now" did not happen.
struct ServerUnreachable: Error, LocalizedError {
    var reason: String
    var errorDescription: String? { reason }
}
