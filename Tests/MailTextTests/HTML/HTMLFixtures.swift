import Foundation

/// Loads the realistic HTML mails in `Fixtures/html/`, found relative to this source file.
enum HTMLFixtures {
    static let names = ["gmail-reply", "outlook-reply", "apple-mail-reply", "newsletter"]

    static var directory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/html")
    }

    static func load(_ name: String) throws -> String {
        try String(contentsOf: self.directory.appendingPathComponent(name + ".html"), encoding: .utf8)
    }
}
