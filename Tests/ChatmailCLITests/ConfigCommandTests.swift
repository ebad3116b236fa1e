import Foundation
import Testing

/// The config file through the real binary: where it is found, that its settings apply below options
/// and environment variables, and that a bad one stops every command with one line.
@Suite struct ConfigCommandTests {
    /// Writes `text` as a config file in a new directory, returning the file and its directory's
    /// `XDG_CONFIG_HOME`-style parent.
    static func writeConfig(_ text: String) throws -> (file: URL, xdgConfigHome: URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-config-\(UUID().uuidString)")
        let file = base.appendingPathComponent("chatmail/config.toml")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return (file, base)
    }

    /// The widest line of `output`, in characters, without colour sequences.
    static func widestLine(_ output: String) -> Int {
        let plain = output.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        return plain.split(separator: "\n").map(\.count).max() ?? 0
    }

    @Test("the file's colour and width apply, before or after the command; options and NO_COLOR beat them")
    func settingsApply() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let config = try Self.writeConfig("[display]\ncolor = \"always\"\nwidth = 40\n")
        defer { try? FileManager.default.removeItem(at: config.xdgConfigHome) }

        let before = try await fixture.run(["--config", config.file.path, "conversations"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.contains("\u{1B}["))
        #expect(Self.widestLine(before.stdout) <= 40)
        let after = try await fixture.run(["conversations", "--config", config.file.path])
        #expect(after.stdout == before.stdout)

        // The default file, found through XDG_CONFIG_HOME, works the same.
        let found = try await fixture.run(
            ["conversations"], environment: ["XDG_CONFIG_HOME": config.xdgConfigHome.path])
        #expect(found.stdout == before.stdout)

        let noColor = try await fixture.run(
            ["--config", config.file.path, "conversations"], environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["))
        let colorOption = try await fixture.run(["--config", config.file.path, "--color", "never", "conversations"])
        #expect(!colorOption.stdout.contains("\u{1B}["))
        let widthOption = try await fixture.run(["--config", config.file.path, "--width", "70", "conversations"])
        #expect(Self.widestLine(widthOption.stdout) > 40)
        #expect(Self.widestLine(widthOption.stdout) <= 70)

        let withoutFile = try await fixture.run(["conversations"])
        #expect(!withoutFile.stdout.contains("\u{1B}["))
    }

    @Test(
        "a bad file stops the command with one line naming the file and line, and exit 64",
        arguments: [
            ("[display]\nwidth = 60\ncolour = \"never\"\n", "line 3: unknown key display.colour"),
            ("[display]\nwidth = \"wide\"\n", "line 2: display.width must be an integer, not a string"),
            ("[display\nwidth = 60\n", "line 1, column "),
            ("[app]\nsync_interval = 1\n", "line 2: app.sync_interval must be 10 to 86400 seconds, not 1"),
        ])
    func badFile(text: String, expected: String) async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let config = try Self.writeConfig(text)
        defer { try? FileManager.default.removeItem(at: config.xdgConfigHome) }
        for environment in [[:], ["XDG_CONFIG_HOME": config.xdgConfigHome.path]] {
            let arguments = environment.isEmpty ? ["--config", config.file.path, "conversations"] : ["conversations"]
            let result = try await fixture.run(arguments, environment: environment)
            #expect(result.status == 64)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr.hasPrefix("chatmail: config file \(config.file.path), \(expected)"), "\(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        }
    }

    @Test("--config naming a missing file is an error; a missing default file is not")
    func missingFile() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-no-such-\(UUID().uuidString).toml"
        ).path
        let result = try await fixture.run(["--config", missing, "status"])
        #expect(result.status == 64)
        #expect(result.stderr == "chatmail: the config file \(missing) does not exist\n")
        let withoutDefault = try await fixture.run(["status"], environment: ["XDG_CONFIG_HOME": missing])
        #expect(withoutDefault.status == 0, "\(withoutDefault.stderr)")
    }
}
