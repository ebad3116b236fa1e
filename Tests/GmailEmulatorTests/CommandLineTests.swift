import ChatmailTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct EmulatorCommandLineTests {
    /// The `gmail-emulator` executable built beside the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("gmail-emulator")
    }

    @Test("serve prints its base URL on the first line, serves the API, and stops on SIGTERM")
    func serve() async throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["serve", "--synthetic", "25", "--seed", "7", "--me", "me@example.org"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }  // never leave a server behind
        // Read the first line without waiting for the process to end.
        let line = try await offThePool { try firstLine(of: output.fileHandleForReading) }
        let base = try #require(URL(string: line))
        #expect(base.host == "127.0.0.1")
        #expect((base.port ?? 0) > 0)

        var request = URLRequest(url: base.appendingPathComponent("gmail/v1/users/me/profile"))
        request.setValue("Bearer emu-static-token", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let profile = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(profile["emailAddress"] as? String == "me@example.org")
        #expect(profile["messagesTotal"] as? Int == 25)
        #expect(profile["historyId"] is String)

        process.terminate()  // SIGTERM: graceful shutdown
        try await offThePool { process.waitUntilExit() }
        #expect(process.terminationReason == .exit || process.terminationStatus == SIGTERM)
    }
}
