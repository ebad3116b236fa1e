import ArgumentParser
import ChatmailSync
import DovecotLauncher
import Foundation
import GmailEmulator

extension IMAPBenchmark {
    /// Incremental syncs of a synthetic mailbox of `size` messages on a Dovecot announcing `capabilities`:
    /// after an untimed initial sync and one untimed incremental sync, `runs` rounds of a sync with no
    /// changes and a sync after 20 changes. Returns the initial sync's sample, for its peak RSS.
    func incremental(
        size: Int, capabilities: DovecotConfiguration.Capabilities, chatmail: MeasuredProcess, scratch: URL
    ) throws -> MeasuredProcess.Sample {
        defer { try? FileManager.default.removeItem(at: scratch) }  // best-effort: 20k mailboxes take room
        let server = try DovecotServer.start(
            in: scratch.appendingPathComponent("dv"),
            configuration: DovecotConfiguration(capabilities: capabilities))
        defer { try? server.stop() }  // deinit stops it too; nothing to report after the figures
        let folders = try SyntheticIMAPMail(count: size).fill(server)
        let home = ChatmailIMAPHome(
            chatmail: chatmail, home: scratch.appendingPathComponent("home"), port: server.port,
            outputPath: scratch.appendingPathComponent("output.txt").path)
        try home.loginFresh()
        let (initial, initialReport) = try home.sync()
        guard initialReport.messagesAdded == size else {
            throw ProcessTimer.Failure(description: "the initial sync stored \(initialReport.messagesAdded) of \(size)")
        }
        let spread = folders.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        say("incremental, \(size) synthetic messages (\(spread)), \(Self.name(capabilities)):")
        say(
            "  initial sync (untimed for the figures below): \(initial.text) = \(Int(Double(size) / initial.wall)) msg/s, peak RSS \(Self.mb(initial.maxRSSKB)) MB"
        )
        // The first incremental sync after an initial one may settle what the initial one deferred.
        let warm = try home.sync()
        guard warm.report.mode == .incremental else {
            throw ValidationError("the warm-up sync ran \(warm.report.mode.rawValue), not incremental")
        }

        var quiet: [MeasuredProcess.Sample] = []
        var changed: [MeasuredProcess.Sample] = []
        for run in 1...runs {
            let still = try home.sync()
            guard still.report.messagesAdded + still.report.messagesDeleted + still.report.labelChanges == 0 else {
                throw ProcessTimer.Failure(description: "a sync without changes reported some: \(still.report)")
            }
            let changes = try IMAPChangeRound(server: server, run: run, tag: "\(size)-\(capabilities)").apply()
            let after = try home.sync()
            guard after.report.messagesAdded == changes.added, after.report.messagesDeleted == changes.expunged else {
                throw ProcessTimer.Failure(
                    description:
                        "after \(changes) the sync reported \(after.report.messagesAdded) new, \(after.report.messagesDeleted) deleted"
                )
            }
            quiet.append(still.sample)
            changed.append(after.sample)
            say(
                "  run \(run): no changes \(still.sample.milliseconds); after \(changes.total) changes \(after.sample.milliseconds) (\(after.report.messagesAdded) new, \(after.report.messagesDeleted) deleted, \(after.report.labelChanges) label changes)"
            )
        }
        say(
            "  median: no changes \(Self.ms(quiet.map(\.wall).median)) ms (CPU \(Self.ms(quiet.map(\.cpu).median)) ms); after 20 changes \(Self.ms(changed.map(\.wall).median)) ms (CPU \(Self.ms(changed.map(\.cpu).median)) ms)"
        )
        return initial
    }

    static func ms(_ seconds: Double) -> String { String(format: "%.0f", seconds * 1000) }
}

/// Twenty changes to INBOX made beside the client, through doveadm: seven unread messages read, seven
/// messages flagged, three expunged, three new ones delivered. Each run picks other messages, drawn
/// from its number, so the same run changes the same messages every time.
struct IMAPChangeRound: CustomStringConvertible {
    let server: DovecotServer
    let run: Int
    /// Keeps the new messages of different mailboxes and runs apart.
    let tag: String

    struct Applied {
        var flagged = 0
        var read = 0
        var expunged = 0
        var added = 0
        var total: Int { flagged + read + expunged + added }
    }

    var description: String { "run \(run)'s changes" }

    func apply() throws -> Applied {
        let user = ChatmailIMAPHome.user
        var random = SeededRandom(seed: UInt64(run) &* 0x5851_F42D)
        var taken = Set<Int>()
        func pick(_ count: Int, from query: String) throws -> [Int] {
            let candidates = try uids(query).filter { !taken.contains($0) }
            guard candidates.count >= count else {
                throw ProcessTimer.Failure(
                    description: "INBOX has \(candidates.count) \(query) messages left, not \(count)")
            }
            var chosen: [Int] = []
            var pool = candidates
            for _ in 0..<count {
                chosen.append(pool.remove(at: Int(random.next() % UInt64(pool.count))))
            }
            taken.formUnion(chosen)
            return chosen
        }
        let read = try pick(7, from: "unseen")
        let flagged = try pick(7, from: "unflagged")
        let expunged = try pick(3, from: "all")
        try server.doveadm(["flags", "add", "-u", user, "\\Seen", "mailbox", "INBOX", "uid", set(read)])
        try server.doveadm(["flags", "add", "-u", user, "\\Flagged", "mailbox", "INBOX", "uid", set(flagged)])
        try server.doveadm(["expunge", "-u", user, "mailbox", "INBOX", "uid", set(expunged)])
        for index in 0..<3 {
            try server.deliver(
                SyntheticIMAPMail.newMessage(tag: "\(tag)-\(run)", index: index), to: "INBOX", user: user)
        }
        return Applied(flagged: flagged.count, read: read.count, expunged: expunged.count, added: 3)
    }

    /// INBOX's UIDs matching a doveadm search query, ascending.
    private func uids(_ query: String) throws -> [Int] {
        let listing = try server.doveadm(["search", "-u", ChatmailIMAPHome.user, "mailbox", "INBOX", query])
        return listing.split(separator: "\n").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.sorted()
    }

    private func set(_ uids: [Int]) -> String { uids.sorted().map(String.init).joined(separator: ",") }
}
