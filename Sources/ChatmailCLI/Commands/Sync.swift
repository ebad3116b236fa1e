import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation

/// `chatmail sync`: sends queued actions, then pulls the server's changes (Gmail's API or IMAP).
struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sync with the server: push queued actions, then pull (initial, incremental or recovery).",
        discussion: "Safe to interrupt: everything done so far is committed, and the next run continues.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "List every message again (downloads only what is missing, refreshes all labels).") var full = false
    @Flag(help: "Print the summary as JSON.") var json = false

    func run() async throws {
        let env = makeEnvironment()
        let crashes = try Self.crashPoints(env.environment)
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let progress = ProgressLine(enabled: !json && isatty(STDERR_FILENO) == 1)
        // One tracker for the push and the pull, so the summary counts conversations either changed.
        let tracker = ModificationTracker()
        let abandonedBefore = try Self.abandonedActions(store, account)
        let report: SyncReport
        switch account.provider {
        case .imap:
            let engine = SyncEngine(
                store: store, imap: try IMAPSession.connector(for: account, in: store, env: env),
                pusher: try IMAPSession.pusher(for: account, in: store, env: env, tracker: tracker, crashes: crashes),
                tracker: tracker, crashes: crashes, progress: { progress.show($0) })
            report = try await engine.run(account: account, full: full)
        case .gmail:
            let connection = try GmailConnection.open(env)
            defer { connection.close() }
            let client = connection.client
            let pusher = PendingActionSender(
                store: store, gmail: client, clock: env.clock, tracker: tracker, crashes: crashes)
            let engine = SyncEngine(
                store: store, gmail: client, pusher: pusher, tracker: tracker, crashes: crashes,
                progress: { progress.show($0) })
            report = try await engine.run(account: account, full: full)
        }
        progress.finish()
        let newlyAbandoned = try Self.abandonedActions(store, account) - abandonedBefore
        try output(env) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        } text: {
            Self.summary(report, abandonedActions: newlyAbandoned) + "\n"
        }
    }

    /// The crash points the interruption tests arm through the environment; unarmed when the variable is unset.
    static func crashPoints(_ environment: [String: String]) throws -> CrashPoints {
        guard let spec = environment[CrashPoints.environmentVariable] else { return CrashPoints() }
        guard let armed = CrashPoints(parsing: spec) else {
            let points = CrashPoints.Point.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError(
                "\(CrashPoints.environmentVariable) must be <point> or <point>:<n>, a point among \(points).")
        }
        return armed
    }

    /// Abandoned queued actions: the push reports only what it sent, and the text summary must not
    /// stay silent about an action Gmail refused.
    static func abandonedActions(_ store: ChatmailStore, _ account: Account) throws -> Int {
        try store.pendingActions(of: account.id).filter { $0.status == .abandoned }.count
    }

    /// The one-line summary; `timed: false` leaves out the duration, for output that must not vary.
    static func summary(_ report: SyncReport, abandonedActions: Int = 0, timed: Bool = true) -> String {
        var parts = [
            "\(report.messagesAdded) new", "\(report.messagesDeleted) deleted", "\(report.labelChanges) label changes",
        ]
        func actions(_ count: Int) -> String { count == 1 ? "1 action" : "\(count) actions" }
        if report.pendingSent > 0 { parts.append("\(actions(report.pendingSent)) sent") }
        if abandonedActions > 0 { parts.append("\(actions(abandonedActions)) abandoned (see `chatmail pending`)") }
        if report.abandoned > 0 {
            parts.append("\(report.abandoned) failed (retried next sync; see `chatmail status`)")
        }
        if report.unreadable > 0 {
            parts.append("\(report.unreadable) stored unread as email (not valid messages; kept as received)")
        }
        let conversations =
            report.conversationsUpdated == 1 ? "1 conversation" : "\(report.conversationsUpdated) conversations"
        let duration = timed ? " in \(String(format: "%.1f", report.seconds)) s" : ""
        return
            "Synced (\(report.mode.rawValue)): \(parts.joined(separator: ", ")); \(conversations) updated\(duration)."
    }
}

/// A one-line progress display on stderr (terminals only): phase, done/total, rate, ETA.
final class ProgressLine: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var started = ContinuousClock.now
    private var phase = ""

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: SyncProgress) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        if progress.phase != phase {
            phase = progress.phase
            started = ContinuousClock.now
        }
        var line = "\r\u{1B}[K\(progress.phase)"
        if progress.total > 0 {
            let seconds = max(0.001, (ContinuousClock.now - started) / .seconds(1))
            let rate = Double(progress.done) / seconds
            line += " \(progress.done)/\(progress.total)"
            if rate > 0 && progress.done > 0 {
                let eta = Int(Double(progress.total - progress.done) / rate)
                line += String(format: " · %.0f/s · ETA %d:%02d", rate, eta / 60, eta % 60)
            }
        }
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
