import ArgumentParser
import ChatmailStore
import ChatmailSync
import Foundation
import Logging
import TerminalUI
import TextFormatting

/// `chatmail import`: loads `.eml` files, a directory of them, or an mbox (Google Takeout) into the store.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import .eml files, a directory of them, or an mbox file (such as a Google Takeout export).",
        discussion: """
            Importing is idempotent: messages already stored are left alone (their labels follow an updated \
            Takeout export). Takeout's X-Gmail-Labels become labels; other messages are filed in INBOX, or \
            SENT when they are from you.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "An .eml file, a directory, or an mbox file.") var path: String
    @Option(
        help: ArgumentHelp(
            "An address of yours (repeatable). Needed the first time, to create the account.", valueName: "address"))
    var me: [String] = []
    @Flag(help: "Print the summary as JSON.") var json = false

    func run() async throws {
        let env = makeEnvironment()
        let messages: [RawMailboxMessage]
        do {
            messages = try MailboxSource.read(path)
        } catch .notAMessage(let file, let rejection) {
            throw CommandError.notAMessage(file, rejection)
        } catch {
            throw CommandError.badInput(error.userMessage)
        }
        let store = try env.openStore(creating: true)
        let account = try await resolveAccount(in: store, env: env)
        let showProgress = !json && isatty(STDERR_FILENO) == 1
        let start = ContinuousClock.now
        let report = try await MailboxImporter(store: store).run(messages, into: account) { done, total in
            if showProgress { FileHandle.standardError.write(Data("\rImporting… \(done)/\(total)".utf8)) }
        }
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        // Named on stderr, so a stray file in a folder of mail is found without a second run.
        let skippedLines = report.skipped.map {
            "chatmail: skipped \(TerminalSafeText.singleLine($0.origin)): \($0.reason).\n"
        }
        FileHandle.standardError.write(Data(skippedLines.joined().utf8))
        let summary = ImportSummary(report: report, seconds: seconds)
        try output(env) {
            try summary.json()
        } text: {
            summary.line() + "\n"
        }
    }

    /// The account to import into: created from `--me` when needed; `--me` addresses become aliases.
    func resolveAccount(in store: ChatmailStore, env: AppEnvironment) async throws -> AccountID {
        if me.isEmpty {
            do {
                return try env.selectedAccount(in: store).id
            } catch StoreError.noAccount {
                throw ValidationError("The first import needs --me ADDRESS: the address this mailbox belongs to.")
            }
        }
        let addresses = me
        let selected = global.account
        return try await store.write { tx in
            let account = try tx.ensureAccount(email: selected ?? addresses[0])
            try tx.addAliases(
                addresses.map { AliasInput(address: EmailAddress(address: $0), isPrimary: false) }, to: account)
            return account
        }
    }
}

/// The one-line (or JSON) summary of an import.
struct ImportSummary: Encodable {
    var messagesRead: Int
    var inserted: Int
    var unchanged: Int
    var relabelled: Int
    var duplicates: Int
    var skipped: Int
    var conversationsTouched: Int
    var seconds: Double

    init(report: ImportReport, seconds: Double) {
        messagesRead = report.messagesRead
        inserted = report.inserted
        unchanged = report.unchanged
        relabelled = report.relabelled
        duplicates = report.duplicates
        skipped = report.skipped.count
        conversationsTouched = report.conversationsTouched
        self.seconds = (seconds * 1000).rounded() / 1000
    }

    func line() -> String {
        let rate = seconds > 0 ? Int(Double(messagesRead) / seconds) : messagesRead
        var text = "Imported \(messagesRead) messages: \(inserted) new, \(unchanged) already stored"
        if relabelled > 0 { text += ", \(relabelled) relabelled" }
        if duplicates > 0 { text += ", \(duplicates) duplicates" }
        if skipped > 0 { text += ", \(skipped) skipped (not email messages)" }
        return text
            + ". \(conversationsTouched) conversations updated in \(String(format: "%.2f", seconds)) s (\(rate) messages/s)."
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}

extension MailboxSource.Failure {
    var userMessage: String {
        switch self {
        case .notFound(let path): "\(path): no such file or directory"
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .noMessages(let path): "\(path): no .eml or mbox messages found"
        case .notAMessage(let path, let rejection): "\(path) is not an email message: \(rejection)"
        }
    }
}
