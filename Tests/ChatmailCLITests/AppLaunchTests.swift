import Foundation
import Testing

/// `chatmail` alone opens the app only on a terminal: a script (or a pipe) gets the help, as before.
@Suite struct AppLaunchTests {
    @Test("chatmail with no arguments and no terminal prints the help and exits 0")
    func helpWithoutTerminal() async throws {
        let result = try await CLIFixture.run([])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("USAGE: chatmail"), "\(result.stdout)")
        #expect(result.stdout.contains("app"), "the help lists the app command")
    }

    @Test("chatmail app without a terminal says it needs one, and exits 64")
    func appWithoutTerminal() async throws {
        let result = try await CLIFixture.run(["app"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("The app needs a terminal"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
