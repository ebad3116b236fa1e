import ArgumentParser
import ChatmailStore
import Foundation
import MarkdownExport

/// `chatmail export`: conversations as Markdown files to keep (a project log, a legal file, a notes
/// vault).
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Export conversations as Markdown.",
        discussion: """
            chatmail export <person> writes one conversation to stdout, or to -o FILE. \
            chatmail export --all -o DIR writes one file per conversation (archived ones too) and an index.md \
            linking them. Files are CommonMark with YAML front matter; all mail text is escaped, so it shows \
            as written and can never add HTML, links or headings. Exporting unchanged data again gives \
            byte-identical files, which is why the export time is only recorded with --stamp: a file that \
            already holds what would be written is left alone and counted as up to date. A file whose \
            content would change is only rewritten with --force, and files the export does not write are \
            never removed.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp(PersonLookup.personHelp)) var person: String?
    @Flag(help: PersonLookup.groupHelp) var group = false
    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Write to this file (with --all: this directory).", valueName: "path"))
    var output: String?
    @Flag(help: "Export every conversation into the -o directory.") var all = false
    @Flag(help: "With --all: only conversations with people (no newsletters).") var people = false
    @Flag(help: "With --all: only newsletters.") var newsletters = false
    @Option(
        help: ArgumentHelp(
            "With --all: only conversations with a message on or after this date (YYYY-MM-DD, local time, or ISO 8601).",
            valueName: "date"))
    var since: String?
    @Flag(help: "Include the quoted text and signatures removed from each message, as a block quote.") var full = false
    @Flag(help: "Rewrite files whose content would change (files already up to date are left alone).") var force = false
    @Flag(help: "Download attachments from Gmail beside the export and link them (needs `chatmail login`).")
    var attachments = false
    @Flag(help: "Record the export time in the front matter (the files then differ on every export).") var stamp = false

    func validate() throws {
        if all && person != nil { throw ValidationError("Give a <person> or --all, not both.") }
        if !all && person == nil { throw ValidationError("Give a <person> to export, or --all -o DIR.") }
        if group && person == nil { throw ValidationError("--group goes with a <person>.") }
        if all && output == nil {
            throw ValidationError("--all writes one file per conversation: give a directory with -o DIR.")
        }
        if people && newsletters { throw ValidationError("Choose --people or --newsletters, not both.") }
        if !all && (people || newsletters || since != nil) {
            throw ValidationError("--people, --newsletters and --since go with --all.")
        }
        if attachments && output == nil {
            throw ValidationError("--attachments saves files beside the export: give -o.")
        }
        if let output, output.isEmpty { throw ValidationError("-o needs a path.") }
        if let since, Self.parseDate(since, timeZone: .current) == nil {
            throw ValidationError(
                "--since takes a date such as 2025-03-01 or 2025-03-01T09:00:00+01:00, not \(EchoedInput.quoted(since))."
            )
        }
    }

    func run() async throws {
        let env = makeEnvironment()
        let store = try env.openExistingStore()
        let account = try env.selectedAccount(in: store)
        let options = ConversationMarkdown.Options(
            fullText: full, version: ChatmailCommand.configuration.version, exportedAtMs: stamp ? env.clock() : nil)
        if attachments { try IMAPNotYetSupported.check(account, for: .attachments) }
        let connection = attachments ? try AttachmentDownloader.connect(env) : nil
        defer { connection?.close() }
        let downloader = connection.map { AttachmentDownloader(client: $0.client) }
        let exporter = MarkdownExporter(
            store: store, account: account, time: env.time, options: options, force: force, downloader: downloader)
        if all {
            let filter = ConversationFilter(
                visibility: .all, kind: people ? .people : newsletters ? .newsletters : .any)
            var conversations = try store.conversations(in: account.id, filter: filter)
            if let since, let sinceMs = Self.parseDate(since, timeZone: .current) {
                conversations.removeAll { $0.lastMessageAtMs < sinceMs }
            }
            let progress = ExportProgress(enabled: isatty(STDERR_FILENO) == 1)
            let summary = try await exporter.exportAll(
                conversations, to: URL(fileURLWithPath: output!, isDirectory: true)
            ) {
                progress.show(done: $0, total: $1)
            }
            progress.finish()
            try env.write(summary.line(directory: output!) + "\n")
            if let failure = summary.attachmentFailures.first {
                throw ExportError.attachmentsFailed(count: summary.attachmentFailures.count, first: failure)
            }
        } else {
            let conversation = try PersonLookup.conversation(
                for: person!, in: store, account: account.id, preferringGroups: group)
            guard let transcript = try store.fullTranscript(of: conversation.id) else {
                throw CommandError.personNotFound(conversation.title)  // deleted between the lookup and the read
            }
            if let output {
                let failures = try await exporter.exportOne(transcript, to: URL(fileURLWithPath: output))
                if let failure = failures.first {
                    throw ExportError.attachmentsFailed(count: failures.count, first: failure)
                }
            } else {
                try env.write(exporter.markdown(of: transcript))
            }
        }
    }

    /// `YYYY-MM-DD` (midnight in `timeZone`) or a full ISO 8601 time, as milliseconds since the epoch.
    static func parseDate(_ text: String, timeZone: TimeZone) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let components = DateComponents(year: year, month: month, day: day)
            guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
            return Int64((date.timeIntervalSince1970 * 1000).rounded())
        }
        let formatter = ISO8601DateFormatter()
        guard let date = formatter.date(from: text) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}

/// A one-line count of exported conversations on stderr (terminals only).
final class ExportProgress {
    private let enabled: Bool
    private var lastShown = ContinuousClock.now - .seconds(1)

    init(enabled: Bool) { self.enabled = enabled }

    func show(done: Int, total: Int) {
        guard enabled, done == total || ContinuousClock.now - lastShown > .milliseconds(100) else { return }
        lastShown = ContinuousClock.now
        FileHandle.standardError.write(Data("\r\u{1B}[KExporting… \(done)/\(total) conversations".utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
