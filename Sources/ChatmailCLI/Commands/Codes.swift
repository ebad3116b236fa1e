import ArgumentParser
import ChatmailStore
import Foundation
import JSONOutput
import RecordViews
import TerminalUI
import TextFormatting

/// `chatmail codes`: the one-time codes in recent mail, newest first.
struct Codes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the one-time (verification) codes in recent mail, newest first.",
        discussion: """
            Codes are found when mail is synced, so this is instant and works offline. --json prints every \
            code in the window; the text shows the newest \(Codes.textLimit) and says how many more there are. \
            --limit sets that number for both. --latest prints only the newest code, for scripts (exit 2 \
            when there is none).
            """)

    /// How many codes the text shows when `--limit` is not given.
    static let textLimit = 50

    @OptionGroup var global: GlobalOptions
    @Option(
        help: ArgumentHelp(
            "How far back to look: a number with s, m, h or d (30m, 24h, 7d).", valueName: "duration"))
    var since = "24h"
    // Unconditional, so "--limit -1" reaches validate() instead of reading as a missing value.
    @Option(
        parsing: .unconditional,
        help: "Show at most this many codes (default: \(Codes.textLimit); --json prints the whole window).")
    var limit: Int?
    @Flag(help: "Print only the newest code.") var latest = false
    @Flag(help: "Print [{code, service, from, receivedAt, gmailId}] as JSON.") var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
        if latest && limit != nil { throw ValidationError("Choose --latest or --limit, not both.") }
        if Self.milliseconds(since) == nil {
            throw ValidationError(
                "--since takes a duration such as 30m, 24h or 7d, not \(EchoedInput.quoted(since)).")
        }
    }

    func run() async throws {
        let env = makeEnvironment()
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let window = Self.milliseconds(since) ?? 86_400_000
        // The window bounds JSON, which scripts read whole; the text is read by a person, and says what
        // it leaves out.
        let shown = latest ? 1 : (limit ?? (json ? nil : Self.textLimit))
        let codes = try store.verificationCodes(in: account.id, sinceMs: env.clock() - window, limit: shown)
        if latest {
            guard let newest = codes.items.first else { throw CodesError.noCode(since: since) }
            if !json {
                try env.write(TerminalSafeText.singleLine(newest.code) + "\n")
                return
            }
        }
        if json {
            try env.write(try JSONRenderer(time: env.time).render(codes.items))
            return
        }
        guard !codes.items.isEmpty else {
            try env.write("No codes in mail from the last \(since).\n")
            return
        }
        let renderer = CodesRenderer(width: env.width, time: env.time, palette: env.palette, glyphs: env.glyphs)
        // `codes` lists a window of time: the codes a limit left out are in it.
        try env.write(renderer.render(codes, scope: "in this window"))
    }

    /// `30m`, `24h`, `7d`, `90s` as milliseconds; `nil` for anything else.
    static func milliseconds(_ text: String) -> Int64? {
        guard let unit = text.last, let count = Int64(text.dropLast()), count > 0, count < 100_000 else { return nil }
        switch unit {
        case "s": return count * 1000
        case "m": return count * 60_000
        case "h": return count * 3_600_000
        case "d": return count * 86_400_000
        default: return nil
        }
    }
}

/// `codes --latest` with no code in the window.
enum CodesError: Error, LocalizedError {
    case noCode(since: String)

    var errorDescription: String? {
        switch self {
        case .noCode(let since): "No codes in mail from the last \(EchoedInput.quoted(since))."
        }
    }
}
