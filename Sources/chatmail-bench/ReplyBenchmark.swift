import ArgumentParser
import EmulatorLauncher
import Foundation
import GmailEmulator

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `chatmail-bench reply`: how long `chatmail reply` takes from start to exit against the emulator, and
/// what the exactly-once check costs Gmail after a send whose answer was lost.
///
/// A home is logged in to an in-process emulator and synced (a few hundred synthetic messages). Then
/// `chatmail reply` runs as a whole process, `runs` times, with `chatmail --help` timed in the same
/// invocation for scale. Last, one reply is sent with the emulator's `commitThenError500` fault (Gmail
/// stores the message, then answers 500): the calls and quota units it spends are compared with a plain
/// reply's, from the emulator's own request log and quota ledger.
struct ReplyBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply",
        abstract: "Time `chatmail reply` online, and count the calls and quota of the exactly-once check.")

    @Option(help: "Synthetic messages in the mailbox.") var messages = 300
    @Option(help: "Timed replies.") var runs = 11

    func run() async throws {
        var configuration = EmulatorConfiguration()
        configuration.mailbox = .synthetic(count: messages)
        let emulator = try await EmulatorServer.start(configuration)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-bench-reply-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup of a scratch dir
        do {
            try await measure(emulator, dir: dir)
        } catch {
            await emulator.shutdown()
            throw error
        }
        await emulator.shutdown()
    }

    func measure(_ emulator: RunningEmulator, dir: URL) async throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let base = emulator.baseURL
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in [
            "CHATMAIL_HOME": dir.appendingPathComponent("home").path, "CHATMAIL_GMAIL_API_URL": base,
            "CHATMAIL_OAUTH_TOKEN_URL": base + "/token", "CHATMAIL_OAUTH_AUTH_URL": base + "/o/oauth2/v2/auth",
            "CHATMAIL_CLIENT_ID": EmulatorChild.clientID, "NO_COLOR": "1",
        ] {
            environment[key] = value
        }
        let chatmail = try ProcessTimer.siblingExecutable(named: "chatmail")
        let output = dir.appendingPathComponent("out.txt").path
        func time(_ arguments: [String]) throws -> Double {
            let start = ContinuousClock.now
            let status = try ProcessTimer.spawnAndWait(
                chatmail.path, arguments: arguments, environment: environment, outputPath: output)
            let elapsed = (ContinuousClock.now - start).seconds
            guard status == 0 else {
                let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                throw ProcessTimer.Failure(description: "\(arguments.joined(separator: " ")) exited \(status): \(said)")
            }
            return elapsed
        }

        let tokenFile = dir.appendingPathComponent("token")
        try Data(try await refreshToken(base).utf8).write(to: tokenFile)
        _ = try time(["login", "--refresh-token-file", tokenFile.path])
        _ = try time(["sync"])
        _ = try time(["conversations", "--json", "--limit", "1"])
        guard
            let rows = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output)))
                as? [[String: Any]],
            let participants = rows.first?["participants"] as? [[String: Any]],
            let person = participants.first?["address"] as? String
        else { throw ProcessTimer.Failure(description: "the synced home lists no conversation to reply to") }

        var replies: [Double] = []
        var helps: [Double] = []
        for index in 0..<runs {
            helps.append(try time(["--help"]))
            replies.append(try time(["reply", person, "-m", "Benchmark reply \(index)."]))
        }
        let reply = replies.median
        let help = helps.median
        print(
            String(
                format:
                    "reply, sent, whole process: median %.1f ms of %d (min %.1f, max %.1f); --help %.1f ms; ratio %.2f",
                reply * 1000, runs, (replies.min() ?? 0) * 1000, (replies.max() ?? 0) * 1000, help * 1000,
                reply / help))

        let plain = try await cost(of: emulator) { _ = try time(["reply", person, "-m", "Plain reply."]) }
        await emulator.faults.set([
            FaultRule(method: "messages.send", probability: 1, kind: .commitThenError500, remaining: 1)
        ])
        let lost = try await cost(of: emulator) { _ = try time(["reply", person, "-m", "Answer lost."]) }
        await emulator.faults.set([])
        print("plain reply: \(plain.calls.joined(separator: ", ")); \(plain.units) quota units")
        print(
            "reply whose answer was lost (500 after commit): \(lost.calls.joined(separator: ", ")); \(lost.units) units"
        )
        print(
            "  the exactly-once check cost \(lost.calls.count - plain.calls.count) calls and \(lost.units - plain.units) units"
        )
        let copies = await emulator.mailbox.list(
            matching: { String(decoding: $0.raw, as: UTF8.self).contains("Answer lost.") }, after: nil, limit: 10
        ).total
        print("  copies of that reply on the server: \(copies)")
    }

    /// The Gmail calls (method names, in order) and quota units `body` spends.
    func cost(of emulator: RunningEmulator, _ body: () throws -> Void) async throws -> (calls: [String], units: Int) {
        let before = await emulator.requestLog.all.count
        let unitsBefore = await emulator.quota.current.unitsUsed
        try body()
        let calls = await emulator.requestLog.all.dropFirst(before).compactMap(\.gmailMethod)
        return (calls, await emulator.quota.current.unitsUsed - unitsBefore)
    }

    func refreshToken(_ base: String) async throws -> String {
        var request = URLRequest(url: URL(string: base + "/_emulator/issue-tokens")!)
        request.httpMethod = "POST"
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let token = object["refresh_token"] as? String
        else { throw ProcessTimer.Failure(description: "the emulator issued no refresh token") }
        return token
    }
}
