import ChatmailStore
import Foundation
import TextFormatting

/// Writes conversations as Markdown files: one to a file or stdout, or all of them into a directory
/// with an `index.md`.
///
/// File names come from ``SafeFileName``; they are given out in conversation-id order, so an older
/// conversation keeps its name when a newer one with the same title appears.
///
/// Exporting unchanged data gives byte-identical files, so a file that already holds exactly what
/// would be written is left alone (its time stamps too) and counted as up to date. Only a file whose
/// content would change needs `force`. Without it, every target is checked before anything is written,
/// and each new file is linked into place only if its name is still free (``OutputFiles``), so an
/// existing file is never replaced, even one that appears during the export.
public struct MarkdownExporter {
    let store: ChatmailStore
    let account: Account
    let time: TimeFormatting
    let options: ConversationMarkdown.Options
    let force: Bool
    /// Where attachment bytes come from; `nil` exports no attachments.
    let downloader: (any AttachmentFetching)?

    /// - Parameters:
    ///   - force: rewrite files whose content would change (files already up to date are left alone).
    ///   - downloader: fetches the attachments to save beside the export; `nil` saves none.
    public init(
        store: ChatmailStore, account: Account, time: TimeFormatting, options: ConversationMarkdown.Options,
        force: Bool,
        downloader: (any AttachmentFetching)?
    ) {
        self.store = store
        self.account = account
        self.time = time
        self.options = options
        self.force = force
        self.downloader = downloader
    }

    /// What an `--all` export did.
    public struct Summary: Sendable {
        /// Conversations whose file was written.
        public var conversations = 0
        /// Conversations whose file already held what the export would write.
        public var upToDate = 0
        /// Messages in the files written.
        public var messages = 0
        public var attachments = 0
        /// One line per attachment that could not be saved.
        public var attachmentFailures: [String] = []

        /// The one line that reports the export, naming `directory` as the user gave it.
        public func line(directory: String) -> String {
            let directory = TerminalSafeText.singleLine(directory)
            func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
            if conversations == 0 && upToDate > 0 {
                return "\(plural(upToDate, "conversation")) in \(directory) already up to date; start at index.md."
            }
            var text = "Exported \(plural(conversations, "conversation")) (\(plural(messages, "message"))"
            if attachments > 0 { text += ", \(plural(attachments, "attachment"))" }
            text += ") to \(directory)"
            if upToDate > 0 { text += "; \(upToDate) more already up to date" }
            return text + "; start at index.md."
        }
    }

    /// An attachment as the export saves and links it.
    struct PlannedAttachment {
        var source: AttachmentSource
        /// Its position among its message's attachments.
        var index: Int
        /// The file name inside the conversation's attachment folder.
        var name: String
        /// The path the Markdown links, relative to the export folder.
        var link: String
    }

    /// Name of the file that lists the conversations in a directory export.
    static let indexName = "index.md"
    /// Folder, inside the export directory, that holds one folder of attachments per conversation.
    static let attachmentsFolder = "attachments"

    /// The Markdown of one conversation, for stdout.
    public func markdown(of transcript: Transcript) -> String {
        ConversationMarkdown(time: time, options: options).render(transcript)
    }

