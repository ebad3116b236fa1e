import ChatmailTestSupport
import Foundation
import GRDB
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A logged-in, synced home against a `gmail-emulator` child, and the emulator's side of things.
final class LoggedInHome {
    let emulator: EmulatorProcess
    let dir: URL
    var home: URL { dir.appendingPathComponent("home") }

    init(synthetic: Int = 60) async throws {
        emulator = try await EmulatorProcess.start(synthetic: synthetic)
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-pending-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let token = try #require(try await emulator.post("_emulator/issue-tokens")["refresh_token"] as? String)
        let file = dir.appendingPathComponent("token")
        try Data(token.utf8).write(to: file)
        try #require(try await run(["login", "--refresh-token-file", file.path]).status == 0)
        try #require(try await run(["sync"]).status == 0)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }  // best-effort cleanup

    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> RunResult {
        try await CLIFixture.run(
            arguments + ["--home", home.path], environment: emulator.environment.merging(environment) { $1 })
    }

    /// `show <person> --json`'s messages as (gmailId, labels).
    func messages(_ person: String) async throws -> [(id: String, labels: Set<String>)] {
        let result = try await run(["show", person, "--json", "--limit", "500"])
        let json = try #require(try result.json() as? [String: Any], "\(result.stderr)")
        let messages = try #require(json["messages"] as? [[String: Any]])
        return messages.map { ($0["gmailId"] as? String ?? "", Set($0["labels"] as? [String] ?? [])) }
    }

    /// A message's labels as Gmail has them (the emulator's static access token).
    func serverLabels(_ id: String) async throws -> Set<String> {
        let json = try await gmail("messages/\(id)?format=minimal")
        return Set(json["labelIds"] as? [String] ?? [])
    }

    func gmail(_ path: String) async throws -> [String: Any] {
        var request = URLRequest(url: URL(string: emulator.baseURL.absoluteString + "/gmail/v1/users/me/" + path)!)
        request.setValue("Bearer emu-static-token", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func control(_ method: String, _ path: String, json: String? = nil) async throws -> [String: Any] {
        var request = URLRequest(url: emulator.baseURL.appendingPathComponent("_emulator/" + path))
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]  // DELETE answers {}
    }

    func fault(_ method: String, _ kind: String) async throws {
        _ = try await control("PUT", "faults", json: #"{"rules": [{"method": "\#(method)", "kind": "\#(kind)"}]}"#)
    }

    func clearFaults() async throws { _ = try await control("DELETE", "faults") }

    /// Polls `condition` until it holds, for at most 60 s (a loaded machine is slow, never this slow).
    /// Returns whether it held; the caller asserts that, so a missed condition fails the test.
    func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws -> Bool {
        if try await poll(for: .seconds(60), every: .milliseconds(20), until: condition) { return true }
        Issue.record("timed out waiting until \(what)")
        return false
    }

    func pendingJSON(all: Bool = false) async throws -> [[String: Any]] {
        let result = try await run(["pending", "list", "--json"] + (all ? ["--all"] : []))
        return try #require(try result.json() as? [[String: Any]], "\(result.stderr)")
    }
}

@Suite struct PendingCommandTests {
    @Test(
        "archive is local at once and queued; `pending --json` has its documented shape; sync sends it and Gmail archives exactly those messages"
    )
    func archiveEndToEnd() async throws {
        let setup = try await LoggedInHome()
        let dana = try await setup.messages("dana")
        let inInbox = dana.filter { $0.labels.contains("INBOX") }.map(\.id)
        try #require(!inInbox.isEmpty)
        let bob = try await setup.messages("bob")

        let archive = try await setup.run(["archive", "dana"])
        #expect(archive.status == 0, "\(archive.stderr)")
        #expect(archive.stdout == "Archived: Dana Lee (\(inInbox.count) messages). Queued for Gmail as action #1.\n")
        #expect(try await setup.messages("dana").allSatisfy { !$0.labels.contains("INBOX") })
        let list = try #require(try await setup.run(["conversations", "--json"]).json() as? [[String: Any]])
        #expect(!list.contains { ($0["title"] as? String) == "Dana Lee" })

        let pending = try await setup.pendingJSON()
        #expect(pending.count == 1)
        #expect(Set(pending[0].keys) == ["id", "kind", "target", "status", "attempts", "nextAttemptAt", "lastError"])
        #expect(pending[0]["kind"] as? String == "archive" && pending[0]["status"] as? String == "pending")
        #expect(pending[0]["target"] as? String == "dana@example.com" && pending[0]["attempts"] as? Int == 0)
        #expect(
            pending[0]["lastError"] is NSNull && pending[0]["nextAttemptAt"] as? String == "2025-03-05T12:00:00+00:00")
        let status = try #require(try await setup.run(["status", "--json"]).json() as? [String: Any])
        #expect((status["pendingActions"] as? [String: Int])?["pending"] == 1)
        #expect(try await setup.run(["status"]).stdout.contains("Pending actions     1 pending, 0 failed, 0 abandoned"))
        for id in inInbox { #expect(try await setup.serverLabels(id).contains("INBOX")) }  // not sent yet

        let sync = try #require(try await setup.run(["sync", "--json"]).json() as? [String: Any])
        #expect(sync["pendingSent"] as? Int == 1)
        for message in dana {
            #expect(try await setup.serverLabels(message.id) == message.labels.subtracting(["INBOX"]))
        }
        for message in bob { #expect(try await setup.serverLabels(message.id) == message.labels) }
        #expect(try await setup.run(["pending"]).stdout == "No queued actions.\n")
        #expect(try await setup.pendingJSON(all: true).first?["status"] as? String == "completed")
    }

    @Test(
        "permanent 403: abandoned at once and listed with its reason, labels restored; retry requeues; dismiss drops and restores"
    )
    func abandonRetryDismiss() async throws {
        let setup = try await LoggedInHome()
        let newest = try #require(try await setup.messages("bob").last)
        try #require(!newest.labels.contains("STARRED"))
        try await setup.fault("messages.modify", "403scope")

        #expect(try await setup.run(["star", "bob"]).status == 0)
        #expect(try await setup.messages("bob").last?.labels.contains("STARRED") == true)
        let sync = try await setup.run(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("1 action abandoned (see `chatmail pending`)"), "\(sync.stdout)")
        let listing = try await setup.run(["pending"])
        #expect(
            listing.stdout.contains("#1  star  abandoned  1         -     bob@example.net (1 message)"),
            "\(listing.stdout)")
        #expect(listing.stdout.contains("last error: Gmail denied access (insufficientPermissions)."))
        let json = try await setup.pendingJSON()
        #expect(json.first?["nextAttemptAt"] is NSNull)
        #expect((json.first?["lastError"] as? String)?.contains("insufficientPermissions") == true)
        #expect(try await setup.messages("bob").last?.labels == newest.labels)  // Gmail's labels again
        #expect(try await setup.run(["status"]).stdout.contains("0 pending, 0 failed, 1 abandoned"))

        let retry = try await setup.run(["pending", "retry", "--all"])
        #expect(retry.stdout == "Requeued #1; they are sent on the next `chatmail sync` or `chatmail pending run`.\n")
        #expect(try await setup.pendingJSON().first?["status"] as? String == "pending")
        #expect(try await setup.messages("bob").last?.labels.contains("STARRED") == true)
        try await setup.clearFaults()
        let run = try await setup.run(["pending", "run"])
        #expect(run.stdout.hasPrefix("Actions: sent 1"), "\(run.stdout) \(run.stderr)")
        #expect(try await setup.serverLabels(newest.id).contains("STARRED"))

        try await setup.fault("messages.modify", "403scope")
        #expect(try await setup.run(["unstar", "bob"]).status == 0)
        #expect(try await setup.run(["pending", "run"]).stdout.contains("1 abandoned"))
        let dismiss = try await setup.run(["pending", "dismiss", "#2"])
        #expect(dismiss.stdout.hasPrefix("Dismissed #2. Gmail's labels restored"), "\(dismiss.stdout)")
        #expect(try await setup.messages("bob").last?.labels.contains("STARRED") == true)
        #expect(try await setup.pendingJSON().isEmpty)

        let one = try await setup.run(["read", "--message", newest.id])
        let expected =
            newest.labels.contains("UNREAD")
            ? "Marked as read: message \(newest.id). Queued for Gmail as action #3.\n"
            : "Nothing to change: message \(newest.id) is already in that state.\n"
        #expect(one.stdout == expected, "\(one.stderr)")

        #expect(try await setup.run(["pending", "dismiss", "2"]).status == 2)
        #expect(try await setup.run(["pending", "retry"]).status == 64)
        #expect(try await setup.run(["archive", "nobody-at-all"]).status == 2)
        #expect(try await setup.run(["archive", "--message", "ffffffffffffffff"]).status == 2)
        #expect(try await setup.run(["archive"]).status == 64)
    }

    @Test(
        "dismiss while a sync holds the lock: the action is dropped, but its labels wait for the next sync instead of racing it"
    )
    func dismissDuringSync() async throws {
        let setup = try await LoggedInHome()
        let newest = try #require(try await setup.messages("bob").last)
        try #require(!newest.labels.contains("STARRED"))
        try await setup.fault("messages.modify", "503")
        #expect(try await setup.run(["star", "bob"]).status == 0)
        #expect(try await setup.run(["pending", "run"]).stdout.contains("1 failed"))
        #expect(try await setup.pendingJSON().first?["status"] as? String == "failed")

        // Hold the account's sync lock, as a running `chatmail sync` does.
        let lockName = try #require(
            try FileManager.default.contentsOfDirectory(atPath: setup.home.path)
                .first { $0.hasPrefix("sync-") && $0.hasSuffix(".lock") })
        let descriptor = open(setup.home.appendingPathComponent(lockName).path, O_RDWR)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let dismiss = try await setup.run(["pending", "dismiss", "1"])
        flock(descriptor, LOCK_UN)
        close(descriptor)
        #expect(dismiss.status == 0, "\(dismiss.stderr)")
        #expect(dismiss.stdout == "Dismissed #1. Gmail's labels are restored on the next `chatmail sync`.\n")
        #expect(try await setup.pendingJSON().isEmpty)
        #expect(try await setup.messages("bob").last?.labels.contains("STARRED") == true)  // not re-read under the sync

        let sync = try await setup.run(["sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try await setup.messages("bob").last?.labels == newest.labels)  // Gmail's labels again
        #expect(try await setup.serverLabels(newest.id) == newest.labels)
    }

    @Test(
        "offline: `pending run` exits 1 with the network's reason; the action waits, uncounted, never abandoned, and is sent once Gmail is back"
    )
    func offlineRun() async throws {
        let setup = try await LoggedInHome()
        let newest = try #require(try await setup.messages("bob").last)
        try #require(!newest.labels.contains("STARRED"))
        #expect(try await setup.run(["star", "bob"]).status == 0)
        #expect(try await setup.run(["read", "zoe"]).stdout.contains("Queued for Gmail as action #2"))
        // The token server still answers; the Gmail API does not (a closed port).
        for minute in 1...6 {
            let now = String(CLIFixture.now + Int64(minute) * 600_000)
            let run = try await setup.run(
                ["pending", "run"],
                environment: ["CHATMAIL_GMAIL_API_URL": "http://127.0.0.1:1", "CHATMAIL_NOW_MS": now])
            #expect(run.status == 1)
            #expect(
                run.stdout == "Actions: sent 0, 1 failed (retried later), 1 not tried (Gmail unreachable).\n",
                "\(run.stdout)")
            #expect(run.stderr.contains("Could not reach Gmail"), "\(run.stderr)")
        }
        let listed = try #require(try await setup.pendingJSON().first)
        #expect(listed["status"] as? String == "failed" && listed["attempts"] as? Int == 0)
        #expect((listed["lastError"] as? String)?.contains("Could not reach Gmail") == true)
        #expect(try await setup.messages("bob").last?.labels.contains("STARRED") == true)  // not rolled back

        let later = String(CLIFixture.now + 7 * 600_000)
        let back = try await setup.run(["pending", "run"], environment: ["CHATMAIL_NOW_MS": later])
        #expect(back.status == 0 && back.stdout.hasPrefix("Actions: sent 2"), "\(back.stdout) \(back.stderr)")
        #expect(try await setup.serverLabels(newest.id).contains("STARRED"))
    }

    @Test("kill -9 while an action is being sent: after a restart nothing is lost and nothing is applied twice")
    func crashSafety() async throws {
        let setup = try await LoggedInHome()
        let zoe = try await setup.messages("zoe")
        let unread = zoe.filter { $0.labels.contains("UNREAD") }.map(\.id)
        try #require(!unread.isEmpty && unread.count < 10)
        let startHistory = try #require(try await setup.control("GET", "state")["historyId"] as? String)
        #expect(try await setup.run(["read", "zoe"]).status == 0)
        try await setup.fault("messages.modify", "hold")

        let process = Process()
        process.executableURL = CLIFixture.executable
        process.arguments = ["pending", "run", "--home", setup.home.path]
        process.environment = ProcessInfo.processInfo.environment.merging(setup.emulator.environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first modify has reached Gmail and is held there: chatmail is waiting for its answer.
        let held = try await setup.waitUntil("the first modify is held") {
            try await setup.control("GET", "faults/held")["held"] as? Int == 1
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(held)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try await setup.pendingJSON().first?["status"] as? String == "processing")

        // The next run sends the action again while the dead run's request is still held.
        try await setup.clearFaults()
        let rerun = try await setup.run(["pending", "run"])
        #expect(rerun.stdout.hasPrefix("Actions: sent 1"), "\(rerun.stdout) \(rerun.stderr)")
        // Now Gmail carries out the dead run's request as well, late: it must change nothing more.
        #expect(try await setup.control("POST", "faults/release")["released"] as? Int == 1)
        let modifies = { () async throws -> Int in
            let log = try await setup.control("GET", "requests")["requests"] as? [[String: Any]] ?? []
            return log.filter { $0["gmailMethod"] as? String == "messages.modify" && $0["status"] as? Int == 200 }.count
        }
        #expect(
            try await setup.waitUntil("the released modify has been answered") {
                try await modifies() == unread.count + 1
            })
        let finished = try #require(try await setup.pendingJSON(all: true).first)
        #expect(finished["status"] as? String == "completed" && finished["attempts"] as? Int == 2)
        for id in unread { #expect(try await setup.serverLabels(id).contains("UNREAD") == false) }
        // Gmail's history holds exactly one UNREAD removal per message: no loss, no double effect.
        let history = try await setup.gmail("history?startHistoryId=\(startHistory)")
        let removals = (history["history"] as? [[String: Any]] ?? []).flatMap { record in
            (record["labelsRemoved"] as? [[String: Any]] ?? []).compactMap { change -> String? in
                guard (change["labelIds"] as? [String])?.contains("UNREAD") == true else { return nil }
                return (change["message"] as? [String: Any])?["id"] as? String
            }
        }
        #expect(removals.sorted() == unread.sorted())
        #expect(try await setup.messages("zoe").allSatisfy { !$0.labels.contains("UNREAD") })
    }
}
