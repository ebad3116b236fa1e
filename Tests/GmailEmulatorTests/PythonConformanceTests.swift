import Foundation
import GmailEmulator
import Testing

/// Drives the emulator with Google's official Python client (google-api-python-client), built from the
/// discovery document: a client the project did not write, so the emulator's wire format, paging, batch
/// multipart and error bodies are checked against what real Gmail clients parse, not against our own
/// reading of the documentation. The checks live in scripts/conformance/gmail_conformance.py.
@Suite struct PythonConformanceTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The first `python3` on PATH.
    static let python: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Small, but every check has something to bite on: more messages than one page of three, a thread of
    /// three (one of them the account's own), a multipart message, a user label on unread and read mail,
    /// and senders with different message counts for `from:` search.
    static var mailbox: [(raw: [UInt8], labels: [String]?)] {
        Fixtures.mailbox + [
            (Array(Fixtures.plain(7, from: "Dana Lee <dana@example.com>").utf8), ["INBOX", "Work"]),
            (Array(Fixtures.plain(8, from: "Dana Lee <dana@example.com>").utf8), ["INBOX", "Work", "UNREAD"]),
            (
                Array(
                    Fixtures.plain(
                        9, subject: "Re: note 1",
                        extra:
                            "In-Reply-To: <note-6@example.net>\r\nReferences: <note-1@example.net> <note-6@example.net>\r\n"
                    ).utf8), nil
            ),
        ]
    }

    // Skipped only where there is no Python at all; a Python without Google's client fails instead, with
    // the command that installs it, so CI (which runs scripts/install-deps) cannot silently lose the check.
    @Test(
        "Google's Python client passes every conformance check against the emulator",
        .enabled(if: python != nil, "python3 is not installed"), .timeLimit(.minutes(5)))
    func googlePythonClient() async throws {
        let python = try #require(PythonConformanceTests.python)
        var configuration = EmulatorConfiguration()
        configuration.mailbox = .messages(PythonConformanceTests.mailbox)
        let running = try await EmulatorServer.start(configuration)
        let result: (status: Int32, output: String)
        do {
            result = try await PythonConformanceTests.run(python, arguments: [running.baseURL])
        } catch {
            await running.shutdown()
            throw error
        }
        await running.shutdown()

        let lines = result.output.split(separator: "\n").map(String.init)
        if result.output.contains("FAIL import") {
            Issue.record("google-api-python-client is missing: run scripts/install-deps\n\(result.output)")
            return
        }
        for line in lines where line.hasPrefix("FAIL") { Issue.record("\(line)") }
        #expect(result.status == 0, "gmail_conformance.py exited \(result.status):\n\(result.output)")
        // Guards against a run that stopped early or checked nothing.
        #expect(lines.filter { $0.hasPrefix("ok ") }.count >= 19, "\(result.output)")
    }

    /// Runs the conformance script to its end; output goes through a file, so no pipe can fill up and stall it.
    static func run(_ python: URL, arguments: [String]) async throws -> (status: Int32, output: String) {
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gmail-conformance-\(UUID().uuidString).txt")
        guard FileManager.default.createFile(atPath: outputURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: outputURL.path])
        }
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let output = try FileHandle(forWritingTo: outputURL)
        let process = Process()
        process.executableURL = python
        process.arguments =
            [packageRoot.appendingPathComponent("scripts/conformance/gmail_conformance.py").path] + arguments
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try output.close()
        let text = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
        return (status, text)
    }
}
