import ArgumentParser
import Foundation

/// Where the text of `reply` and `send` comes from: `-m`, else `--file`, else standard input when it is
/// not a terminal, else `$VISUAL` / `$EDITOR` on a temporary file, as `git commit` does.
struct MessageTextOptions: ParsableArguments {
    @Option(name: [.customShort("m"), .customLong("message")], help: "The text to send.") var message: String?
    @Option(help: ArgumentHelp("Read the text from this file (`-` for standard input).", valueName: "file"))
    var file: String?

    func validate() throws {
        if message != nil && file != nil { throw ValidationError("Give -m TEXT or --file FILE, not both.") }
    }
}

enum MessageTextInput {
    /// Lines starting with this are the editor's help comment and are dropped, as in `git commit`.
    static let commentPrefix = "#"

    /// The text to send, trimmed of trailing blank lines and whitespace at the end.
    /// - parameter help: the comment shown in the editor (each line is prefixed with `# `).
    /// - throws: ``CommandError/emptyMessage`` for empty text; ``CommandError/badInput(_:)`` for an
    ///   unreadable file; ``CommandError/editorFailed(_:)``.
    static func read(_ options: MessageTextOptions, environment: [String: String], help: [String]) throws -> String {
        let text: String
        if let message = options.message {
            text = message
        } else if let file = options.file {
            text = try readFile(file)
        } else if isatty(STDIN_FILENO) != 1 {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            text = try edit(environment: environment, help: help)
        }
        let trimmed = trimmingEnd(text)
        guard !trimmed.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw CommandError.emptyMessage }
        return trimmed
    }

    static func readFile(_ path: String) throws -> String {
        if path == "-" { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError.badInput("\(EchoedInput.quoted(path)) cannot be read")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Opens the user's editor on a temporary file holding the help comment, and returns what they wrote
    /// without the comment lines.
    static func edit(environment: [String: String], help: [String], initialText: String = "") throws -> String {
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer {
            // A scratch copy of what was typed; the queued message is in the store.
            try? FileManager.default.removeItem(at: directory)
        }
        let file = directory.appendingPathComponent("MESSAGE.txt")
        let comment = help.isEmpty ? "" : "\n" + help.map { "\(commentPrefix) \($0)" }.joined(separator: "\n") + "\n"
        try Data((initialText + comment).utf8).write(to: file)
        // Through the shell, as git does, so EDITOR="code --wait" or an editor with flags works.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", editor + " \"$1\"", editor, file.path]
        do {
            try process.run()
        } catch {
            throw CommandError.editorFailed("\(EchoedInput.quoted(editor)) could not be started")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandError.editorFailed(
                "\(EchoedInput.quoted(editor)) exited with status \(process.terminationStatus)")
        }
        let written: String
        do {
            written = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        } catch {
            throw CommandError.editorFailed("the edited file could not be read back")
        }
        // Without a help comment (the app's Ctrl-E), every line is the user's, `#` or not.
        guard !help.isEmpty else { return written }
        return written.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix(commentPrefix) }.joined(separator: "\n")
    }

    /// The text without trailing whitespace on its last lines.
    static func trimmingEnd(_ text: String) -> String {
        var lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map(String.init)
        while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
