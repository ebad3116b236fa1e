import Foundation
import Testing

@testable import ChatmailCLI

/// The demo's mailbox: the shipped one is stored by name and found beside the binary on every run;
/// one chosen with `--mailbox` is stored as its path.
@Suite struct DemoMailboxTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the shipped mailbox is the resource bundle beside the executable, with the fixture's files")
    func shippedMailbox() throws {
        let directory = try DemoHome(mailbox: DemoHome.builtinMailbox, me: "x@example.com").mailboxDirectory()
        #expect(directory.path.contains("chatmail_ChatmailDemoMailbox.resources"))
        let shipped = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let source = try FileManager.default.contentsOfDirectory(
            atPath: Self.repositoryRoot.appendingPathComponent("Fixtures/demo-mailbox").path
        ).sorted()
        #expect(shipped == source)
    }

    @Test("a stored path is used as it is, and a missing one is reported")
    func storedPath() throws {
        let missing = "/nonexistent/demo-mailbox"
        #expect(throws: DemoError.self) { try DemoHome(mailbox: missing, me: "x@example.com").mailboxDirectory() }
        let fixture = Self.repositoryRoot.appendingPathComponent("Fixtures/demo-mailbox").path
        #expect(try DemoHome(mailbox: fixture, me: "x@example.com").mailboxDirectory().path == fixture)
    }

    @Test("demo --mailbox DIR stores the path; the default stores \"builtin\"")
    func marker() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-demo-marker-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let fixture = Self.repositoryRoot.appendingPathComponent("Fixtures/demo-mailbox").path
        let explicit = try await CLIFixture.run([
            "demo", "--home", scratch.appendingPathComponent("a").path, "--mailbox", fixture,
        ])
        #expect(explicit.status == 0, "\(explicit.stderr)")
        #expect(try DemoHome.existing(at: scratch.appendingPathComponent("a"))?.mailbox == fixture)
        let builtin = try await CLIFixture.run(["demo", "--home", scratch.appendingPathComponent("b").path])
        #expect(builtin.status == 0, "\(builtin.stderr)")
        #expect(try DemoHome.existing(at: scratch.appendingPathComponent("b"))?.mailbox == DemoHome.builtinMailbox)
        #expect(builtin.stdout == explicit.stdout)
    }
}
