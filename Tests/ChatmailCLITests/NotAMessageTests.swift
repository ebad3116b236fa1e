import ChatmailTestSupport
import Foundation
import Testing

/// Runs `chatmail` with `input` as its stdin, on a dedicated thread like ``CLIFixture/run(_:environment:)``.
func runChatmail(_ arguments: [String], input: Data) async throws -> RunResult {
    try await offThePool {
        let process = Process()
        process.executableURL = CLIFixture.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"
        environment.removeValue(forKey: "CHATMAIL_HOME")
        process.environment = environment
        let stdin = Pipe()
        let out = Pipe()
        let err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: input)
        try stdin.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Files of `name: value` lines that are not mail (`/etc/passwd`) must not become messages.
@Suite struct NotAMessageTests {
    static let passwd = """
        root:x:0:0:root:/root:/bin/bash
        daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
        bin:x:2:2:bin:/bin:/usr/sbin/nologin

        """
    static let reason = "is not an email message: it has no email header"
    static let message =
        "From: Alice <alice@example.com>\nTo: me@example.org\nSubject: hi\nDate: Tue, 4 Mar 2025 10:00:00 +0000\n\nHello.\n"

    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-notmail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("import of a file that is not mail exits 65 with one line naming it, and creates nothing")
    func importRefused() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let file = dir.appendingPathComponent("passwd")
        try Data(Self.passwd.utf8).write(to: file)
        let home = dir.appendingPathComponent("home")
        let result = try await CLIFixture.run(["import", file.path, "--home", home.path, "--me", "me@example.org"])
        #expect(result.status == 65)
        #expect(
            result.stderr
                == "chatmail: \(file.path) \(Self.reason) (From, To, Date, Subject, Message-ID, Received, Content-Type…).\n"
        )
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.path))
    }

    @Test("view of a file or stdin that is not mail exits 65; with --body it is read as a bare body")
    func viewRefused() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let file = dir.appendingPathComponent("passwd")
        try Data(Self.passwd.utf8).write(to: file)
        let viewed = try await CLIFixture.run(["view", file.path])
        #expect(viewed.status == 65 && viewed.stdout.isEmpty)
        #expect(
            viewed.stderr.hasPrefix("chatmail: \(file.path) \(Self.reason)")
                && viewed.stderr.split(separator: "\n").count == 1, "\(viewed.stderr)")
        let piped = try await runChatmail(["view", "-"], input: Data(Self.passwd.utf8))
        #expect(piped.status == 65)
        #expect(piped.stderr.hasPrefix("chatmail: stdin \(Self.reason)"), "\(piped.stderr)")
        let body = try await runChatmail(["view", "-", "--body", "text", "--json"], input: Data(Self.passwd.utf8))
        #expect(body.status == 0, "\(body.stderr)")
        #expect(((try body.json() as? [String: Any])?["text"] as? String)?.contains("root:x:0:0") == true)
        let mail = try await runChatmail(["view", "-", "--json"], input: Data(Self.message.utf8))
        #expect(mail.status == 0, "\(mail.stderr)")
    }

    @Test("a directory import skips the file that is not mail, names it on stderr, and imports the rest")
    func directorySkips() async throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        let mail = dir.appendingPathComponent("mail")
        try FileManager.default.createDirectory(at: mail, withIntermediateDirectories: true)
        try Data(Self.message.utf8).write(to: mail.appendingPathComponent("a.eml"))
        try Data(Self.passwd.utf8).write(to: mail.appendingPathComponent("passwd.eml"))
        let home = dir.appendingPathComponent("home")
        let result = try await CLIFixture.run(["import", mail.path, "--home", home.path, "--me", "me@example.org"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix("chatmail: skipped passwd.eml: not an email message: it has no email header"),
            "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(
            result.stdout.hasPrefix("Imported 2 messages: 1 new, 0 already stored, 1 skipped (not email messages)."),
            "\(result.stdout)")
        let conversations = try await CLIFixture.run(["conversations", "--all", "--json", "--home", home.path])
        #expect((try conversations.json() as? [[String: Any]])?.map { $0["title"] as? String } == ["Alice"])
    }
}