    /// Writes one conversation to `file` (attachments, if asked, into `attachments/<slug>/` beside it),
    /// unless the file already holds exactly that.
    ///
    /// The attachment folder is named after the file, not the conversation: file names are unique in a
    /// folder, titles are not, so two conversations called "John Smith" exported side by side never share
    /// (and with `--force` overwrite) each other's attachments.
    /// - Returns: the attachments that could not be saved.
    public func exportOne(_ transcript: Transcript, to file: URL) async throws -> [String] {
        let conversation = transcript.conversation
        let folder = file.deletingLastPathComponent()
        let slug = SafeFileName.slug(
            file.deletingPathExtension().lastPathComponent, fallback: SafeFileName.slug(conversation.title))
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw ExportError.writeFailed(path: file.path, reason: "\(folder.path) is not an existing directory")
        }
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
            // Not "already exists, pass --force": --force cannot replace a directory either.
            throw ExportError.writeFailed(
                path: file.path, reason: "it is a directory; give a file name, or use --all -o DIR")
        }
        let planned = try plannedAttachments(of: transcript, slug: slug)
        if try isUpToDate(file, transcript: transcript, planned: planned, in: folder) { return [] }
        if !force, let conflict = conflict(file, slug: slug, in: folder) {
            throw ExportError.wouldOverwrite(path: conflict.path, count: 1)
        }
        var failures: [String] = []
        var links: [MessageID: [Int: String]] = [:]
        if let downloader {
            let saved = try await saveAttachments(planned, slug: slug, in: folder, with: downloader)
            links = saved.links
            failures = saved.failures
        }
        try OutputFiles.write(
            ConversationMarkdown(time: time, options: options).render(transcript, attachmentLinks: links), to: file,
            force: force)
        return failures
    }

    /// Writes every conversation in `conversations` into `directory`, then `index.md`; files that
    /// already hold what would be written are left alone.
    public func exportAll(
        _ conversations: [ConversationSummary], to directory: URL, progress: (_ done: Int, _ total: Int) -> Void
    ) async throws -> Summary {
        try OutputFiles.makeDirectory(directory)
        var allocator = SafeFileName.Allocator(taken: [Self.indexName])
        var plan: [(conversation: ConversationSummary, slug: String, file: String)] = []
        for conversation in conversations.sorted(by: { $0.id < $1.id }) {
            let slug = SafeFileName.slug(conversation.title)
            let file = allocator.claim(base: slug, extension: "md")
            plan.append((conversation, String(file.dropLast(3)), file))
        }
        let indexFile = directory.appendingPathComponent(Self.indexName)
        // Index entries by plan position; a conversation emptied meanwhile has none.
        var entries = [ExportIndexMarkdown.Entry?](repeating: nil, count: plan.count)
        var upToDate = Set<Int>()
        if !force {
            // Only what is already there can conflict. The index lists every conversation, so when it
            // exists, every transcript is read to know what it would say.
            let indexExists = OutputFiles.exists(indexFile)
            var conflicts: [URL] = []
            for (position, item) in plan.enumerated() {
                let file = directory.appendingPathComponent(item.file)
                let occupied = conflict(file, slug: item.slug, in: directory) != nil
                guard occupied || indexExists, let transcript = try store.fullTranscript(of: item.conversation.id)
                else { continue }
                entries[position] = Self.entry(transcript, fileName: item.file)
                guard occupied else { continue }
                let planned = try plannedAttachments(of: transcript, slug: item.slug)
                if try isUpToDate(file, transcript: transcript, planned: planned, in: directory) {
                    upToDate.insert(position)
                } else if let conflict = conflict(file, slug: item.slug, in: directory) {
                    conflicts.append(conflict)
                }
            }
            if indexExists, !OutputFiles.holds(indexFile, exactly: Data(index(entries).utf8)) {
                conflicts.insert(indexFile, at: 0)
            }
            if let first = conflicts.first {
                throw ExportError.wouldOverwrite(path: first.path, count: conflicts.count)
            }
        }
        var summary = Summary()
        let renderer = ConversationMarkdown(time: time, options: options)
        for (position, item) in plan.enumerated() {
            progress(position, plan.count)
            if upToDate.contains(position) {
                summary.upToDate += 1
                continue
            }
            entries[position] = nil
            // emptied meanwhile
            guard let transcript = try store.fullTranscript(of: item.conversation.id) else { continue }
            entries[position] = Self.entry(transcript, fileName: item.file)
            let file = directory.appendingPathComponent(item.file)
            let planned = try plannedAttachments(of: transcript, slug: item.slug)
            if force, try isUpToDate(file, transcript: transcript, planned: planned, in: directory) {
                summary.upToDate += 1
                continue
            }
            var links: [MessageID: [Int: String]] = [:]
            if let downloader {
                let saved = try await saveAttachments(planned, slug: item.slug, in: directory, with: downloader)
                links = saved.links
                summary.attachments += saved.count
                summary.attachmentFailures += saved.failures
            }
            try OutputFiles.write(renderer.render(transcript, attachmentLinks: links), to: file, force: force)
            summary.conversations += 1
            summary.messages += transcript.messages.count
        }
        progress(plan.count, plan.count)
        let indexText = index(entries)
        if !OutputFiles.holds(indexFile, exactly: Data(indexText.utf8)) {
            try OutputFiles.write(indexText, to: indexFile, force: force)
        }
        return summary
    }

    private static func entry(_ transcript: Transcript, fileName: String) -> ExportIndexMarkdown.Entry {
        ExportIndexMarkdown.Entry(
            conversation: transcript.conversation, fileName: fileName, messageCount: transcript.messages.count,
            firstMessageAtMs: transcript.messages.first?.internalDateMs,
            lastMessageAtMs: transcript.messages.last?.internalDateMs)
    }

    private func index(_ entries: [ExportIndexMarkdown.Entry?]) -> String {
        ExportIndexMarkdown(time: time, options: options).render(
            account: account.email, entries: entries.compactMap { $0 })
    }

    /// What is already in the way of writing `file`: the file itself, or, with attachments, the folder
    /// they would be saved into.
    private func conflict(_ file: URL, slug: String, in directory: URL) -> URL? {
        if OutputFiles.exists(file) { return file }
        let folder = attachmentFolder(directory, slug)
        return downloader != nil && OutputFiles.exists(folder) ? folder : nil
    }

    /// Whether `file` already holds this conversation as the export would write it, and, with
    /// attachments, every attachment it links is saved: then nothing needs writing or downloading.
    ///
    /// An attachment's bytes are not compared: checking them would mean downloading them again, and a
    /// message's attachments never change.
    private func isUpToDate(_ file: URL, transcript: Transcript, planned: [PlannedAttachment], in directory: URL) throws
        -> Bool
    {
        guard OutputFiles.exists(file),
            planned.allSatisfy({ OutputFiles.isRegularFile(directory.appendingPathComponent($0.link)) })
        else { return false }
        var links: [MessageID: [Int: String]] = [:]
        for attachment in planned {
            links[attachment.source.messageID, default: [:]][attachment.index] = attachment.link
        }
        let markdown = ConversationMarkdown(time: time, options: options).render(transcript, attachmentLinks: links)
        return OutputFiles.holds(file, exactly: Data(markdown.utf8))
    }

    private func attachmentFolder(_ directory: URL, _ slug: String) -> URL {
        directory.appendingPathComponent(Self.attachmentsFolder, isDirectory: true).appendingPathComponent(
            slug, isDirectory: true)
    }

    /// The attachments of a conversation and the names they are saved under in `attachments/<slug>/`;
    /// none when attachments are not exported.
    private func plannedAttachments(of transcript: Transcript, slug: String) throws -> [PlannedAttachment] {
        guard downloader != nil else { return [] }
        let sources = try store.attachmentSources(of: transcript.messages.filter { !$0.attachments.isEmpty }.map(\.id))
        var names = SafeFileName.Allocator()
        var planned: [PlannedAttachment] = []
        for message in transcript.messages {
            for (index, source) in (sources[message.id] ?? []).enumerated() {
                let safe = SafeFileName.attachmentName(source.filename)
                let name = names.claim(base: safe.base, extension: safe.extension)
                planned.append(
                    PlannedAttachment(
                        source: source, index: index, name: name, link: Self.attachmentsFolder + "/" + slug + "/" + name
                    ))
            }
        }
        return planned
    }

    /// Downloads the planned attachments into `attachments/<slug>/` under `directory`.
    /// - Returns: the link of each saved attachment by message and position, the count, and a line per failure.
    private func saveAttachments(
        _ planned: [PlannedAttachment], slug: String, in directory: URL, with downloader: any AttachmentFetching
    ) async throws -> (links: [MessageID: [Int: String]], count: Int, failures: [String]) {
        guard !planned.isEmpty else { return ([:], 0, []) }
        let folder = try OutputFiles.makeDirectories([Self.attachmentsFolder, slug], in: directory)
        var links: [MessageID: [Int: String]] = [:]
        var failures: [String] = []
        for attachment in planned {
            let source = attachment.source
            let data: Data
            do {
                data = try await downloader.data(for: source)
            } catch  where downloader.stopsExport(error) {
                throw error
            } catch {
                failures.append(
                    TerminalSafeText.singleLine(
                        "\(source.filename.isEmpty ? attachment.name : source.filename): \((error as? any LocalizedError)?.errorDescription ?? "\(error)")"
                    ))
                continue
            }
            try OutputFiles.write(data, to: folder.appendingPathComponent(attachment.name), force: force)
            links[source.messageID, default: [:]][attachment.index] = attachment.link
        }
        return (links, planned.count - failures.count, failures)
    }
}
