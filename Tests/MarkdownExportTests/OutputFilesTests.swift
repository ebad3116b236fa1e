import ChatmailTestSupport
import Foundation
import Testing

@testable import MarkdownExport

@Suite struct OutputFilesTests {
    /// Watches `url` from another thread while `data` is written to it, and returns every size seen.
    func sizesSeen(writing data: Data, to url: URL, force: Bool) async throws -> Set<Int> {
        let sizes = LockedSizes()
        let watcher = Thread {
            while !sizes.stopped {
                var status = stat()
                if stat(url.path, &status) == 0 { sizes.insert(Int(status.st_size)) }
            }
        }
        watcher.start()
        try OutputFiles.write(data, to: url, force: force)
        sizes.stop()
        return sizes.values
    }

    @Test("a file appears under its name only when complete, with or without --force, and no temporary file stays")
    func neverPartial() async throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let data = Data(repeating: 0x61, count: 48 << 20)
        let file = dir.appendingPathComponent("big.md")
        for force in [false, true] {
            let sizes = try await sizesSeen(writing: data, to: file, force: force)
            // Before: nothing (first write) or the previous complete file; after: the complete file.
            #expect(sizes.isSubset(of: [data.count]), "sizes seen under the final name: \(sizes.sorted())")
            #expect(try Data(contentsOf: file) == data)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["big.md"])
        // Without --force an existing name is refused, and the temporary copy is removed again.
        #expect(throws: ExportError.wouldOverwrite(path: file.path, count: 1)) {
            try OutputFiles.write(Data("other".utf8), to: file, force: false)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["big.md"])
        #expect(try Data(contentsOf: file) == data)
    }

    @Test("symbolic links are never followed: not as the file, not as a folder on the way to it")
    func symbolicLinks() throws {
        let dir = try scratchDirectory()
        let elsewhere = try scratchDirectory()
        defer {
            try? FileManager.default.removeItem(at: dir)  // best-effort cleanup
            try? FileManager.default.removeItem(at: elsewhere)  // best-effort cleanup
        }
        // DIR/attachments → a folder outside the export: refused, and nothing is created there.
        try FileManager.default.createSymbolicLink(
            at: dir.appendingPathComponent("attachments"), withDestinationURL: elsewhere)
        #expect(throws: ExportError.self) { try OutputFiles.makeDirectories(["attachments", "alice"], in: dir) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == [])
        // Real folders are created, or reused when they exist.
        let folder = try OutputFiles.makeDirectories(["files", "alice"], in: dir)
        #expect(folder.path == dir.appendingPathComponent("files/alice").path)
        #expect(try OutputFiles.makeDirectories(["files", "alice"], in: dir).path == folder.path)
        // A link as the file itself: refused without --force; replaced (not followed) with it.
        let link = dir.appendingPathComponent("note.md")
        let target = elsewhere.appendingPathComponent("target.md")
        try Data("theirs".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(throws: ExportError.wouldOverwrite(path: link.path, count: 1)) {
            try OutputFiles.write("mine", to: link, force: false)
        }
        try OutputFiles.write("mine", to: link, force: true)
        #expect(try String(contentsOf: target, encoding: .utf8) == "theirs")
        #expect(try String(contentsOf: link, encoding: .utf8) == "mine")
        #expect(
            try FileManager.default.attributesOfItem(atPath: link.path)[.type] as? FileAttributeType == .typeRegular)
    }
}

/// Sizes seen by the watcher thread, and its stop flag.
final class LockedSizes: @unchecked Sendable {
    private let lock = NSLock()
    private var sizes: Set<Int> = []
    private var done = false

    var stopped: Bool { lock.withLock { done } }
    var values: Set<Int> { lock.withLock { sizes } }
    func insert(_ size: Int) { lock.withLock { _ = sizes.insert(size) } }
    func stop() { lock.withLock { done = true } }
}
