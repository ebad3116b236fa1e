import EmulatorLauncher
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The launcher the demo, the benchmarks and the end-to-end tests start `gmail-emulator` through.
@Suite struct EmulatorLauncherTests {
    @Test("a started child serves at the URL it printed, and stop ends the process")
    func startAndStop() async throws {
        let child = try EmulatorChild(serveArguments: ["--synthetic", "4", "--seed", "7", "--me", "me@example.org"])
        var request = URLRequest(url: child.baseURL.appendingPathComponent("gmail/v1/users/me/profile"))
        request.setValue("Bearer emu-static-token", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("me@example.org"))
        let pid = child.processIdentifier
        child.stop(grace: .zero)
        // The child is gone and reaped: signalling its pid fails.
        #expect(kill(pid, 0) == -1)
    }

    @Test("a missing executable is named in the error")
    func missingExecutable() {
        let missing = URL(fileURLWithPath: "/nonexistent/gmail-emulator")
        #expect(throws: EmulatorLaunchError.executableMissing(path: missing.path)) {
            try EmulatorChild(executable: missing, serveArguments: [])
        }
    }

    @Test("a child that exits before listening reports the last line it wrote on stderr")
    func earlyExit() throws {
        let mailbox = "/nonexistent/mailbox-\(UUID().uuidString)"
        do {
            _ = try EmulatorChild(serveArguments: ["--mailbox", mailbox])
            Issue.record("the emulator started on a mailbox that does not exist")
        } catch {
            guard case .exitedBeforeListening(let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reason.contains(mailbox))
        }
    }
}
