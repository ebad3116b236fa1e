import ChatmailStore
import Foundation
import MailText
import Testing
import TextFormatting

@testable import MarkdownExport

/// The export saves attachments through whatever fetcher it is given, with a real store and real files:
/// a download that fails is listed and left unlinked while the rest is written, and a failure the
/// fetcher says would repeat for every attachment stops the export before the conversation is written.
@Suite struct AttachmentFetchingTests {
    enum Failure: Error { case gone, loggedOut }

    /// Serves bytes by part id; a part it has no bytes for throws the error given for it.
    struct Fetcher: AttachmentFetching {
        var bytes: [String: Data]
        var errors: [String: Failure]

        func data(for source: AttachmentSource) async throws -> Data {
            if let error = errors[source.partID] { throw error }
            return try #require(bytes[source.partID])
        }

        func stopsExport(_ error: any Error) -> Bool {
            (error as? Failure) == .loggedOut
        }
    }

    static let alice = EmailAddress(address: "alice@example.com", name: "Alice Liddell")

    /// A store with one conversation with Alice: two messages, each with one attachment.
    func withStore(_ body: (ChatmailStore, Account, URL) async throws -> Void) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup of a scratch folder
        let store = try ChatmailStore(
            path: dir.appendingPathComponent("chatmail.sqlite").path, clock: { 1_700_000_000_000 },
            subjectBase: ReplySubject.topicBase)
        try seed(store)
        let account = try #require(try store.accounts().first)
        let output = dir.appendingPathComponent("export", isDirectory: true)
        try await body(store, account, output)
    }

    func seed(_ store: ChatmailStore) throws {
        let messages = [("m1", "1", "report.pdf"), ("m2", "2", "photo.jpg")].enumerated().map { index, item in
            MessageInput(
                gmailID: item.0, threadID: "t1", internalDateMs: 1_700_000_000_000 + Int64(index) * 60_000,
                from: Self.alice,
                to: [EmailAddress(address: "me@example.org")], subject: "Files", bodyText: "Here is \(item.2)",
                labelIDs: ["INBOX"],
                attachments: [
                    .init(
                        partID: item.1, filename: item.2, mimeType: "application/octet-stream", size: 3,
                        gmailAttachmentID: "a\(item.1)")
                ])
        }
        try store.write { tx in
            let account = try tx.ensureAccount(email: "me@example.org")
            let results = try messages.map { try tx.upsert($0, in: account) }
            try tx.recomputeRollups(for: Set(results.flatMap(\.affectedConversations)))
        }
    }

    func exporter(_ store: ChatmailStore, _ account: Account, _ fetcher: Fetcher) -> MarkdownExporter {
        MarkdownExporter(
            store: store, account: account, time: TimeFormatting(timeZone: .gmt, nowMs: 1_700_000_000_000),
            options: .init(version: "test"), force: false, downloader: fetcher)
    }

    @Test("a failed download is listed and left unlinked; the other attachment and the conversation are written")
    func failureIsListed() async throws {
        try await withStore { store, account, output in
            let fetcher = Fetcher(bytes: ["1": Data("PDF".utf8)], errors: ["2": .gone])
            let conversations = try store.conversations(in: account.id)
            let summary = try await exporter(store, account, fetcher).exportAll(conversations, to: output) { _, _ in }
            #expect(summary.conversations == 1 && summary.attachments == 1)
            #expect(summary.attachmentFailures.count == 1 && summary.attachmentFailures[0].hasPrefix("photo.jpg: "))
            let saved = output.appendingPathComponent("attachments/alice-liddell/report.pdf")
            #expect(FileManager.default.contents(atPath: saved.path) == Data("PDF".utf8))
            #expect(
                !FileManager.default.fileExists(
                    atPath: output.appendingPathComponent("attachments/alice-liddell/photo.jpg").path))
            let markdown = try String(contentsOf: output.appendingPathComponent("alice-liddell.md"), encoding: .utf8)
            #expect(markdown.contains("- 📎 [report.pdf](<attachments/alice-liddell/report.pdf>) ("))
            #expect(markdown.contains("- 📎 photo.jpg (") && !markdown.contains("[photo.jpg]"))
        }
    }

    @Test("a failure the fetcher says would repeat stops the export before the conversation is written")
    func stoppingFailure() async throws {
        try await withStore { store, account, output in
            let fetcher = Fetcher(bytes: ["2": Data("JPG".utf8)], errors: ["1": .loggedOut])
            let conversations = try store.conversations(in: account.id)
            await #expect(throws: Failure.loggedOut) {
                _ = try await exporter(store, account, fetcher).exportAll(conversations, to: output) { _, _ in }
            }
            #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("alice-liddell.md").path))
            #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("index.md").path))
        }
    }
}
