import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `gmail-emulator` executable built beside `chatmail`, run as a child process.
///
/// The CLI's end-to-end tests start theirs through this type too (the test binary sits beside it).
final class EmulatorChild {
    static let clientID = "emulator-client.apps.googleusercontent.com"
    private let process = Process()
    let baseURL: URL

    /// Serves `mailbox` (a directory in the demo-mailbox layout) for the account `me`, keeping its
    /// changes and logins in `journal` across restarts when one is given.
    convenience init(mailbox: URL, me: String, journal: URL? = nil) throws {
        try self.init(serveArguments: ["--mailbox", mailbox.path, "--me", me] + (journal.map { ["--journal", $0.path] } ?? []))
    }

    /// Runs `gmail-emulator serve` with `serveArguments` plus this client id, and reads the base URL
    /// it prints on its first stdout line.
    init(serveArguments: [String]) throws {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("gmail-emulator")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw DemoError.emulatorMissing(path: executable.path)
        }
        process.executableURL = executable
        process.arguments = ["serve"] + serveArguments + ["--client-id", Self.clientID]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data([0x0A]) { line.append(byte) }
        guard let url = URL(string: String(decoding: line, as: UTF8.self)), url.host != nil else {
            process.terminate()
            process.waitUntilExit()
            // It wrote why on stderr (a damaged journal, say) before exiting.
            let reason = String(decoding: (try errors.fileHandleForReading.readToEnd()) ?? Data(), as: UTF8.self)
                .split(separator: "\n").last.map(String.init) ?? "no reason given"
            throw DemoError.emulatorFailed(reason: reason)
        }
        baseURL = url
    }

    /// SIGTERM for a graceful stop, then SIGKILL after 3 s: a graceful shutdown waits for idle
    /// keep-alive connections, and the demo must never hang on its way out.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Plays the user's browser: opens the consent URL, and follows the emulator's redirect to the loopback
/// address where `LoginFlow` is waiting.
enum BrowserStandIn {
    final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    static func approve(_ url: URL) async {
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        guard let (_, response) = try? await session.data(from: url),  // failure: LoginFlow times out and says so
              let location = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Location"),
              let callback = URL(string: location)
        else { return }
        _ = try? await session.data(from: callback)  // the loopback receiver answers; LoginFlow gets the code
    }
}
