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

/// `chatmail-bench sync`: initial sync paced by quota and unthrottled, incremental
/// sync cost by mailbox size, and initial sync under faults against a clean one.
///
/// Every emulator runs as a child `gmail-emulator` process, so this process's peak RSS (VmHWM) is the
/// sync engine's alone. Remote changes for the incremental runs go through the Gmail API
/// (`messages.modify`, `messages.trash`) and the emulator's control API (`/_emulator/deliver`).
struct SyncBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract:
            "Quota-paced initial sync, unthrottled initial sync (rate, peak RSS), incremental sync cost (large ÷ small), initial sync under faults ÷ clean."
    )

    @Option(help: "Synthetic messages for the quota-paced initial sync.") var pacedMessages = 3_000
    @Option(help: "The quota the paced emulator enforces, in units per second.") var quota = 250.0
    @Option(help: "Synthetic messages in the large mailbox (unthrottled initial sync, incremental).") var large =
        100_000
    @Option(help: "Synthetic messages in the small mailbox (incremental).") var small = 1_000
    @Option(help: "Change + incremental sync cycles per mailbox size.") var cycles = 5
    @Flag(help: "Skip the unthrottled large sync and the incremental comparison.") var skipLarge = false
    @Flag(help: "Skip the quota-paced sync.") var skipPaced = false
    @Flag(help: "Run only the clean-versus-faulty initial sync comparison.") var faultsOnly = false
    @Flag(help: "Skip the clean-versus-faulty initial sync comparison.") var skipFaults = false
    @Option(help: "Synthetic messages for the clean-versus-faulty comparison.") var faultMessages = 1_326
    @Option(help: "Share of requests the faulty emulator fails (500, 503, 429, resets).") var faultRate = 0.15
    @Option(help: "Access-token lifetime of the faulty emulator, in seconds.") var tokenLifetime = 5

    static let account = "me@example.com"

    func run() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "chatmail-bench-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort cleanup of scratch stores

        if !skipLarge && !faultsOnly {
            try await largeAndIncremental(scratch: scratch)
        }
        if !skipPaced && !faultsOnly {
            try await paced(scratch: scratch)
        }
        if !skipFaults {
            try await faults(scratch: scratch)
        }
    }

    // MARK: - Unthrottled initial sync + incremental cost

    private func largeAndIncremental(scratch: URL) async throws {
        // 1. Unthrottled initial sync of the large mailbox; peak RSS reset just before it.
        let largeEmulator = try EmulatorChild(serveArguments: [
            "--synthetic", String(large), "--seed", "11", "--me", Self.account,
        ])
        defer { largeEmulator.stop(grace: .zero) }  // nothing of its state is needed afterwards
        let largeStore = try ChatmailStore(
            path: scratch.appendingPathComponent("large.sqlite").path, subjectBase: ReplySubject.topicBase)
        let largeAccount = try Self.account(in: largeStore)
        let largeClient = Self.client(largeEmulator.baseURL.absoluteString, pacer: .unlimited())
        let largeEngine = SyncEngine(store: largeStore, gmail: largeClient)
        let rssBefore = Memory.resetPeak()
        let start = ContinuousClock.now
        let initial = try await largeEngine.run(account: largeAccount)
        let seconds = (ContinuousClock.now - start).seconds
        let hwm = Memory.status(pid: nil, field: "VmHWM")
        let emulatorHWM = Memory.status(pid: largeEmulator.processIdentifier, field: "VmHWM")
        let fileMB = Self.storeMB(scratch.appendingPathComponent("large.sqlite").path)
        say(
            "unthrottled initial sync: \(initial.messagesAdded) messages (mode \(initial.mode.rawValue), abandoned \(initial.abandoned)) in \(Self.f(seconds, 2)) s = \(Int(Double(initial.messagesAdded) / seconds)) messages/s end to end (target >= 1000)"
        )
        say(
            "  peak RSS of the sync process (VmHWM): \(Self.mb(hwm)) MB (target <= 300; peak reset before the sync: \(rssBefore ? "yes" : "no, figure includes earlier work"))"
        )
        say(
            "  peak RSS of the emulator child (VmHWM): \(Self.mb(emulatorHWM)) MB; store file(s) on disk: \(Self.f(fileMB, 1)) MB"
        )

        // 2. The small mailbox.
        let smallEmulator = try EmulatorChild(serveArguments: [
            "--synthetic", String(small), "--seed", "11", "--me", Self.account,
        ])
        defer { smallEmulator.stop(grace: .zero) }  // nothing of its state is needed afterwards
        let smallStore = try ChatmailStore(
            path: scratch.appendingPathComponent("small.sqlite").path, subjectBase: ReplySubject.topicBase)
        let smallAccount = try Self.account(in: smallStore)
        let smallClient = Self.client(smallEmulator.baseURL.absoluteString, pacer: .unlimited())
        let smallEngine = SyncEngine(store: smallStore, gmail: smallClient)
        let smallStart = ContinuousClock.now
        let smallInitial = try await smallEngine.run(account: smallAccount)
        say(
            "small initial sync: \(smallInitial.messagesAdded) messages in \(Self.f((ContinuousClock.now - smallStart).seconds, 2)) s"
        )

        // 3. Incremental: one untimed warm-up sync each (runs the hourly label reconciliation once, so the
        //    timed runs do not include it), then `cycles` rounds of 20 remote changes + a timed sync, sizes interleaved.
        let sides = [
            Side(
                name: "\(large)", engine: largeEngine, account: largeAccount, client: largeClient,
                baseURL: largeEmulator.baseURL.absoluteString),
            Side(
                name: "\(small)", engine: smallEngine, account: smallAccount, client: smallClient,
                baseURL: smallEmulator.baseURL.absoluteString),
        ]
        var plans: [ChangePlan] = []
        for side in sides {
            let warm = try await side.engine.run(account: side.account)
            guard warm.mode == .incremental else {
                throw ValidationError("warm-up sync ran \(warm.mode.rawValue), not incremental")
            }
            plans.append(try await ChangePlan.make(side.client, cycles: cycles))
        }
        var times: [[Double]] = [[], []]
        for cycle in 0..<cycles {
            for (index, side) in sides.enumerated() {
                try await plans[index].apply(cycle: cycle, client: side.client, baseURL: side.baseURL)
                let t0 = ContinuousClock.now
                let report = try await side.engine.run(account: side.account)
                let elapsed = (ContinuousClock.now - t0).seconds
                times[index].append(elapsed)
                say(
                    "  cycle \(cycle + 1) \(side.name) messages: \(Self.f(elapsed * 1000, 1)) ms (mode \(report.mode.rawValue), +\(report.messagesAdded) new, \(report.labelChanges) label changes, \(report.messagesDeleted) deleted, \(report.conversationsUpdated) conversations)"
                )
            }
        }
        let medians = times.map(\.median)
        say(
            "incremental sync of 20 changes, median of \(cycles): \(large) messages \(Self.f(medians[0] * 1000, 1)) ms, \(small) messages \(Self.f(medians[1] * 1000, 1)) ms; ratio \(Self.f(medians[0] / medians[1], 2)) (target <= 1.5)"
        )
    }

    // MARK: - Quota-paced initial sync

    private func paced(scratch: URL) async throws {
        let emulator = try EmulatorChild(serveArguments: [
            "--synthetic", String(pacedMessages), "--seed", "7", "--me", Self.account, "--quota", String(Int(quota)),
        ])
        defer { emulator.stop(grace: .zero) }  // nothing of its state is needed afterwards
        let store = try ChatmailStore(
            path: scratch.appendingPathComponent("paced.sqlite").path, subjectBase: ReplySubject.topicBase)
        let account = try Self.account(in: store)
        let client = Self.client(
            emulator.baseURL.absoluteString,
            pacer: QuotaPacer(
                configuration: .init(ceiling: quota), sleeper: ContinuousSleeper(), initialBalance: 0))
        let engine = SyncEngine(store: store, gmail: client)
        let start = ContinuousClock.now
        let report = try await engine.run(account: account)
        let seconds = (ContinuousClock.now - start).seconds
        let rate = Double(report.messagesAdded) / seconds
        let bound = quota / 5  // messages.get costs 5 units: 50 messages/s at 250 units/s
        let stats = try await Control.get(emulator.baseURL.absoluteString, "quota")
        say(
            "quota-paced initial sync: \(report.messagesAdded) messages in \(Self.f(seconds, 2)) s = \(Self.f(rate, 2)) messages/s; ÷ \(Int(bound)) = \(Self.f(rate / bound, 3)) (target >= 0.9)"
        )
        say("  emulator quota stats: \(stats)")
    }

    // MARK: - Helpers

    struct Side {
        let name: String
        let engine: SyncEngine
        let account: Account
        let client: GmailClient
        let baseURL: String
    }

    static func account(in store: ChatmailStore) throws -> Account {
        _ = try store.write { tx in try tx.ensureAccount(email: account) }
        guard let found = try store.accounts().first(where: { $0.email == account }) else {
            throw ValidationError("the store has no account \(account)")
        }
        return found
    }

    static func client(_ baseURL: String, pacer: QuotaPacer) -> GmailClient {
        GmailClient(
            configuration: .init(baseURL: URL(string: baseURL)!, batchPath: "/batch/gmail/v1"),
            transport: URLSessionTransport(), tokens: StaticTokenSource(token: "emu-static-token"), pacer: pacer)
    }

    static func storeMB(_ path: String) -> Double {
        [path, path + "-wal"].reduce(0.0) { total, file in
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.doubleValue ?? 0
            return total + size / 1_048_576
        }
    }

    static func f(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    static func mb(_ kB: Int?) -> String { kB.map { f(Double($0) / 1024, 1) } ?? "?" }
}

