import ChatmailTestSupport
import Foundation
import GRDB
import GmailModel
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The data a sync produces, without times that depend on when it ran: two homes with equal snapshots
/// hold the same mail, labels and conversations.
func canonicalSnapshot(home: URL) throws -> [String] {
    try DatabaseQueue(path: home.appendingPathComponent("chatmail.sqlite").path).read { db in
        let messages = try Row.fetchAll(
            db,
            sql: """
                SELECT m.gmail_id, c.participant_hash, m.subject, m.body_text, m.is_newsletter,
                       (SELECT group_concat(l.gmail_id, ',') FROM (SELECT l.gmail_id FROM message_label ml JOIN label l ON l.id = ml.label_id
                         WHERE ml.message_id = m.id ORDER BY l.gmail_id) l) AS labels
                FROM message m JOIN conversation c ON c.id = m.conversation_id ORDER BY m.gmail_id
                """
        ).map { "message: \($0)" }
        let conversations = try Row.fetchAll(
            db,
            sql: """
                SELECT participant_hash, title, message_count, unread_count, has_inbox, archived_at_ms IS NOT NULL AS archived,
                       last_message_at_ms, snippet, is_newsletter
                FROM conversation WHERE message_count > 0 ORDER BY participant_hash
                """
        ).map { "conversation: \($0)" }
        let queue = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_queue") ?? -1
        let history = try String.fetchOne(db, sql: "SELECT history_id FROM account") ?? "none"
        return messages + conversations + ["queue: \(queue)", "history: \(history)"]
    }
}

/// How a `chatmail sync` run ended.
struct SyncExit: Sendable {
    var killedBySignal: Int32?
    var status: Int32
    var stderr: String
}

@Suite struct SyncInterruptionTests {
    /// Runs `chatmail sync`, armed to kill itself at `crashPoint` (`<point>[:<n>]`) when given.
    func sync(_ home: URL, crashingAt crashPoint: String?, environment: [String: String]) async throws -> SyncExit {
        var environment = environment
        environment["CHATMAIL_TEST_CRASH_AT"] = crashPoint
        let arguments = ["sync", "--home", home.path]
        let extra = environment
        // Waiting blocks a thread: not one of the cooperative pool's.
        return try await offThePool {
            let process = Process()
            process.executableURL = CLIFixture.executable
            process.arguments = arguments
            var merged = ProcessInfo.processInfo.environment.merging(extra) { $1 }
            merged.removeValue(forKey: "CHATMAIL_HOME")
            if crashPoint == nil { merged.removeValue(forKey: "CHATMAIL_TEST_CRASH_AT") }
            process.environment = merged
            let err = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = err
            try process.run()
            let errData = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let signalled = process.terminationReason == .uncaughtSignal
            return SyncExit(
                killedBySignal: signalled ? process.terminationStatus : nil,
                status: signalled ? -1 : process.terminationStatus,
                stderr: String(decoding: errData, as: UTF8.self))
        }
    }

    /// Runs a sync armed at `crashPoint` and asserts it died there, by SIGKILL, and nowhere else.
    func expectKilled(at crashPoint: String, _ home: URL, environment: [String: String]) async throws {
        let exit = try await sync(home, crashingAt: crashPoint, environment: environment)
        let point = String(crashPoint.prefix { $0 != ":" })
        #expect(exit.killedBySignal == SIGKILL, "\(crashPoint): exit \(exit.status), \(exit.stderr)")
        #expect(exit.stderr.contains("chatmail: crash point \(point) reached"), "\(crashPoint): \(exit.stderr)")
    }

