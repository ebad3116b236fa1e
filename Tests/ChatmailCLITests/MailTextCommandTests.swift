import ChatmailTestSupport
import Foundation
import Testing

/// The package root, for fixtures and the corpus.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Writes `text` to a temporary file and returns its path.
func temporaryFile(_ contents: String, extension ext: String = "eml") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-\(UUID().uuidString).\(ext)")
    try Data(contents.utf8).write(to: url)
    return url
}

@Suite struct ViewCommandTests {
    static let reply = """
        From: =?UTF-8?Q?Ren=C3=A9e?= <renee@example.com>\r
        To: Bob <bob@example.org>\r
        Subject: =?UTF-8?B?UmU6IGx1bmNoIOKYlQ==?=\r
        Date: Tue, 3 Mar 2025 14:02:00 +0000\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        Noon works for me.\r
        \r
        On Mon, 2 Mar 2025 at 10:00, Bob <bob@example.org> wrote:\r
        > Lunch tomorrow?\r
        > We could try the new place.\r
        """

    @Test("view --json decodes headers, strips the quote and keeps the original for --full")
    func json() async throws {
        let file = try temporaryFile(Self.reply)
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup
        let result = try await CLIFixture.run(["view", file.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try result.json() as? [String: Any])
        #expect(
            Set(object.keys) == [
                "from", "to", "cc", "subject", "date", "text", "quotedTextRemoved", "isNewsletter",
                "newsletterReasons", "attachments", "sanitizedHtml",
            ])
        #expect((object["from"] as? [String: Any])?["name"] as? String == "Renée")
        #expect(object["subject"] as? String == "Re: lunch ☕")
        #expect(object["date"] as? String == "2025-03-03T14:02:00+00:00")
        #expect(object["text"] as? String == "Noon works for me.")
        #expect(object["quotedTextRemoved"] as? Bool == true)
        let full = try #require(
            try await CLIFixture.run(["view", file.path, "--json", "--full"]).json() as? [String: Any])
        #expect((full["text"] as? String)?.contains("> Lunch tomorrow?") == true)
    }

    @Test("view reads stdin and renders a bubble")
    func stdin() async throws {
        let process = Process()
        process.executableURL = CLIFixture.executable
        process.arguments = ["view", "-", "--color", "never", "--width", "60"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(Self.reply.utf8))
        try input.fileHandleForWriting.close()
        let text = try await offThePool {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
        #expect(process.terminationStatus == 0)
        #expect(text.contains("Renée · 14:02"))
        #expect(text.contains("Noon works for me."))
        #expect(text.contains("[…]"))
        #expect(!text.contains("Lunch tomorrow?"))
    }

    @Test(
        "input that is not an email exits 65 with one line",
        arguments: [
            ("", "is not an email message: it is empty"),
            ("just a line of text without any header\n", "is not an email message: it has no header fields"),
        ])
    func notEmail(contents: String, reason: String) async throws {
        let file = try temporaryFile(contents)
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup
        let result = try await CLIFixture.run(["view", file.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("binary input and missing files exit 65")
    func binaryAndMissing() async throws {
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-\(UUID().uuidString).png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]).write(to: binary)
        defer { try? FileManager.default.removeItem(at: binary) }  // best-effort cleanup
        #expect(try await CLIFixture.run(["view", binary.path]).status == 65)
        #expect(try await CLIFixture.run(["view", "/nonexistent/message.eml"]).status == 65)
    }

    @Test("--body html and --body text treat the input as a bare body")
    func bareBodies() async throws {
        let html = try temporaryFile("<div>Hi <b>there</b><script>alert(1)</script></div>", extension: "html")
        defer { try? FileManager.default.removeItem(at: html) }  // best-effort cleanup
        let object = try #require(
            try await CLIFixture.run(["view", html.path, "--body", "html", "--json"]).json() as? [String: Any])
        #expect(object["text"] as? String == "Hi there")
        #expect((object["sanitizedHtml"] as? String)?.contains("script") == false)
        #expect(object["from"] is NSNull)
    }

    @Test("escape sequences in a subject never reach the terminal")
    func hostileSubject() async throws {
        let file = try temporaryFile(
            "From: x@example.com\r\nSubject: =?UTF-8?B?G10wO3B3bmVkBxtbMko=?=\r\n\r\nbody \u{1B}[31mred\r\n")
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup
        for arguments in [["view", file.path, "--color", "always"], ["view", file.path, "--json"]] {
            let output = try await CLIFixture.run(arguments).stdout
            let withoutOurs = output.replacingOccurrences(
                of: #"\u{1B}\[[0-9;]*m"#, with: "", options: .regularExpression)
            #expect(!withoutOurs.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(arguments)")
        }
    }
}

@Suite struct SanitizeAndImportCommandTests {
    @Test("sanitize prints safe HTML; empty input exits 65")
    func sanitize() async throws {
        let file = try temporaryFile(
            #"<p onclick="x()">Hi <a href="javascript:alert(1)">link</a><img src="https://t.example/p.gif"></p>"#,
            extension: "html")
        defer { try? FileManager.default.removeItem(at: file) }  // best-effort cleanup
        let result = try await CLIFixture.run(["sanitize", file.path])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("onclick") && !result.stdout.contains("javascript"))
        #expect(result.stdout.contains("data-blocked-host=\"t.example\""))
        #expect(!result.stdout.contains("p.gif"))
        let empty = try temporaryFile("   \n", extension: "html")
        defer { try? FileManager.default.removeItem(at: empty) }  // best-effort cleanup
        #expect(try await CLIFixture.run(["sanitize", empty.path]).status == 65)
    }

    @Test("import needs --me the first time, then imports idempotently and the result is browsable")
    func importFlow() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-import-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }  // best-effort cleanup
        let mbox = packageRoot.appendingPathComponent("Fixtures/import/takeout.mbox").path
        let first = try await CLIFixture.run(["import", mbox, "--home", home.path])
        #expect(first.status == 64)
        #expect(first.stderr.contains("--me"))
        let imported = try await CLIFixture.run([
            "import", mbox, "--home", home.path, "--me", "me@example.org", "--json",
        ])
        #expect(imported.status == 0, "\(imported.stderr)")
        let report = try #require(try imported.json() as? [String: Any])
        #expect(report["inserted"] as? Int == 3)
        let again = try #require(
            try await CLIFixture.run(["import", mbox, "--home", home.path, "--json"]).json() as? [String: Any])
        #expect(again["inserted"] as? Int == 0 && again["unchanged"] as? Int == 3)
        let show = try await CLIFixture.run(["show", "alice", "--home", home.path, "--json"])
        #expect(show.status == 0)
        #expect(((try show.json() as? [String: Any])?["messages"] as? [Any])?.count == 2)
        let attributes = try FileManager.default.attributesOfItem(atPath: home.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }

    @Test("importing a missing path exits 65")
    func missingPath() async throws {
        let result = try await CLIFixture.run([
            "import", "/nonexistent/mail", "--me", "me@example.org", "--home", "/tmp/chatmail-never",
        ])
        #expect(result.status == 65)
        #expect(result.stderr.contains("no such file"))
    }
}
