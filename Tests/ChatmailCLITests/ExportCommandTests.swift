import ChatmailStore
import ChatmailTestSupport
import CommonMarkTestSupport
import Foundation
import GRDB
import GmailModel
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct ExportCommandTests {
    @Test("export <person> writes one conversation to stdout: front matter, a section per message, every text")
    func stdout() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["export", "alice@example.com"])
        #expect(result.status == 0, "\(result.stderr)")
        let (front, body) = try await parseExport(result.stdout)
        #expect(front.contains("title: \"Alice Liddell\""))
        #expect(front.contains("messageCount: 3"))
        #expect(front.contains("firstMessageAt: \"2025-03-02T12:00:00+00:00\""))
        #expect(front.contains("chatmailVersion: \"0.1.0\""))
        #expect(!front.contains { $0.hasPrefix("exportedAt") })
        #expect(try body.headings() == [1: 1, 2: 2, 3: 3])
        for text in ["Lunch on Friday?", "Yes, noon works.", "See you there!", "map.png"] {
            #expect(body.compactText().contains(text.filter { !$0.isWhitespace }))
        }
        #expect(try body.rawHTML() == ["<a id=\"a1\">", "</a>", "<a id=\"a2\">", "</a>", "<a id=\"a3\">", "</a>"])
        // Only the one-line note that Alice is also in a group.
        #expect(
            result.stderr.hasPrefix("chatmail: using the one-to-one chat with Alice Liddell")
                && result.stderr.split(separator: "\n").count == 1)
    }

    @Test("--stamp records the export time; without it two exports are byte-identical")
    func stamp() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let first = try await fixture.run(["export", "alan"])
        let second = try await fixture.run(
            ["export", "alan"], environment: ["CHATMAIL_NOW_MS": String(CLIFixture.now + 86_400_000)])
        #expect(first.status == 0 && first.stdout == second.stdout)
        let stamped = try await fixture.run(["export", "alan", "--stamp"])
        #expect(stamped.stdout.contains("\nexportedAt: \"2025-03-05T12:00:00+00:00\"\n"))
    }

    @Test(
        "export --all -o DIR: one file per conversation and an index; a file changed since is not overwritten without --force, which writes the same bytes"
    )
    func all() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup
        let out = scratch.appendingPathComponent("vault")

        let first = try await fixture.run(["export", "--all", "-o", out.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "Exported 4 conversations (6 messages) to \(out.path); start at index.md.\n")
        #expect(first.stderr.isEmpty)  // no progress line when stderr is not a terminal
        let files = try filesUnder(out)
        #expect(Set(files.keys) == ["index.md", "alice-liddell.md", "alice-bob.md", "alan-turing.md", "shop-news.md"])
        for (name, data) in files {
            let (_, body) = try await parseExport(String(decoding: data, as: UTF8.self))
            #expect(try body.count("html_block") == 0, "\(name)")
            if name == "index.md" {
                #expect(Set(try body.linkDestinations()) == Set(files.keys).subtracting(["index.md"]))
            }
        }

        // A file that differs from the export, without --force: nothing is touched, and the error says why in one line.
        try Data("my own notes".utf8).write(to: out.appendingPathComponent("alan-turing.md"))
        let again = try await fixture.run(["export", "--all", "-o", out.path])
        #expect(again.status == 1)
        #expect(
            again.stderr.hasPrefix("chatmail: ") && again.stderr.contains("already exist")
                && again.stderr.contains("--force"))
        #expect(again.stderr.split(separator: "\n").count == 1)
        var expected = files
        expected["alan-turing.md"] = Data("my own notes".utf8)
        #expect(try filesUnder(out) == expected)

        // --force: the same bytes as the first export, and files it does not write are left alone.
        try Data("unrelated".utf8).write(to: out.appendingPathComponent("notes.txt"))
        let forced = try await fixture.run(["export", "--all", "-o", out.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        expected = files
        expected["notes.txt"] = Data("unrelated".utf8)
        #expect(try filesUnder(out) == expected)
    }

    @Test("on a terminal, --all shows its progress on stderr and clears it")
    func progressOnTerminal() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup
        let out = scratch.appendingPathComponent("out")
        // script(1) gives the command a pseudo-terminal for stdout and stderr.
        let command = [CLIFixture.executable.path, "--home", fixture.home.path, "export", "--all", "-o", out.path]
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let result: RunResult = try await offThePool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qec", command, "/dev/null"]
            var environment = ProcessInfo.processInfo.environment
            environment["CHATMAIL_NOW_MS"] = String(CLIFixture.now)
            environment["TZ"] = "UTC"
            process.environment = environment
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return RunResult(
                status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: ""
            )
        }
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("Exporting… 4/4 conversations"))
        #expect(result.stdout.contains("\r\u{1B}[K"))  // the progress line is cleared before the summary
        #expect(result.stdout.contains("Exported 4 conversations"))
    }

    @Test("--people, --newsletters and --since choose conversations")
    func filters() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup
        let cases: [([String], Set<String>)] = [
            (["--newsletters"], ["shop-news.md"]),
            (["--people"], ["alice-liddell.md", "alice-bob.md", "alan-turing.md"]),
            (["--since", "2025-03-04"], ["alice-liddell.md", "alan-turing.md"]),
        ]
        for (index, (arguments, names)) in cases.enumerated() {
            let out = scratch.appendingPathComponent("out\(index)")
            let result = try await fixture.run(["export", "--all", "-o", out.path] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(Set(try filesUnder(out).keys) == names.union(["index.md"]), "\(arguments)")
        }
        let bad = try await fixture.run(["export", "--all", "-o", scratch.path, "--since", "yesterday"])
        #expect(bad.status == 64)
    }

    @Test("hostile names: no traversal, no reserved names, collisions get a suffix, everything stays inside DIR")
    func fileNameAttacks() async throws {
        let fixture = try CLIFixture()
        let people = [
            EmailAddress(address: "a@evil.example", name: "../../../tmp/pwned"),
            EmailAddress(address: "b@evil.example", name: "index"),
            EmailAddress(address: "c@evil.example", name: "CON"),
            EmailAddress(address: "d@evil.example", name: "Same Name"),
            EmailAddress(address: "e@evil.example", name: "same name"),
            EmailAddress(address: "f@evil.example", name: "\u{0}\u{1B}]0;x\u{7}.."),
            EmailAddress(address: "g@evil.example", name: String(repeating: "long ", count: 100)),
        ]
        try await fixture.store.write { tx in
            let account = try tx.ensureAccount(email: "me@example.org")
            var touched = Set<ConversationID>()
            for (index, person) in people.enumerated() {
                let input = MessageInput(
                    gmailID: "m\(index)", threadID: "t\(index)", internalDateMs: CLIFixture.now - Int64(index) * 1000,
                    from: person,
                    to: [EmailAddress(address: "me@example.org", name: nil)], subject: "hi", bodyText: "hello \(index)",
                    labelIDs: ["INBOX"])
                touched.formUnion(try tx.upsert(input, in: account).affectedConversations)
            }
            try tx.recomputeRollups(for: touched)
        }
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup
        let out = scratch.appendingPathComponent("out")
        let result = try await fixture.run(["export", "--all", "-o", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        // Nothing was created beside the export directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out"])
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: out.path))
        #expect(names.contains("tmp-pwned.md") && names.contains("index-chat.md") && names.contains("con-chat.md"))
        #expect(names.contains("same-name.md") && names.contains("same-name-2.md"))
        // A name made only of controls and dots is no name: the title falls back to the address.
        #expect(names.contains("f-evil-example.md"))
        #expect(names.count == people.count + 1)
        for name in names {
            #expect(
                name.utf8.count <= 100 && !name.hasPrefix(".") && name.unicodeScalars.allSatisfy { $0.value >= 0x20 },
                "\(name)")
        }
        // Conversations are named in id order, so the older "Same Name" keeps the plain name.
        let same = String(decoding: try Data(contentsOf: out.appendingPathComponent("same-name.md")), as: UTF8.self)
        #expect(same.contains("d@evil.example"))
    }

    @Test("-o FILE: an existing file is kept unless --force; a directory where a file is needed is an error")
    func singleFile() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup
        let file = scratch.appendingPathComponent("alice.md")
        #expect(try await fixture.run(["export", "alice@example.com", "-o", file.path]).status == 0)
        let exported = try Data(contentsOf: file)
        try Data("keep me".utf8).write(to: file)
        let refused = try await fixture.run(["export", "alice@example.com", "-o", file.path])
        #expect(refused.status == 1 && refused.stderr.contains("\(file.path) already exists"))
        #expect(try Data(contentsOf: file) == Data("keep me".utf8))
        // A dangling symbolic link counts as existing: it is never followed to create its target.
        let link = scratch.appendingPathComponent("link.md")
        try FileManager.default.createSymbolicLink(
            atPath: link.path, withDestinationPath: scratch.appendingPathComponent("target.md").path)
        #expect(try await fixture.run(["export", "alice@example.com", "-o", link.path]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("target.md").path))

        #expect(try await fixture.run(["export", "alice@example.com", "-o", file.path, "--force"]).status == 0)
        #expect(try Data(contentsOf: file) == exported)
        #expect(try await fixture.run(["export", "--all", "-o", file.path, "--force"]).status == 64)
        // -o naming a directory: a one-line error that does not suggest --force, which could not help.
        for arguments in [
            ["export", "alice@example.com", "-o", scratch.path],
            ["export", "alice@example.com", "-o", scratch.path, "--force"],
        ] {
            let directory = try await fixture.run(arguments)
            #expect(
                directory.status == 1 && directory.stderr.contains("is a directory")
                    && !directory.stderr.contains("--force"), "\(directory.stderr)")
        }
    }

    @Test("usage errors exit 64; --attachments without a login exits 3 before writing anything")
    func errors() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        #expect(try await fixture.run(["export"]).status == 64)
        #expect(try await fixture.run(["export", "--all"]).status == 64)
        #expect(try await fixture.run(["export", "alice", "--all", "-o", "/tmp/x"]).status == 64)
        #expect(try await fixture.run(["export", "nobody-at-all"]).status == 2)
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup
        let out = scratch.appendingPathComponent("out")
        let result = try await fixture.run(["export", "--all", "-o", out.path, "--attachments"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("chatmail login"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