/// The 20 remote changes of one cycle: 5 deliveries, 5 read, 5 archived, 3 starred, 2 trashed.
/// Targets are chosen before timing, spread over the whole mailbox, each message used once.
struct ChangePlan {
    var read: [String]
    var archive: [String]
    var star: [String]
    var trash: [String]

    static func make(_ client: GmailClient, cycles: Int) async throws -> ChangePlan {
        var rng = SystemRandomNumberGenerator()
        let unread = try await client.listAllMessages(labelIDs: ["UNREAD"]).map(\.id).shuffled(using: &rng)
        let inbox = try await client.listAllMessages(labelIDs: ["INBOX"]).map(\.id).shuffled(using: &rng)
        let all = try await client.listAllMessages().map(\.id).shuffled(using: &rng)
        var used: Set<String> = []
        func take(_ pool: [String], _ count: Int) throws -> [String] {
            var picked: [String] = []
            for id in pool + all where picked.count < count && used.insert(id).inserted { picked.append(id) }
            guard picked.count == count else {
                throw ValidationError("the mailbox is too small for \(cycles) change cycles")
            }
            return picked
        }
        let read = try take(unread, 5 * cycles)
        let archive = try take(inbox, 5 * cycles)
        let star = try take(all, 3 * cycles)
        let trash = try take(all, 2 * cycles)
        return ChangePlan(read: read, archive: archive, star: star, trash: trash)
    }

