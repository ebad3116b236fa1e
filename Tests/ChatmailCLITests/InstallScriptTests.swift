import Foundation
import Testing

/// `scripts/install`, with the products this test run already built (`--products`): what it puts
/// under the prefix, and that the installed chatmail runs the demo from there, moved away from the
/// build folder, with the shipped mailbox.
@Suite struct InstallScriptTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `executable` with `arguments` from `directory`, in the environment every CLI test uses.
    static func run(
        _ executable: String, _ arguments: [String], in directory: URL, environment extra: [String: String] = [:]
    )
        throws -> RunResult
    {
        try CLIFixture.runBlocking(
            arguments, environment: extra, program: URL(fileURLWithPath: executable), in: directory)
    }

    @Test(
        "install puts binaries, resources, completions and the man page under the prefix; the demo runs from there",
        .timeLimit(.minutes(5)))
    func installAndRunTheDemo() async throws {
        let manager = FileManager.default
        let scratch = manager.temporaryDirectory.appendingPathComponent("chatmail-install-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: scratch) }
        let prefix = scratch.appendingPathComponent("first")
        try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
        let products = CLIFixture.executable.deletingLastPathComponent()
        let script = Self.repositoryRoot.appendingPathComponent("scripts/install").path

        // Twice: the second run replaces what the first installed.
        for _ in 0..<2 {
            let install = try await onThread {
                try Self.run(script, ["--prefix", prefix.path, "--products", products.path], in: scratch)
            }
            #expect(install.status == 0, "\(install.stderr)")
            #expect(install.stdout.contains(prefix.appendingPathComponent("bin/chatmail").path))
        }

        for (file, mention) in [
            ("share/bash-completion/completions/chatmail", "show"), ("share/zsh/site-functions/_chatmail", "show"),
            ("share/fish/vendor_completions.d/chatmail.fish", "show"), ("share/man/man1/chatmail.1", "show"),
        ] {
            let text = try String(contentsOf: prefix.appendingPathComponent(file), encoding: .utf8)
            #expect(text.contains(mention), "\(file)")
        }
        #expect(
            try String(contentsOf: prefix.appendingPathComponent("share/man/man1/chatmail.1"), encoding: .utf8)
                .contains(".Dt CHATMAIL"))

        // Moved elsewhere and run from elsewhere: nothing may come from the build folder or the checkout.
        let moved = scratch.appendingPathComponent("moved")
        try manager.moveItem(at: prefix, to: moved)
        let home = scratch.appendingPathComponent("demo-home")
        let chatmail = moved.appendingPathComponent("bin/chatmail").path
        let demo = try await onThread {
            try Self.run(
                chatmail, ["demo", "--home", home.path], in: scratch, environment: ["XDG_CONFIG_HOME": scratch.path])
        }
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("$ chatmail conversations --limit 8"))
        let marker = try String(contentsOf: home.appendingPathComponent("demo.json"), encoding: .utf8)
        #expect(marker.contains("\"builtin\""))

        // The demo home keeps working after chatmail moves again.
        let movedAgain = scratch.appendingPathComponent("again")
        try manager.moveItem(at: moved, to: movedAgain)
        let status = try await onThread {
            try Self.run(
                movedAgain.appendingPathComponent("bin/chatmail").path, ["sync", "--home", home.path], in: scratch,
                environment: ["XDG_CONFIG_HOME": scratch.path])
        }
        #expect(status.status == 0, "\(status.stderr)")
    }

    /// Runs blocking work on a thread of its own, off Swift's small cooperative pool.
    func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