    @Test(
        "killed at every named point across an initial and an incremental sync, the next runs finish with exactly a clean run's data"
    )
    func killedAtCrashPoints() async throws {
        let emulator = try await EmulatorProcess.start(synthetic: 500)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        func login(_ home: URL) async throws {
            let token = try #require(try await emulator.post("_emulator/issue-tokens")["refresh_token"] as? String)
            let file = dir.appendingPathComponent(UUID().uuidString)
            try Data(token.utf8).write(to: file)
            let result = try await CLIFixture.run(
                ["login", "--home", home.path, "--refresh-token-file", file.path], environment: emulator.environment)
            try #require(result.status == 0, "\(result.stderr)")
        }
        let interrupted = dir.appendingPathComponent("interrupted")
        try await login(interrupted)
        let environment = emulator.environment

        // The initial sync (500 messages, chunks of 250): killed after listing, inside the second chunk's
        // transaction, after the last chunk committed, after the rollup pass, and inside the catch-up pass
        // that clears the cursor.
        for point in ["idsListed", "chunkPersisted:2", "chunkCommitted", "rollupsCommitted", "historyApplied"] {
            try await expectKilled(at: point, interrupted, environment: environment)
        }
        let finishInitial = try await sync(interrupted, crashingAt: nil, environment: environment)
        try #require(finishInitial.status == 0, "\(finishInitial.stderr)")

        // A queued action and remote changes, then kills in the push and around the incremental commit.
        let archived = try await CLIFixture.run(["archive", "ann@example.org", "--home", interrupted.path])
        try #require(archived.status == 0, "\(archived.stderr)")
        for number in 0..<40 {
            let raw =
                "From: Person \(number % 7) <person\(number % 7)@example.net>\r\nTo: me@example.org\r\nSubject: late \(number)\r\nDate: Wed, 5 Mar 2025 10:\(10 + number % 50):00 +0000\r\n\r\nNew mail number \(number)\r\n"
            let encoded = Base64URL.encode(Array(raw.utf8), padded: true)
            let delivered = try await emulator.post(
                "_emulator/deliver",
                json: String(
                    decoding: try JSONSerialization.data(withJSONObject: [
                        "raw": encoded, "labelIds": ["INBOX", "UNREAD"],
                    ]), as: UTF8.self))
            try #require(delivered["id"] is String, "the emulator refused a delivery: \(delivered)")
        }
        for point in ["actionSent", "historyApplied", "historyCommitted"] {
            try await expectKilled(at: point, interrupted, environment: environment)
        }
        let finish = try await sync(interrupted, crashingAt: nil, environment: environment)
        #expect(finish.status == 0, "\(finish.stderr)")

        // A clean home, synced once from the final state, is the reference.
        let clean = dir.appendingPathComponent("clean")
        try await login(clean)
        let cleanSync = try await CLIFixture.run(["sync", "--home", clean.path], environment: environment)
        #expect(cleanSync.status == 0, "\(cleanSync.stderr)")
        // The interrupted home's last incremental pass may have read history past the clean home's; one more
        // no-op sync each brings both to Gmail's current history id.
        _ = try await CLIFixture.run(["sync", "--home", interrupted.path], environment: environment)
        _ = try await CLIFixture.run(["sync", "--home", clean.path], environment: environment)

        let expected = try canonicalSnapshot(home: clean)
        let actual = try canonicalSnapshot(home: interrupted)
        #expect(expected.filter { $0.hasPrefix("message:") }.count == 540)
        let difference = zip(expected, actual).first { $0 != $1 }
        #expect(expected.count == actual.count, "\(expected.count) vs \(actual.count) rows")
        #expect(difference == nil, "first difference: \(String(describing: difference))")
        let actions = try await DatabaseQueue(path: interrupted.appendingPathComponent("chatmail.sqlite").path).read {
            db in
            try String.fetchAll(db, sql: "SELECT status FROM pending_action")
        }
        #expect(actions == ["completed"], "the archive killed mid-push was sent again and completed")
    }

    @Test("an unknown crash point is a usage error, not an unarmed run")
    func unknownCrashPoint() async throws {
        let fixture = try CLIFixture()
        try fixture.seedCast()
        let result = try await fixture.run(["sync"], environment: ["CHATMAIL_TEST_CRASH_AT": "nowhere"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("CHATMAIL_TEST_CRASH_AT"), "\(result.stderr)")
    }

    @Test("while another process holds the account's sync lock, sync and pending run exit 4 and readers work")
    func oneSyncAtATime() async throws {
        let emulator = try await EmulatorProcess.start(synthetic: 80)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-lock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let token = try #require(try await emulator.post("_emulator/issue-tokens")["refresh_token"] as? String)
        let file = dir.appendingPathComponent("token")
        try Data(token.utf8).write(to: file)
        let home = dir.appendingPathComponent("home")
        #expect(
            try await CLIFixture.run(
                ["login", "--home", home.path, "--refresh-token-file", file.path], environment: emulator.environment
            ).status == 0)
        #expect(try await CLIFixture.run(["sync", "--home", home.path], environment: emulator.environment).status == 0)

        // This test process plays the running sync: it holds the lock file a sync holds, so the
        // interleaving is fixed rather than left to timing.
        let lockPath = home.appendingPathComponent("sync-1.lock").path
        let holder = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        try #require(holder >= 0)
        try #require(flock(holder, LOCK_EX | LOCK_NB) == 0)
        for command in [["sync"], ["pending", "run"]] {
            let refused = try await CLIFixture.run(command + ["--home", home.path], environment: emulator.environment)
            #expect(refused.status == 4, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("Another chatmail sync of this account is running"), "\(command)")
        }
        // Readers never wait for the writer.
        let reader = try await CLIFixture.run(["conversations", "--home", home.path, "--json"])
        let status = try await CLIFixture.run(["status", "--home", home.path, "--json"])
        #expect(reader.status == 0, "\(reader.stderr)")
        #expect(status.status == 0, "\(status.stderr)")
        #expect((try status.json() as? [String: Any])?["messageCount"] as? Int == 80)

        flock(holder, LOCK_UN)
        close(holder)
        let after = try await CLIFixture.run(["sync", "--home", home.path], environment: emulator.environment)
        #expect(after.status == 0, "the lock is free again: \(after.stderr)")
    }
}