    func apply(cycle: Int, client: GmailClient, baseURL: String) async throws {
        for i in 0..<5 {
            try await Control.deliver(baseURL, raw: Self.message(cycle: cycle, index: i))
        }
        for id in read[(cycle * 5)..<(cycle * 5 + 5)] { _ = try await client.modify(id: id, remove: ["UNREAD"]) }
        for id in archive[(cycle * 5)..<(cycle * 5 + 5)] { _ = try await client.modify(id: id, remove: ["INBOX"]) }
        for id in star[(cycle * 3)..<(cycle * 3 + 3)] { _ = try await client.modify(id: id, add: ["STARRED"]) }
        for id in trash[(cycle * 2)..<(cycle * 2 + 2)] { _ = try await client.trash(id: id) }
    }

    static func message(cycle: Int, index: Int) -> String {
        let date = DateFormatter()
        date.locale = Locale(identifier: "en_US_POSIX")
        date.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return """
            From: Bench Sender \(index) <sender\(index)@bench.example>\r
            To: \(SyncBenchmark.account)\r
            Subject: Incremental benchmark \(cycle)-\(index)\r
            Date: \(date.string(from: Date()))\r
            Message-ID: <bench-\(cycle)-\(index)-\(UUID().uuidString)@bench.example>\r
            MIME-Version: 1.0\r
            Content-Type: text/plain; charset=utf-8\r
            \r
            Hello, this is change \(index) of cycle \(cycle).\r

            """
    }
}

/// The emulator's control API (`/_emulator/...`), no authentication.
enum Control {
    static func deliver(_ baseURL: String, raw: String) async throws {
        var request = URLRequest(url: URL(string: baseURL + "/_emulator/deliver?labelIds=INBOX&labelIds=UNREAD")!)
        request.httpMethod = "POST"
        request.setValue("message/rfc822", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(raw.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw ValidationError("deliver failed: \(String(decoding: data, as: UTF8.self).prefix(300))")
        }
    }

    static func get(_ baseURL: String, _ action: String) async throws -> String {
        let (data, _) = try await URLSession.shared.data(from: URL(string: baseURL + "/_emulator/" + action)!)
        return String(decoding: data, as: UTF8.self)
    }
}

/// Peak resident set size from `/proc/<pid>/status`.
enum Memory {
    /// kB of `field` (`VmHWM`, `VmRSS`) for `pid`, or this process when nil.
    static func status(pid: Int32?, field: String) -> Int? {
        let path = "/proc/\(pid.map(String.init) ?? "self")/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(
                line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }

    /// Resets this process's VmHWM to its current RSS (`echo 5 > /proc/self/clear_refs`, Linux ≥ 4.0).
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do { try handle.write(contentsOf: Data("5".utf8)) } catch { return false }
        return true
    }
}

/// Writes one line to stdout unbuffered, so progress shows even when piped to a file.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
