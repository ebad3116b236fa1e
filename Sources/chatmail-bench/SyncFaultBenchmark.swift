import ArgumentParser
import ChatmailStore
import ChatmailSync
import EmulatorLauncher
import Foundation
import GmailAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
import MailText
#endif

/// `chatmail-bench sync --faults-only`: a clean initial sync and one under faults, in the same run, on
/// the same synthetic mailbox and the same quota, so their ratio isolates what the faults cost.
///
/// The faulty run's emulator fails about 15% of every kind of request — 500, 503, 429, a reset before
/// the request body is read and a close mid-answer after it, in equal shares, both on top-level requests
/// (outer batches included) and on each call inside a batch — and its access tokens live 5 s, so the
/// client refreshes through the real token endpoint throughout.
extension SyncBenchmark {
    func faults(scratch: URL) async throws {
        let clean = try await faultRun(name: "clean", scratch: scratch, faulty: false)
        let faulty = try await faultRun(name: "faulty", scratch: scratch, faulty: true)
        let ratio = faulty.rate / clean.rate
        say(
            "faults: clean \(Self.f(clean.rate, 2)) messages/s (\(Self.f(clean.seconds, 2)) s), faulty \(Self.f(faulty.rate, 2)) messages/s (\(Self.f(faulty.seconds, 2)) s); faulty ÷ clean = \(Self.f(ratio, 3)) (target >= 0.7)"
        )
    }

    struct FaultRunResult {
        var seconds: Double
        var rate: Double
    }

    private func faultRun(name: String, scratch: URL, faulty: Bool) async throws -> FaultRunResult {
        var arguments = [
            "--synthetic", String(faultMessages), "--seed", "5", "--me", Self.account, "--quota", String(Int(quota)),
        ]
        if faulty { arguments += ["--token-lifetime", String(tokenLifetime)] }
        let emulator = try EmulatorChild(serveArguments: arguments)
        defer { emulator.stop(grace: .zero) }  // nothing of its state is needed afterwards
        let base = emulator.baseURL
        let refreshToken = try await Control.issueRefreshToken(emulator.baseURL.absoluteString)
        if faulty {
            try await Control.setFaults(emulator.baseURL.absoluteString, json: Self.faultRules(rate: faultRate))
        }
        let transport = URLSessionTransport()
        let oauth = OAuthConfiguration(
            clientID: "emulator-client.apps.googleusercontent.com", tokenURL: base.appendingPathComponent("token"))
        // A 1 s margin plays the part the 60 s default plays for hour-long tokens.
        let tokens = TokenProvider(
            refreshToken: refreshToken, client: OAuthTokenClient(configuration: oauth, transport: transport),
            refreshMargin: .seconds(1))
        let client = GmailClient(
            configuration: .init(baseURL: base), transport: transport, tokens: tokens,
            pacer: QuotaPacer(configuration: .init(ceiling: quota), sleeper: ContinuousSleeper(), initialBalance: 0))
        let store = try ChatmailStore(
            path: scratch.appendingPathComponent("faults-\(name).sqlite").path, subjectBase: ReplySubject.topicBase)
        let account = try Self.account(in: store)
        let engine = SyncEngine(store: store, gmail: client)
        let start = ContinuousClock.now
        var runs = 0
        var failures: [String] = []
        var abandoned = 0
        while true {
            runs += 1
            do {
                abandoned += try await engine.run(account: account).abandoned
                break
            } catch {
                // A sync may give up under faults; the next run resumes where it stopped, as a user's would.
                failures.append(String(describing: error))
                if runs >= 5 { throw ValidationError("\(name) sync failed \(runs) times: \(failures)") }
            }
        }
        let seconds = (ContinuousClock.now - start).seconds
        let status = try store.status(of: account)
        guard status.messageCount == faultMessages, status.abandonedMessageCount == 0 else {
            throw ValidationError(
                "\(name) sync ended with \(status.messageCount) of \(faultMessages) messages, \(status.abandonedMessageCount) abandoned"
            )
        }
        let log = faulty ? try await Control.get(emulator.baseURL.absoluteString, "requests") : ""
        let resets = log.components(separatedBy: #""status":0"#).count - 1
        say(
            "  \(name) initial sync: \(status.messageCount) messages in \(Self.f(seconds, 2)) s = \(Self.f(Double(status.messageCount) / seconds, 2)) messages/s; sync runs \(runs), abandoned on the way \(abandoned)\(faulty ? ", connections reset/cut \(resets)" : "")"
        )
        return FaultRunResult(seconds: seconds, rate: Double(status.messageCount) / seconds)
    }

    /// Five equal shares of `rate`, for top-level requests (`*`) and outer batches (`batch`); inside a
    /// batch a reset cannot happen, so the emulator answers those calls 503 instead.
    static func faultRules(rate: Double) -> String {
        let share = 1 - pow(1 - rate, 1.0 / 5)  // five rules tried in turn fail `rate` of requests in all
        let kinds = ["500", "503", "429", "dropBeforeBody", "drop"]
        let rules = ["*", "batch"].flatMap { method in
            kinds.map { #"{"method":"\#(method)","probability":\#(share),"kind":"\#($0)"}"# }
        }
        return #"{"seed":14,"rules":[\#(rules.joined(separator: ","))]}"#
    }
}

extension Control {
    static func setFaults(_ baseURL: String, json: String) async throws {
        var request = URLRequest(url: URL(string: baseURL + "/_emulator/faults")!)
        request.httpMethod = "PUT"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw ValidationError("setting faults failed: \(String(decoding: data, as: UTF8.self).prefix(300))")
        }
    }

    static func issueRefreshToken(_ baseURL: String) async throws -> String {
        var request = URLRequest(url: URL(string: baseURL + "/_emulator/issue-tokens")!)
        request.httpMethod = "POST"
        request.httpBody = Data("{}".utf8)
        let (data, _) = try await URLSession.shared.data(for: request)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let token = object["refresh_token"] as? String
        else {
            throw ValidationError("issue-tokens gave no refresh token")
        }
        return token
    }
}
