import Foundation
import Testing

/// Whatever a user typed comes back in an error message cut to one short line, however long it was.
@Suite struct EchoedInputTests {
    static let long = String(repeating: "x", count: 10_000)

    @Test(
        "a 10,000-character value is echoed cut short, on one line",
        arguments: [
            ["--account", long, "conversations"],
            ["export", "--all", "-o", "/tmp/unused", "--since", long],
            ["pending", "retry", long],
            ["pending", "dismiss", long],
        ])
    func cutShort(arguments: [String]) async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(arguments)
        #expect(result.status != 0)
        let firstLine = try #require(result.stderr.split(separator: "\n").first)
        #expect(firstLine.contains("xxxxx…"), "\(firstLine.prefix(200))")
        #expect(firstLine.count < 250, "\(firstLine.count) characters: \(firstLine.prefix(200))")
    }
}
