import ChatmailStore
import ChatmailSync
import Foundation
import GRDB
import GmailAPI
import GmailEmulator
import MailText
import Testing

/// A sleeper that never waits: retries and backoff run at full speed, their delays only recorded.
final class InstantSleeper: Sleeper, @unchecked Sendable {
    private let lock = NSLock()
    private var elapsed = Duration.zero

    func now() -> Duration { lock.withLock { elapsed } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        lock.withLock { elapsed += duration }
    }
}

/// What a sync stored, without run-dependent times.
func syncSnapshot(_ path: URL) throws -> [String] {
    try DatabaseQueue(path: path.path).read { db in
        try Row.fetchAll(
            db,
            sql: """
                SELECT m.gmail_id, c.participant_hash, m.body_text,
                       (SELECT group_concat(g, ',') FROM (SELECT l.gmail_id AS g FROM message_label ml JOIN label l ON l.id = ml.label_id
                         WHERE ml.message_id = m.id ORDER BY l.gmail_id)) AS labels,
                       c.message_count, c.unread_count, c.title
                FROM message m JOIN conversation c ON c.id = m.conversation_id ORDER BY m.gmail_id
                """
        ).map(\.description)
    }
}

@Suite struct SyncFaultTests {
    @Test(
        "with 15% of requests failing and tokens expiring after every chunk, reruns converge to a clean run; a message that keeps failing is recorded and retried once faults stop"
    )
    func faultsConverge() async throws {
        var configuration = EmulatorConfiguration()
        configuration.mailbox = .synthetic(count: 150)
        configuration.account = "me@example.org"
        configuration.oauth.tokenLifetime = 2
        let emulator = try await EmulatorServer.start(configuration)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-faults-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let base = URL(string: emulator.baseURL)!
            func engine(_ store: ChatmailStore, onProgress: @escaping @Sendable (SyncProgress) -> Void = { _ in })
                async throws -> SyncEngine
            {
                let (_, refresh) = await emulator.oauth.issueTokens()
                let transport = URLSessionTransport()
                let oauth = OAuthConfiguration(
                    clientID: configuration.oauth.clientId, tokenURL: base.appendingPathComponent("token"))
                let tokens = TokenProvider(
                    refreshToken: refresh, client: OAuthTokenClient(configuration: oauth, transport: transport),
                    sleeper: InstantSleeper(), refreshMargin: .milliseconds(500))
                let client = GmailClient(
                    configuration: .init(baseURL: base, batchSize: 20), transport: transport, tokens: tokens,
                    pacer: QuotaPacer.unlimited(), sleeper: InstantSleeper())
                return SyncEngine(
                    store: store, gmail: client, chunkSize: 40, reconcileEveryMs: .max, progress: onProgress)
            }
            func openStore(_ name: String) async throws -> (ChatmailStore, Account, URL) {
                let path = dir.appendingPathComponent("\(name).sqlite")
                let store = try ChatmailStore(path: path.path, subjectBase: ReplySubject.topicBase)
                _ = try await store.write { tx in try tx.ensureAccount(email: "me@example.org") }
                return (store, try #require(try store.accounts().first), path)
            }

            // One message fails every time; everything else fails 15% of the time (429, 500, 503, resets).
            let victim = await emulator.mailbox.list(matching: { _ in true }, after: nil, limit: 10).page[3].id
            await emulator.faults.set(
                [
                    FaultRule(method: "messages.get", probability: 1, kind: .backendError, messageId: victim),
                    FaultRule(method: "*", probability: 0.04, kind: .tooManyRequests),
                    FaultRule(method: "*", probability: 0.04, kind: .backendError),
                    FaultRule(method: "*", probability: 0.04, kind: .unavailable),
                    FaultRule(method: "*", probability: 0.03, kind: .drop),
                ], seed: 99)
            let (faulty, faultyAccount, faultyPath) = try await openStore("faulty")
            // Every access token expires after each downloaded chunk (a timer is too coarse for a sync this
            // short): the client must refresh and retry on 401 again and again.
            let expireTokens: @Sendable (SyncProgress) -> Void = { progress in
                if progress.phase == "downloading" { Task { await emulator.oauth.expireAccessTokens() } }
            }
            var runs = 0
            var lastError: (any Error)?
            repeat {
                runs += 1
                do {
                    _ = try await engine(faulty, onProgress: expireTokens).run(
                        account: try #require(try faulty.accounts().first))
                    lastError = nil
                } catch {
                    lastError = error  // a sync may give up under faults; the next run continues
                }
            } while lastError != nil && runs < 8
            #expect(lastError == nil, "sync never succeeded under faults: \(String(describing: lastError))")
            // The faults really fired, and tokens really were refreshed along the way.
            let log = await emulator.requestLog.all
            let faulted = log.filter { [429, 500, 503].contains($0.status) }.count
            #expect(faulted >= 10, "only \(faulted) faulted answers")
            #expect(log.filter { $0.path == "/token" }.count >= 2)
            let abandoned = try faulty.status(of: faultyAccount).abandonedMessageCount
            #expect(abandoned == 1)

            // Faults stop: the next sync retries the recorded message and stores it.
            await emulator.faults.set([])
            _ = try await engine(faulty).run(account: try #require(try faulty.accounts().first))
            #expect(try faulty.status(of: faultyAccount).abandonedMessageCount == 0)

            let (clean, cleanAccount, cleanPath) = try await openStore("clean")
            _ = try await engine(clean).run(account: cleanAccount)
            let expected = try syncSnapshot(cleanPath)
            let actual = try syncSnapshot(faultyPath)
            #expect(expected.count == 150)
            #expect(expected.count == actual.count)
            #expect(zip(expected, actual).first { $0 != $1 } == nil)
            let stats = await emulator.quota.current
            #expect(stats.requests > 150)
        } catch {
            await emulator.shutdown()
            throw error
        }
        await emulator.shutdown()
    }
}
