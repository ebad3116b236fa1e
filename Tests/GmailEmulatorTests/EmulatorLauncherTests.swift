import ChatmailTestSupport
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

    @Test("a child started with --exit-when-stdin-closes stops when the holder of its stdin is killed")
    func stopsWithItsParent() async throws {
        // `sleep` stands in for the parent: it alone holds the pipe's write end and is killed with SIGKILL,
        // as a `chatmail sync` on a demo home can be. The kernel closes the pipe and the emulator must follow.
        let lifeline = Pipe()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sleep")
        holder.arguments = ["600"]
        holder.standardOutput = lifeline
        let emulator = Process()
        emulator.executableURL = EmulatorChild.siblingExecutable
        emulator.arguments = ["serve", "--synthetic", "3", "--exit-when-stdin-closes"]
        emulator.standardInput = lifeline
        let output = Pipe()
        emulator.standardOutput = output
        try holder.run()
        try emulator.run()
        defer {
            if emulator.isRunning { kill(emulator.processIdentifier, SIGKILL) }
            if holder.isRunning { kill(holder.processIdentifier, SIGKILL) }
        }
        try lifeline.fileHandleForWriting.close()
        try lifeline.fileHandleForReading.close()
        let line = try await offThePool { try firstLine(of: output.fileHandleForReading) }
        #expect(line.hasPrefix("http://127.0.0.1:"))
        #expect(emulator.isRunning, "the emulator stopped while its stdin was still held")

        kill(holder.processIdentifier, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(30)
        while emulator.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(!emulator.isRunning, "the emulator outlived the process holding its stdin")
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
