import ChatmailStore
import Foundation
import GmailAPI
import TerminalUI

#if canImport(Glibc)
import Glibc
#endif

/// Writes conversations as Markdown files: one to a file or stdout, or all of them into a directory
/// with an `index.md`.
///
/// File names come from ``SafeFileName``; they are given out in conversation-id order, so an older
/// conversation keeps its name when a newer one with the same title appears. Without `force`, every
/// target is checked before anything is written, and each file is linked into place only if its name is
/// still free (``OutputFiles``), so an existing file is never replaced, even one that appears during the
/// export.
struct MarkdownExporter {
    let store: ChatmailStore
    let account: Account
    let time: TimeFormatting
    let options: ConversationMarkdown.Options
    let force: Bool
    let downloader: AttachmentDownloader?

    /// What an `--all` export did.
    struct Summary {
        var conversations = 0
        var messages = 0
        var attachments = 0
        /// One line per attachment that could not be saved.
        var attachmentFailures: [String] = []

        func line(directory: String) -> String {
            var text = "Exported \(conversations) conversation\(conversations == 1 ? "" : "s") (\(messages) message\(messages == 1 ? "" : "s")"
            if attachments > 0 { text += ", \(attachments) attachment\(attachments == 1 ? "" : "s")" }
            return text + ") to \(TerminalSafeText.singleLine(directory)); start at index.md."
        }
    }

    /// Name of the file that lists the conversations in a directory export.
    static let indexName = "index.md"
    /// Folder, inside the export directory, that holds one folder of attachments per conversation.
    static let attachmentsFolder = "attachments"

    /// The Markdown of one conversation, for stdout.
    func markdown(of conversation: ConversationSummary) throws -> String {
        guard let transcript = try store.fullTranscript(of: conversation.id) else { throw CommandError.personNotFound(conversation.title) }
        return ConversationMarkdown(time: time, options: options).render(transcript)
    }

    /// Writes one conversation to `file` (attachments, if asked, into `attachments/<slug>/` beside it).
    ///
    /// The attachment folder is named after the file, not the conversation: file names are unique in a
    /// folder, titles are not, so two conversations called "John Smith" exported side by side never share
    /// (and with `--force` overwrite) each other's attachments.
    /// - Returns: the attachments that could not be saved.
    func exportOne(_ conversation: ConversationSummary, to file: URL) async throws -> [String] {
        let folder = file.deletingLastPathComponent()
        let slug = SafeFileName.slug(file.deletingPathExtension().lastPathComponent, fallback: SafeFileName.slug(conversation.title))
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ExportError.writeFailed(path: file.path, reason: "\(folder.path) is not an existing directory")
        }
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), isDirectory.boolValue {
            // Not "already exists, pass --force": --force cannot replace a directory either.
            throw ExportError.writeFailed(path: file.path, reason: "it is a directory; give a file name, or use --all -o DIR")
        }
        if !force {
            var existing = [file].filter(OutputFiles.exists)
            if downloader != nil { existing += [attachmentFolder(folder, slug)].filter(OutputFiles.exists) }
            if let first = existing.first { throw ExportError.wouldOverwrite(path: first.path, count: existing.count) }
        }
        guard let transcript = try store.fullTranscript(of: conversation.id) else { throw CommandError.personNotFound(conversation.title) }
        var failures: [String] = []
        var links: [MessageID: [Int: String]] = [:]
        if let downloader {
            let saved = try await saveAttachments(of: transcript, slug: slug, in: folder, with: downloader)
            links = saved.links
            failures = saved.failures
        }
        try OutputFiles.write(ConversationMarkdown(time: time, options: options).render(transcript, attachmentLinks: links), to: file, force: force)
        return failures
    }

    /// Writes every conversation in `conversations` into `directory`, then `index.md`.
    func exportAll(
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
        if !force {
            var targets = [directory.appendingPathComponent(Self.indexName)] + plan.map { directory.appendingPathComponent($0.file) }
            if downloader != nil { targets += plan.map { attachmentFolder(directory, $0.slug) } }
            let existing = targets.filter(OutputFiles.exists)
            if let first = existing.first { throw ExportError.wouldOverwrite(path: first.path, count: existing.count) }
        }
        var summary = Summary()
        var entries: [ExportIndexMarkdown.Entry] = []
        let renderer = ConversationMarkdown(time: time, options: options)
        for (done, item) in plan.enumerated() {
            progress(done, plan.count)
            guard let transcript = try store.fullTranscript(of: item.conversation.id) else { continue }  // emptied meanwhile
            var links: [MessageID: [Int: String]] = [:]
            if let downloader {
                let saved = try await saveAttachments(of: transcript, slug: item.slug, in: directory, with: downloader)
                links = saved.links
                summary.attachments += saved.count
                summary.attachmentFailures += saved.failures
            }
            try OutputFiles.write(renderer.render(transcript, attachmentLinks: links), to: directory.appendingPathComponent(item.file), force: force)
            summary.conversations += 1
            summary.messages += transcript.messages.count
            entries.append(.init(
                conversation: transcript.conversation, fileName: item.file, messageCount: transcript.messages.count,
                firstMessageAtMs: transcript.messages.first?.internalDateMs, lastMessageAtMs: transcript.messages.last?.internalDateMs))
        }
        progress(plan.count, plan.count)
        let index = ExportIndexMarkdown(time: time, options: options).render(account: account.email, entries: entries)
        try OutputFiles.write(index, to: directory.appendingPathComponent(Self.indexName), force: force)
        return summary
    }

    private func attachmentFolder(_ directory: URL, _ slug: String) -> URL {
        directory.appendingPathComponent(Self.attachmentsFolder, isDirectory: true).appendingPathComponent(slug, isDirectory: true)
    }

    /// Downloads a conversation's attachments into `attachments/<slug>/` under `directory`.
    /// - Returns: the relative path of each saved attachment, the count, and a line per failure.
    private func saveAttachments(
        of transcript: Transcript, slug: String, in directory: URL, with downloader: AttachmentDownloader
    ) async throws -> (links: [MessageID: [Int: String]], count: Int, failures: [String]) {
        let sources = try store.attachmentSources(of: transcript.messages.filter { !$0.attachments.isEmpty }.map(\.id))
        guard !sources.isEmpty else { return ([:], 0, []) }
        let folder = try OutputFiles.makeDirectories([Self.attachmentsFolder, slug], in: directory)
        var names = SafeFileName.Allocator()
        var links: [MessageID: [Int: String]] = [:]
        var count = 0
        var failures: [String] = []
        for message in transcript.messages {
            for (index, source) in (sources[message.id] ?? []).enumerated() {
                let safe = SafeFileName.attachmentName(source.filename)
                let name = names.claim(base: safe.base, extension: safe.extension)
                let data: Data
                do {
                    data = try await downloader.data(for: source)
                } catch let error as GmailAPIError where ExitStatus(for: error) == .notLoggedIn {
                    throw error  // every other attachment would fail the same way; `chatmail login` is the fix
                } catch {
                    failures.append(TerminalSafeText.singleLine(
                        "\(source.filename.isEmpty ? name : source.filename): \((error as? any LocalizedError)?.errorDescription ?? "\(error)")"))
                    continue
                }
                try OutputFiles.write(data, to: folder.appendingPathComponent(name), force: force)
                links[message.id, default: [:]][index] = Self.attachmentsFolder + "/" + slug + "/" + name
                count += 1
            }
        }
        return (links, count, failures)
    }
}

