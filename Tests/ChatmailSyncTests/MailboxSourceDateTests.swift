import Foundation
import Testing

@testable import ChatmailSync

/// The file date an import falls back on, read with `lstat`, against `FileManager`, which it replaced.
@Suite struct MailboxSourceDateTests {
    static func fileManagerDateMs(_ path: String) -> Int64? {
        guard let date = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else {
            return nil
        }
        return Int64(date.timeIntervalSince1970 * 1000)
    }

    @Test("every corpus file, a symbolic link, sub-millisecond times and a missing file give FileManager's date")
    func sameAsFileManager() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-dates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        var paths: [String] = []
        for (index, nanoseconds) in [0, 1, 499_999, 500_000, 999_999, 123_456_789, 999_999_999].enumerated() {
            let file = dir.appendingPathComponent("\(index).eml").path
            try Data("From: a@example.com\n\nx\n".utf8).write(to: URL(fileURLWithPath: file))
            var times = [
                timespec(tv_sec: 1_700_000_000 + index * 7919, tv_nsec: nanoseconds),
                timespec(tv_sec: 1_700_000_000 + index * 7919, tv_nsec: nanoseconds),
            ]
            #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
            paths.append(file)
        }
        // A link has a time of its own, which FileManager reports rather than its target's.
        let link = dir.appendingPathComponent("link.eml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: paths[0])
        var linkTimes = [timespec(tv_sec: 1_600_000_000, tv_nsec: 250), timespec(tv_sec: 1_600_000_000, tv_nsec: 250)]
        #expect(utimensat(AT_FDCWD, link, &linkTimes, AT_SYMLINK_NOFOLLOW) == 0)
        paths += [link, dir.appendingPathComponent("missing.eml").path]
        let corpus = FileManager.default.enumerator(atPath: corpusRoot.path)?.compactMap { $0 as? String } ?? []
        #expect(corpus.count > 2000)
        paths += corpus.map { corpusRoot.appendingPathComponent($0).path }
        for path in paths {
            #expect(MailboxSource.modificationDateMs(path) == Self.fileManagerDateMs(path), "\(path)")
        }
    }
}
