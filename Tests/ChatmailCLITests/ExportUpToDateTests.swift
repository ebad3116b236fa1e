import ChatmailStore
import ChatmailTestSupport
import Foundation
import Testing

/// Exporting unchanged data again is a success that leaves the files alone; only a file whose content
/// would change needs --force.
@Suite struct ExportUpToDateTests {
    /// A time stamp no export writes: a file rewritten by the second run can only show a later one,
    /// however quickly the two runs follow each other.
    static let backdated = Date(timeIntervalSince1970: 1_000_000_000)

    /// Sets every file under `paths` to ``backdated``.
    func backdate(_ paths: [URL]) throws {
        for path in paths {
            try FileManager.default.setAttributes([.modificationDate: Self.backdated], ofItemAtPath: path.path)
        }
    }

    func modificationDates(_ directory: URL) throws -> [String: Date] {
        var dates: [String: Date] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            dates[name] =
                try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)[
                    .modificationDate] as? Date
        }
        return dates
    }

    @Test(
        "export --all twice: the second run exits 0, says the conversations are up to date and leaves every file untouched"
    )
    func allTwice() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup
        let out = scratch.appendingPathComponent("vault")
        #expect(try await fixture.run(["export", "--all", "-o", out.path]).status == 0)
        let files = try filesUnder(out)
        try backdate(try FileManager.default.contentsOfDirectory(atPath: out.path).map(out.appendingPathComponent))
        let dates = try modificationDates(out)
        #expect(Set(dates.values) == [Self.backdated])

        let again = try await fixture.run(["export", "--all", "-o", out.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "4 conversations in \(out.path) already up to date; start at index.md.\n")
        #expect(again.stderr.isEmpty)
        #expect(try filesUnder(out) == files)
        #expect(try modificationDates(out) == dates)
    }

    @Test("after new mail, the changed conversation and the index need --force, which rewrites only them")
    func newMail() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup
        let out = scratch.appendingPathComponent("vault")
        #expect(try await fixture.run(["export", "--all", "-o", out.path]).status == 0)
        let before = try filesUnder(out)
        try await fixture.store.write { tx in
            let account = try tx.ensureAccount(email: "me@example.org")
            let reply = MessageInput(
                gmailID: "l2", threadID: "t-l2", internalDateMs: CLIFixture.now - 60_000,
                from: EmailAddress(address: "alan@example.org", name: "Alan Turing"),
                to: [EmailAddress(address: "me@example.org")],
                subject: "Subject l2", bodyText: "A second thought.", isNewsletter: false, labelIDs: ["INBOX"],
                attachments: [])
            try tx.recomputeRollups(for: try tx.upsert(reply, in: account).affectedConversations)
        }

        let refused = try await fixture.run(["export", "--all", "-o", out.path])
        #expect(refused.status == 1)
        #expect(
            refused.stderr == """
                chatmail: \(out.appendingPathComponent("index.md").path) and 1 more already exist and differ from what the export would \
                write; nothing was written. Use --force to rewrite them.

                """)
        #expect(try filesUnder(out) == before)

        let forced = try await fixture.run(["export", "--all", "-o", out.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(
            forced.stdout
                == "Exported 1 conversation (2 messages) to \(out.path); 3 more already up to date; start at index.md.\n"
        )
        let after = try filesUnder(out)
        #expect(Set(after.keys) == Set(before.keys))
        #expect(after.filter { before[$0.key] != $0.value }.keys.sorted() == ["alan-turing.md", "index.md"])
    }

    @Test("export <person> -o FILE twice: the second run leaves the file alone and exits 0")
    func singleFileTwice() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let scratch = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup
        let file = scratch.appendingPathComponent("alice.md")
        #expect(try await fixture.run(["export", "alice@example.com", "-o", file.path]).status == 0)
        try backdate([file])
        let again = try await fixture.run(["export", "alice@example.com", "-o", file.path])
        // Alice is also in a group: the only line on stderr is the note saying which chat was used.
        let notes = again.stderr.split(separator: "\n")
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stderr)")
        #expect(notes.count == 1 && notes[0].hasPrefix("chatmail: using the one-to-one chat"), "\(again.stderr)")
        #expect(
            try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == Self.backdated)
    }
}
