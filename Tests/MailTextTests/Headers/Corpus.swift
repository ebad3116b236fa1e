import Foundation
import Testing

/// The e-mail corpus the sweep tests read (2,226 `.eml` files from 29 public test suites), kept in
/// `Fixtures/corpus` with its sources and licences so that a fresh clone tests the same mail.
enum Corpus {
    /// `Fixtures/corpus` of the repository, resolved from this file so the working directory does not
    /// matter.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Headers
        .deletingLastPathComponent()  // MailTextTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the repository
        .appendingPathComponent("Fixtures/corpus")

    /// Every `.eml` file under the corpus, sorted by path so failures are reproducible.
    ///
    /// A missing corpus is a failure, not a skip: it is part of the repository, and a sweep over zero
    /// files would pass without testing anything.
    static func emlFiles(sourceLocation: SourceLocation = #_sourceLocation) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            Issue.record("the corpus is missing at \(root.path)", sourceLocation: sourceLocation)
            return []
        }
        var files: [URL] = []
        for case let url as URL in walker where url.pathExtension == "eml" { files.append(url) }
        if files.count < 2000 {
            Issue.record(
                "expected the 2,226-message corpus at \(root.path), found \(files.count) files",
                sourceLocation: sourceLocation)
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The bytes of one corpus file given by its path relative to the corpus root.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(relativePath)))
    }
}
