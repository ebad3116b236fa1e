import Foundation
import Testing

/// `chatmail demo` as a newcomer meets it: what it prints is the README's sample, its home persists,
/// and every command tried afterwards works on the demo mailbox.
@Suite(.serialized) struct DemoCommandTests {
    /// A user's home directory of its own, so the demo's default home (`~/.local/share/chatmail/demo`)
    /// is fresh and removed afterwards.
    final class UserHome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-user-\(UUID().uuidString)")
        var demoHome: URL { directory.appendingPathComponent(".local/share/chatmail/demo") }

        /// The environment of a user with this home and no chatmail variables set.
        var environment: [String: String] { ["HOME": directory.path, "XDG_DATA_HOME": "", "CHATMAIL_NOW_MS": ""] }

        init() throws { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: directory) }  // best-effort cleanup of a temporary directory

        func run(_ arguments: [String], extra: [String: String] = [:]) async throws -> RunResult {
            try await CLIFixture.run(arguments, environment: environment.merging(extra) { $1 })
        }

        /// Runs a command in the demo's home, as the demo's closing hint says to.
        func inDemo(_ arguments: [String]) async throws -> RunResult {
            try await run(arguments, extra: ["CHATMAIL_HOME": demoHome.path])
        }
    }

    /// The fenced block that follows `<!-- demo output -->` in the README.
    static func readmeSample() throws -> String {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = try #require(readme.range(of: "<!-- demo output -->"))
        let afterMarker = readme[marker.upperBound...]
        let open = try #require(afterMarker.range(of: "```\n"))
        let close = try #require(afterMarker[open.upperBound...].range(of: "\n```\n"))
        return String(afterMarker[open.upperBound..<close.lowerBound]) + "\n"
    }

    /// The lines of `output` from the one starting with `$ command` up to the next blank-line-and-`$`.
    static func section(_ output: String, command: String) throws -> String {
        let start = try #require(output.range(of: "$ chatmail \(command)\n"))
        let rest = output[start.upperBound...]
        let end = rest.range(of: "\n\n$ ")?.lowerBound ?? rest.range(of: "\n\nTry more")?.lowerBound ?? rest.endIndex
        return String(rest[..<end]) + "\n"
    }

    @Test("the README's sample is exactly what the demo prints, and its commands print the same when typed")
    func readmeSampleIsTheDemo() async throws {
        let user = try UserHome()
        let demo = try await user.run(["demo", "--width", "80"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout == (try Self.readmeSample()))
        #expect(
            demo.stdout.contains("Logged in as clanlaw@gmail.com."), "the demo is a person on the list, not the list")
        #expect(demo.stdout.contains("You · "), "the demo's own replies show as You")
        // The Ubuntu list is one conversation, its row names the last sender, and it is the one shown.
        #expect(demo.stdout.contains("Bret: I have a computer"), "\(demo.stdout)")
        #expect(demo.stdout.contains("$ chatmail show ubuntu-users@lists.ubuntu.com --limit 4\n"))
        #expect(demo.stdout.contains("export CHATMAIL_HOME=~/.local/share/chatmail/demo"))

        let list = try await user.inDemo(["conversations", "--limit", "8", "--width", "80"])
        #expect(list.stdout == (try Self.section(demo.stdout, command: "conversations --limit 8")))
        let showLine = try #require(demo.stdout.split(separator: "\n").first { $0.hasPrefix("$ chatmail show ") })
        let showArguments = showLine.dropFirst("$ chatmail ".count).split(separator: " ").map(String.init)
        let show = try await user.inDemo(showArguments + ["--width", "80"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout == (try Self.section(demo.stdout, command: showArguments.joined(separator: " "))))
    }

    @Test("the demo keeps one home: a second run reuses it and syncs incrementally, without logging in again")
    func secondRunReusesTheHome() async throws {
        let user = try UserHome()
        #expect(try await user.run(["demo"]).status == 0)
        let again = try await user.run(["demo"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("Reusing the demo home ~/.local/share/chatmail/demo"))
        #expect(!again.stdout.contains("$ chatmail login"))
        #expect(again.stdout.contains("Synced (incremental): 0 new, 0 deleted, 0 label changes"))
        let homes = try FileManager.default.contentsOfDirectory(atPath: user.demoHome.deletingLastPathComponent().path)
        #expect(homes == ["demo"], "one home, nothing beside it")
    }

    @Test("after the demo, status, actions, sync and pending run work on its mailbox, and the change reaches its Gmail")
    func commandsWorkInTheDemoHome() async throws {
        let user = try UserHome()
        #expect(try await user.run(["demo"]).status == 0)

        let status = try await user.inDemo(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("Data                \(user.demoHome.path)"))
        #expect(status.stdout.contains("demo mailbox"))
        let statusJSON = try #require(try await user.inDemo(["status", "--json"]).json() as? [String: Any])
        #expect(statusJSON["dataPath"] as? String == user.demoHome.path)
        #expect(statusJSON["demo"] as? Bool == true)

        let archive = try await user.inDemo(["archive", "paul.groves.787@gmail.com"])
        #expect(archive.status == 0, "\(archive.stderr)")
        let run = try await user.inDemo(["pending", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("sent 1"))
        let sync = try await user.inDemo(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("Synced (incremental)"))

        // The emulator forgot nothing between its starts: a full sync, which re-reads every label from
        // it, keeps Paul's conversation archived. Paul only ever wrote to the Ubuntu list, so his
        // conversation is the list's.
        #expect(try await user.inDemo(["sync", "--full"]).status == 0)
        let archived = try await user.inDemo(["conversations", "--archived"])
        #expect(archived.stdout.contains("Ubuntu user technical"), "\(archived.stdout)")
    }

    @Test("every command the demo suggests at its end works in the demo's home")
    func suggestionsWork() async throws {
        let user = try UserHome()
        let demo = try await user.run(["demo"])
        let suggestions = try #require(demo.stdout.components(separatedBy: "Try more").last)
            .split(separator: "\n").dropFirst()
            .filter { $0.hasPrefix("chatmail ") }
        #expect(suggestions.count >= 3)
        for line in suggestions {
            for command in line.components(separatedBy: " && ") {
                let arguments = command.split(separator: " ").dropFirst().map(String.init)
                let result = try await user.inDemo(
                    arguments + ["--no-pager"].filter { _ in ["show", "conversations"].contains(arguments[0]) })
                #expect(result.status == 0, "`\(command)`: \(result.stderr)")
            }
        }
    }

    @Test("the demo never writes into a home that holds a real account")
    func refusesARealHome() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["demo"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("holds a real account"))
        #expect(!FileManager.default.fileExists(atPath: fixture.home.appendingPathComponent("demo.json").path))
    }
}
