import Foundation
import MailText

/// What `view`, `sanitize`, `rules test` and `rules import` read: a file, or stdin when the path is `-`.
enum CommandInput {
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        guard FileManager.default.fileExists(atPath: path) else { throw CommandError.badInput("\(path): no such file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError.badInput("\(path): cannot be read")
        }
        return [UInt8](data)
    }

    static func name(_ path: String) -> String { path == "-" ? "stdin" : path }

    /// The input as text (UTF-8, invalid bytes replaced), refusing empty input.
    static func nonEmptyText(_ bytes: [UInt8], what: String) throws -> String {
        let text = CharsetDecoder.decode(bytes, charset: nil)
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw CommandError.badInput("the \(what) input is empty")
        }
        return text
    }
}
