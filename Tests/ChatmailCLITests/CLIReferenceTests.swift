import Foundation
import Testing

/// `Docs/CLI.md` is the help of every command, as the built binary prints it at 80 columns, so the
/// reference can never drift from the program. `scripts/update-goldens` rewrites it (that run fails on
/// purpose: it checked nothing).
@Suite struct CLIReferenceTests {
    static let document = packageRoot.appendingPathComponent("Docs/CLI.md")

    /// The subcommand names listed under `SUBCOMMANDS:` in a help text.
    static func subcommands(in help: String) -> [String] {
        guard let section = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first else { return [] }
        return section.split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
            .compactMap { line -> String? in
                // A name starts in column 2; wrapped abstracts are indented further.
                guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
                return line.split(separator: " ").first.map(String.init)
            }
    }

    /// The help of `path` and, depth first, of each of its subcommands.
    static func helpTree(_ path: [String]) async throws -> [(path: [String], help: String)] {
        let result = try await CLIFixture.run(path + ["--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "\(path): \(result.stderr)")
        var tree = [(path, result.stdout)]
        for name in subcommands(in: result.stdout) {
            tree += try await helpTree(path + [name])
        }
        return tree
    }

    static func render(_ tree: [(path: [String], help: String)]) -> String {
        var text = """
            # chatmail command-line reference

            Every command's `--help`, as the built binary prints it at 80 columns. A test compares this file
            with the binary, so it is always current; after changing a command's help, rewrite it with
            `scripts/update-goldens`. The README explains the
            concepts (people, the demo, paging, configuration and exit codes); `JSON.md` lists every key that
            `--json` prints.

            """
        for (path, help) in tree {
            text += "\n## `" + (["chatmail"] + path).joined(separator: " ") + "`\n\n```text\n" + help
            if !help.hasSuffix("\n") { text += "\n" }
            text += "```\n"
        }
        return text
    }

    @Test("Docs/CLI.md is exactly the help of every command and subcommand")
    func referenceMatchesHelp() async throws {
        let tree = try await Self.helpTree([])
        #expect(tree.count > 20, "every command, with pending's subcommands")
        #expect(tree.contains { $0.path == ["pending", "run"] })
        let expected = Self.render(tree)
        if ProcessInfo.processInfo.environment["CHATMAIL_UPDATE_GOLDENS"] == "1" {
            try Data(expected.utf8).write(to: Self.document)
            Issue.record("CHATMAIL_UPDATE_GOLDENS is set: Docs/CLI.md was written, not checked")
            return
        }
        let actual = try String(contentsOf: Self.document, encoding: .utf8)
        #expect(actual == expected, "Docs/CLI.md differs from --help; rewrite it with scripts/update-goldens")
    }
}
