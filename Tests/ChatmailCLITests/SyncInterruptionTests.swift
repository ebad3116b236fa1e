import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GRDB
import Testing

/// The data a sync produces, without times that depend on when it ran: two homes with equal snapshots
/// hold the same mail, labels and conversations.
func canonicalSnapshot(home: URL) throws -> [String] {
    try DatabaseQueue(path: home.appendingPathComponent("chatmail.sqlite").path).read { db in
        let messages = try Row.fetchAll(db, sql: """
            SELECT m.gmail_id, c.participant_hash, m.subject, m.body_text, m.is_newsletter,
                   (SELECT group_concat(l.gmail_id, ',') FROM (SELECT l.gmail_id FROM message_label ml JOIN label l ON l.id = ml.label_id
                     WHERE ml.message_id = m.id ORDER BY l.gmail_id) l) AS labels
            FROM message m JOIN conversation c ON c.id = m.conversation_id ORDER BY m.gmail_id
            """).map { "message: \($0)" }
        let conversations = try Row.fetchAll(db, sql: """
            SELECT participant_hash, title, message_count, unread_count, has_inbox, archived_at_ms IS NOT NULL AS archived,
                   last_message_at_ms, snippet, is_newsletter
            FROM conversation WHERE message_count > 0 ORDER BY participant_hash
            """).map { "conversation: \($0)" }
        let queue = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_queue") ?? -1
        let history = try String.fetchOne(db, sql: "SELECT history_id FROM account") ?? "none"
        return messages + conversations + ["queue: \(queue)", "history: \(history)"]
    }
}

@Suite struct SyncInterruptionTests {
    /// Runs `chatmail sync` and kills it with SIGKILL after `delay`; returns whether it was still running.
    func syncKilled(after delay: Duration, home: URL, environment: [String: String]) async throws -> Bool {
        let process = Process()
        process.executableURL = CLIFixture.executable
        process.arguments = ["sync", "--home", home.path]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await Task.sleep(for: delay)
        let wasRunning = process.isRunning
        if wasRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return wasRunning
    }

    @Test("kill -9 at 10 points across an initial and an incremental sync: the next runs finish with exactly a clean run's data")
    func killNine() async throws {
        let emulator = try EmulatorProcess(synthetic: 500)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        func login(_ home: URL) async throws {
            let token = try #require(try await emulator.post("_emulator/issue-tokens")["refresh_token"] as? String)
            let file = dir.appendingPathComponent(UUID().uuidString)
            try Data(token.utf8).write(to: file)
            let result = try await CLIFixture.run(["login", "--home", home.path, "--refresh-token-file", file.path], environment: emulator.environment)
            try #require(result.status == 0, "\(result.stderr)")
        }
        let interrupted = dir.appendingPathComponent("interrupted")
        try await login(interrupted)

        // Six kills spread over the initial sync.
        var killedWhileRunning = 0
        for milliseconds in [60, 150, 250, 400, 600, 900] {
            if try await syncKilled(after: .milliseconds(milliseconds), home: interrupted, environment: emulator.environment) {
                killedWhileRunning += 1
            }
        }
        let finishInitial = try await CLIFixture.run(["sync", "--home", interrupted.path, "--json"], environment: emulator.environment)
        #expect(finishInitial.status == 0, "\(finishInitial.stderr)")

        // Remote changes, then four kills spread over the incremental sync that applies them.
        for number in 0..<40 {
            let raw = "From: Person \(number % 7) <person\(number % 7)@example.net>\r\nTo: me@example.org\r\nSubject: late \(number)\r\nDate: Wed, 5 Mar 2025 10:\(10 + number % 50):00 +0000\r\n\r\nNew mail number \(number)\r\n"
            let encoded = Data(raw.utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")  // base64url, as the control API takes
            let delivered = try await emulator.post(
                "_emulator/deliver",
                json: String(decoding: try JSONSerialization.data(withJSONObject: ["raw": encoded, "labelIds": ["INBOX", "UNREAD"]]), as: UTF8.self))
            try #require(delivered["id"] is String, "the emulator refused a delivery: \(delivered)")
        }
        for milliseconds in [40, 120, 250, 500] {
            if try await syncKilled(after: .milliseconds(milliseconds), home: interrupted, environment: emulator.environment) {
                killedWhileRunning += 1
            }
        }
        let finish = try await CLIFixture.run(["sync", "--home", interrupted.path], environment: emulator.environment)
        #expect(finish.status == 0, "\(finish.stderr)")
        #expect(killedWhileRunning >= 5, "most kills should land while a sync runs (\(killedWhileRunning) of 10 did)")

        // A clean home, synced once from the final state, is the reference.
        let clean = dir.appendingPathComponent("clean")
        try await login(clean)
        let cleanSync = try await CLIFixture.run(["sync", "--home", clean.path], environment: emulator.environment)
        #expect(cleanSync.status == 0, "\(cleanSync.stderr)")
        // The interrupted home's last incremental pass may have read history past the clean home's; one more
        // no-op sync each brings both to Gmail's current history id.
        _ = try await CLIFixture.run(["sync", "--home", interrupted.path], environment: emulator.environment)
        _ = try await CLIFixture.run(["sync", "--home", clean.path], environment: emulator.environment)

        let expected = try canonicalSnapshot(home: clean)
        let actual = try canonicalSnapshot(home: interrupted)
        #expect(expected.filter { $0.hasPrefix("message:") }.count == 540)
        let difference = zip(expected, actual).first { $0 != $1 }
        #expect(expected.count == actual.count, "\(expected.count) vs \(actual.count) rows")
        #expect(difference == nil, "first difference: \(String(describing: difference))")
    }

    @Test("while another process holds the account's sync lock, sync and pending run exit 4 and readers work")
    func oneSyncAtATime() async throws {
        let emulator = try EmulatorProcess(synthetic: 80)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-lock-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let token = try #require(try await emulator.post("_emulator/issue-tokens")["refresh_token"] as? String)
        let file = dir.appendingPathComponent("token")
        try Data(token.utf8).write(to: file)
        let home = dir.appendingPathComponent("home")
        #expect(try await CLIFixture.run(["login", "--home", home.path, "--refresh-token-file", file.path], environment: emulator.environment).status == 0)
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
