import ChatmailTestSupport
import EmulatorLauncher
import Foundation
import Testing

@testable import ChatmailCLI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `gmail-emulator serve` child process for end-to-end CLI tests; always terminated.
final class EmulatorProcess {
    private let child: EmulatorChild
    var baseURL: URL { child.baseURL }
    static let clientID = EmulatorChild.clientID

    private init(child: EmulatorChild) {
        self.child = child
    }

    /// Starts a child serving `count` synthetic messages; returns once it listens.
    static func start(synthetic count: Int = 12) async throws -> EmulatorProcess {
        EmulatorProcess(
            child: try await EmulatorChild.start(serveArguments: [
                "--synthetic", String(count), "--seed", "3", "--me", "me@example.org",
            ]))
    }

    // Never leave a server behind, and never wait for one: the tests need nothing of its state afterwards,
    // and a graceful stop waits for idle keep-alive connections while blocking a thread of the test pool.
    deinit { child.stop(grace: .zero) }

    /// The environment that points chatmail at this emulator.
    var environment: [String: String] {
        [
            "CHATMAIL_GMAIL_API_URL": baseURL.absoluteString,
            "CHATMAIL_OAUTH_TOKEN_URL": baseURL.absoluteString + "/token",
            "CHATMAIL_OAUTH_AUTH_URL": baseURL.absoluteString + "/o/oauth2/v2/auth",
            "CHATMAIL_CLIENT_ID": Self.clientID,
        ]
    }

    func post(_ path: String, form: String? = nil, json: String? = nil) async throws -> [String: Any] {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        if let form {
            request.httpBody = Data(form.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, _) = try await URLSession.shared.data(for: request)
        // some endpoints answer with no JSON
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}

@Suite struct LoginCommandTests {
    @Test(
        "login with a refresh token file: verified, stored 0600 in a 0700 home, the account created; a revoked token exits 3"
    )
    func refreshTokenFile() async throws {
        let emulator = try await EmulatorProcess.start()
        let token = try #require(try await emulator.post("_emulator/issue-tokens")["refresh_token"] as? String)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-login-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let tokenFile = dir.appendingPathComponent("token.txt")
        try Data("\n  \(token)\n".utf8).write(to: tokenFile)
        let home = dir.appendingPathComponent("home")

        let login = try await CLIFixture.run(
            ["login", "--home", home.path, "--refresh-token-file", tokenFile.path], environment: emulator.environment)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout == "Logged in as me@example.org.\n")
        #expect(!(login.stdout + login.stderr).contains(token))
        let credentials = home.appendingPathComponent("credentials.json")
        #expect(try FileManager.default.attributesOfItem(atPath: credentials.path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: home.path)[.posixPermissions] as? Int == 0o700)
        #expect(
            try FileManager.default.attributesOfItem(atPath: home.appendingPathComponent("chatmail.sqlite").path)[
                .posixPermissions] as? Int == 0o600)
        let status = try #require(
            try await CLIFixture.run(["status", "--home", home.path, "--json"]).json() as? [String: Any])
        #expect(status["account"] as? String == "me@example.org")

        _ = try await emulator.post("revoke", form: "token=\(token)")
        let revoked = try await CLIFixture.run(
            ["login", "--home", home.path, "--refresh-token-file", tokenFile.path], environment: emulator.environment)
        #expect(revoked.status == 3)
        #expect(revoked.stderr.contains("chatmail login"))
        #expect(!(revoked.stdout + revoked.stderr).contains(token))
    }

    @Test("the browser flow: loopback redirect with PKCE, followed like a browser would")
    func browserFlow() async throws {
        let emulator = try await EmulatorProcess.start()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-login-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }  // best-effort cleanup
        let process = Process()
        process.executableURL = CLIFixture.executable
        // The URL is printed once the loopback listener accepts connections. The login then waits for the
        // browser for its default five minutes, a time-out no busy machine comes near.
        process.arguments = ["login", "--home", home.path, "--no-browser"]
        process.environment = ProcessInfo.processInfo.environment.merging(emulator.environment) { $1 }
        let errors = Pipe()
        let output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The URL is printed on stderr; read lines until it appears.
        let stderr = errors.fileHandleForReading
        let printed: URL? = try await offThePool {
            var buffer = ""
            while let chunk = try stderr.read(upToCount: 1), !chunk.isEmpty {
                buffer += String(decoding: chunk, as: UTF8.self)
                if buffer.hasSuffix("\n"), let line = buffer.split(separator: "\n").last, line.hasPrefix("http") {
                    return URL(string: String(line))
                }
            }
            return nil
        }
        let url = try #require(printed)
        #expect(url.absoluteString.contains("code_challenge_method=S256"))
        #expect(
            url.absoluteString.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A")
                || url.absoluteString.contains("redirect_uri=http://127.0.0.1:"))
        // "The user approves": the emulator redirects to the loopback address, which we then visit.
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        let (_, response) = try await session.data(from: url)
        let location = try #require((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Location"))
        #expect(location.hasPrefix("http://127.0.0.1:"))
        let (_, callback) = try await URLSession.shared.data(from: try #require(URL(string: location)))
        #expect((callback as? HTTPURLResponse)?.statusCode == 200)
        let stdoutHandle = output.fileHandleForReading
        let stdout = try await offThePool {
            let text = String(decoding: stdoutHandle.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
        #expect(process.terminationStatus == 0)
        #expect(stdout == "Logged in as me@example.org.\n")
    }

    @Test("without a client id, login is a usage error that says what to set")
    func missingClientID() async throws {
        let result = try await CLIFixture.run(
            ["login", "--home", "/tmp/chatmail-never-\(UUID().uuidString)"], environment: ["CHATMAIL_CLIENT_ID": ""])
        #expect(result.status == 64)
        #expect(result.stderr.contains("CHATMAIL_CLIENT_ID"))
    }
}