/// Creating export files without ever replacing one by accident.
enum OutputFiles {
    /// Whether anything, even a dangling symbolic link, is at `url`.
    static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    static func write(_ text: String, to url: URL, force: Bool) throws {
        try write(Data(text.utf8), to: url, force: force)
    }

    /// The bytes go to a new temporary file beside `url` first, so a reader, or the user after a crash,
    /// never finds half a file under the final name (at worst a hidden `.chatmail-….tmp`). Without `force`
    /// the finished file is then hard-linked to its name, which fails if anything, even a dangling
    /// symbolic link, is there: nothing is ever replaced or followed. With `force` it is renamed over
    /// the old one (a symbolic link is replaced, not followed).
    ///
    /// There is no fsync: an export is a copy that can be made again, and syncing ten thousand files
    /// one by one took most of an `--all` export's time.
    static func write(_ data: Data, to url: URL, force: Bool) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".chatmail-\(UUID().uuidString).tmp")
        try create(temporary, with: data)
        if force {
            guard rename(temporary.path, url.path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary.path)
                throw ExportError.writeFailed(path: url.path, reason: reason)
            }
            return
        }
        let linked = link(temporary.path, url.path) == 0
        let error = errno
        unlink(temporary.path)
        if linked { return }
        if error == EEXIST { throw ExportError.wouldOverwrite(path: url.path, count: 1) }
        // File systems without hard links (FAT on a USB stick, some network shares): create the file
        // itself, still exclusively, at the cost of a short file under its name if the export is killed.
        guard [EPERM, ENOTSUP, EMLINK, ENOSYS].contains(error) else {
            throw ExportError.writeFailed(path: url.path, reason: String(cString: strerror(error)))
        }
        try create(url, with: data)
    }

    /// Creates `url` (mode 0666 less the umask, so 0600 under chatmail's 077) and writes `data` to it.
    private static func create(_ url: URL, with data: Data) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            if errno == EEXIST || errno == ELOOP { throw ExportError.wouldOverwrite(path: url.path, count: 1) }
            throw ExportError.writeFailed(path: url.path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    unlink(url.path)
                    throw ExportError.writeFailed(path: url.path, reason: reason)
                }
                offset += written
            }
        }
    }

    /// Creates the folders `components` below `base`, one level at a time, and returns the innermost.
    /// A component that exists must be a real directory: a symbolic link (to somewhere outside the
    /// export) is refused, not followed.
    static func makeDirectories(_ components: [String], in base: URL) throws -> URL {
        var url = base
        for component in components {
            url = url.appendingPathComponent(component, isDirectory: true)
            if mkdir(url.path, 0o777) == 0 { continue }
            guard errno == EEXIST else { throw ExportError.writeFailed(path: url.path, reason: String(cString: strerror(errno))) }
            var status = stat()
            guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                throw ExportError.writeFailed(
                    path: url.path, reason: "it exists and is not a directory (the export does not follow symbolic links)")
            }
        }
        return url
    }

    static func makeDirectory(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw ExportError.notADirectory(url.path) }
            return
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ExportError.writeFailed(path: url.path, reason: error.localizedDescription)
        }
    }
}
