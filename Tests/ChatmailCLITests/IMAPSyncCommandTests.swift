import ChatmailTestSupport
import DovecotLauncher
import Foundation
import Testing

/// `chatmail sync` and the reading commands on an IMAP account, through the real binary against a real
/// Dovecot. Every sync's result is compared with a fresh home's sync of the same server.
@Suite struct IMAPSyncCommandTests {
    @Test("sync --json reports initial, then incremental after another client's changes, then recovery")
    func syncModes() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        for id in ["m1", "m2", "m3", "m4"] { try await server.deliver(imapMessage(id)) }
        try await server.deliver(
            imapMessage("s1", from: "Alice <alice@example.org>", to: "bob@example.net"), to: "Sent", flags: ["\\Seen"])
        let home = server.home("modes")

        let first = try await server.loginAndSync(home)
        #expect(first["mode"] as? String == "initial")
        #expect(first["messagesAdded"] as? Int == 5)

        // Another client reads m1, archives m2 and expunges m3; new mail arrives.
        try await server.secondSession(
            in: "INBOX",
            [
                ["UID", "STORE", "1", "+FLAGS", "(\\Seen)"], ["UID", "MOVE", "2", "Archive"],
                ["UID", "STORE", "3", "+FLAGS", "(\\Deleted)"], ["EXPUNGE"],
            ])
        try await server.deliver(imapMessage("m5"))
        let second = try await server.syncJSON(home)
        #expect(second["mode"] as? String == "incremental")
        #expect(second["messagesAdded"] as? Int == 1, "m5 only: the archived message is the same message")
        #expect(second["messagesDeleted"] as? Int == 1, "m3")
        #expect((second["labelChanges"] as? Int ?? 0) >= 1)

        // The server renumbers INBOX: its messages are matched, not downloaded again nor deleted.
        let dovecot = server.dovecot
        try await offThePool { try dovecot.resetUIDValidity(of: "INBOX", user: DovecotHomes.user) }
        let third = try await server.syncJSON(home)
        #expect(third["mode"] as? String == "recovery")
        #expect(third["messagesAdded"] as? Int == 0 && third["messagesDeleted"] as? Int == 0, "\(third)")

        let fresh = server.home("modes-fresh")
        try await server.loginAndSync(fresh)
        let expected = try imapSnapshot(home: fresh)
        #expect(expected.count == 5)
        #expect(try imapSnapshot(home: home) == expected)
        #expect(try duplicateMessageIDs(home: home).isEmpty)
    }

    @Test("conversations, show, search, export, codes and rules work on an IMAP account")
    func readingCommands() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        try await server.deliver(imapMessage("r1", subject: "Lunch", body: "Shall we eat pineapple tarts on Friday?"))
        try await server.deliver(imapMessage("r2", subject: "Re: Lunch", body: "Or soup, if you prefer."))
        try await server.deliver(
            imapMessage("r3", from: "Carol <carol@example.com>", subject: "Photos", body: "The pictures from the trip.")
        )
        try await server.deliver(
            imapMessage(
                "code1", from: "GitHub <noreply@github.com>", subject: "[GitHub] Please verify your device",
                body:
                    "A sign in attempt requires further verification.\r\n\r\nYour code is 482913\r\n\r\nThe GitHub Team"
            ))
        let home = server.home("reading")
        #expect(try await server.loginAndSync(home)["messagesAdded"] as? Int == 4)
        // An hour after the messages' Date header (2026-03-02 10:00 UTC), so the code is recent.
        let now = ["CHATMAIL_NOW_MS": "1772449200000"]

        let listed = try await server.run(home, ["conversations", "--json"], environment: now)
        #expect(listed.status == 0, "\(listed.stderr)")
        let conversations = try #require(try listed.json() as? [[String: Any]])
        let people = conversations.map { conversation in
            Set((conversation["participants"] as? [[String: Any]] ?? []).compactMap { $0["address"] as? String })
        }
        #expect(people.contains(["bob@example.net"]) && people.contains(["carol@example.com"]), "\(people)")

        let show = try await server.run(home, ["show", "bob@example.net"], environment: now)
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("pineapple tarts") && show.stdout.contains("Or soup"), "\(show.stdout)")

        let search = try await server.run(home, ["search", "pineapple", "--json"], environment: now)
        #expect(search.status == 0, "\(search.stderr)")
        #expect((try search.json() as? [Any])?.count == 1, "\(search.stdout)")
        let nothing = try await server.run(home, ["search", "zebra"], environment: now)
        #expect(nothing.stdout == "No messages match.\n")

        let out = server.directory.appendingPathComponent("export")
        let export = try await server.run(home, ["export", "--all", "-o", out.path], environment: now)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(
            export.stdout.hasPrefix("Exported \(conversations.count) conversations (4 messages)"), "\(export.stdout)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".md") }
        #expect(files.contains("index.md") && files.count == conversations.count + 1, "\(files)")

        let codes = try await server.run(home, ["codes", "--json", "--since", "1d"], environment: now)
        #expect(codes.status == 0, "\(codes.stderr)")
        let found = try #require(try codes.json() as? [[String: Any]], "\(codes.stdout)")
        #expect(found.map { $0["code"] as? String } == ["482913"], "\(found)")
        #expect(found.first?["service"] as? String == "GitHub")

        let added = try await server.run(home, ["rules", "add", "deny", "carol@example.com"], environment: now)
        #expect(added.status == 0, "\(added.stderr)")
        let rules = try #require(try await server.run(home, ["rules", "--json"]).json() as? [[String: Any]])
        #expect(rules.map { $0["pattern"] as? String } == ["carol@example.com"], "\(rules)")
        let after = try #require(
            try await server.run(home, ["conversations", "--json"], environment: now).json() as? [[String: Any]])
        #expect(after.count == conversations.count - 1, "the denied sender's conversation is screened out")
        // A later sync keeps applying the rule to new mail.
        try await server.deliver(imapMessage("r4", from: "Carol <carol@example.com>", body: "One more photo."))
        #expect(try await server.syncJSON(home)["messagesAdded"] as? Int == 1)
        let later = try #require(
            try await server.run(home, ["conversations", "--json"], environment: now).json() as? [[String: Any]])
        #expect(later.count == after.count, "\(later)")
    }

    @Test("archive on an IMAP account: local at once; pending run moves it to Archive on the server, once")
    func archiveReachesTheServer() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        try await server.deliver(imapMessage("p1"))
        let home = server.home("pending")
        try await server.loginAndSync(home)

        let archive = try await server.run(home, ["archive", "bob@example.net"])
        #expect(archive.status == 0, "\(archive.stderr)")
        // The local change is there before any network: the inbox is empty.
        let inbox = try #require(try await server.run(home, ["conversations", "--json"]).json() as? [[String: Any]])
        #expect(inbox.isEmpty, "\(inbox)")
        let run = try await server.run(home, ["pending", "run", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect((try run.json() as? [String: Any])?["sent"] as? Int == 1, "\(run.stdout)")
        func copies(_ folder: String) async throws -> Int {
            try await IMAPFolderSnapshot.read(
                host: server.host, port: server.port, user: DovecotHomes.user, password: DovecotHomes.password,
                folder: folder
            ).copies(of: "<p1@").count
        }
        #expect(try await copies("INBOX") == 0)
        #expect(try await copies("Archive") == 1)
        let sync = try await server.syncJSON(home)
        #expect(sync["messagesAdded"] as? Int == 0 && sync["messagesDeleted"] as? Int == 0, "\(sync)")
        #expect(try duplicateMessageIDs(home: home).isEmpty)
        let queue = try #require(try await server.run(home, ["pending", "list", "--json"]).json() as? [[String: Any]])
        #expect(queue.isEmpty, "\(queue)")
    }

    @Test("a rule that archives: new mail from the sender leaves the server's INBOX through the queue, once")
    func ruleArchivesOnTheServer() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        try await server.deliver(imapMessage("old", from: "Deals <deals@shop.example>", body: "Old offer."))
        let home = server.home("rules")
        try await server.loginAndSync(home)
        let rule = try await server.run(home, ["rules", "add", "deny", "deals@shop.example", "--archive"])
        #expect(rule.status == 0, "\(rule.stderr)")
        try await server.deliver(imapMessage("new", from: "Deals <deals@shop.example>", body: "New offer."))
        // The sync that stores the new mail applies the rule at once and queues the archive; the queue
        // reaches the server on the next push, which `pending run` (or the next sync) makes.
        _ = try await server.syncJSON(home)
        let run = try await server.run(home, ["pending", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        func copies(_ id: String, in folder: String) async throws -> Int {
            try await IMAPFolderSnapshot.read(
                host: server.host, port: server.port, user: DovecotHomes.user, password: DovecotHomes.password,
                folder: folder
            ).copies(of: "<\(id)@").count
        }
        for id in ["old", "new"] {
            #expect(try await copies(id, in: "INBOX") == 0, "\(id)")
            #expect(try await copies(id, in: "Archive") == 1, "\(id)")
        }
        let sync = try await server.syncJSON(home)
        #expect(sync["messagesAdded"] as? Int == 0 && sync["messagesDeleted"] as? Int == 0, "\(sync)")
        #expect(try duplicateMessageIDs(home: home).isEmpty)
    }

    @Test("killed after the server moved a message and before the store knew: the next run moves each once")
    func killedMidAction() async throws {
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        try await server.deliver(imapMessage("k1", body: "One."))
        try await server.deliver(imapMessage("k2", body: "Two."))
        let home = server.home("killed")
        try await server.loginAndSync(home)
        #expect(try await server.run(home, ["archive", "bob@example.net"]).status == 0)
        let killed = try await server.run(
            home, ["pending", "run"], environment: ["CHATMAIL_TEST_CRASH_AT": "actionSent"])
        #expect(killed.status != 0, "the crash point should have ended the process")
        func copies(_ id: String, in folder: String) async throws -> Int {
            try await IMAPFolderSnapshot.read(
                host: server.host, port: server.port, user: DovecotHomes.user, password: DovecotHomes.password,
                folder: folder
            ).copies(of: "<\(id)@").count
        }
        let movedBeforeTheKill = try await copies("k1", in: "Archive") + copies("k2", in: "Archive")
        #expect(movedBeforeTheKill == 1, "one message moved, then the process died")
        let run = try await server.run(home, ["pending", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        for id in ["k1", "k2"] {
            #expect(try await copies(id, in: "Archive") == 1, "\(id)")
            #expect(try await copies(id, in: "INBOX") == 0, "\(id)")
        }
        let sync = try await server.syncJSON(home)
        #expect(sync["messagesAdded"] as? Int == 0 && sync["messagesDeleted"] as? Int == 0, "\(sync)")
        #expect(try duplicateMessageIDs(home: home).isEmpty)
    }

    @Test("a Gmail and an IMAP account in one home: sync needs --account, and each shows its own mail")
    func twoAccountsInOneHome() async throws {
        let gmail = try await LoggedInHome(synthetic: 12)
        let server = try await DovecotHomes.start()
        defer { server.stop() }
        for id in ["t1", "t2", "t3"] {
            try await server.deliver(imapMessage(id, from: "Quentin <quentin@imap.example>"))
        }
        let login = try await server.login(gmail.home)
        #expect(login.status == 0, "\(login.stderr)")

        let ambiguous = try await gmail.run(["sync"])
        #expect(ambiguous.status == 64, "\(ambiguous.stderr)")
        #expect(
            ambiguous.stderr.contains("alice@example.org") && ambiguous.stderr.contains("me@example.org"),
            "\(ambiguous.stderr)")

        let imapSync = try await gmail.run(["--account", "alice@example.org", "sync", "--json"])
        #expect(imapSync.status == 0, "\(imapSync.stderr)")
        let report = try #require(try imapSync.json() as? [String: Any])
        #expect(report["mode"] as? String == "initial" && report["messagesAdded"] as? Int == 3, "\(report)")
        let gmailSync = try await gmail.run(["--account", "me@example.org", "sync", "--json"])
        #expect(gmailSync.status == 0, "\(gmailSync.stderr)")

        func participants(_ account: String) async throws -> Set<String> {
            let listed = try await gmail.run(["conversations", "--account", account, "--json", "--limit", "500"])
            let conversations = try #require(try listed.json() as? [[String: Any]], "\(listed.stderr)")
            return Set(
                conversations.flatMap {
                    ($0["participants"] as? [[String: Any]] ?? []).compactMap { $0["address"] as? String }
                })
        }
        let imapPeople = try await participants("alice@example.org")
        let gmailPeople = try await participants("me@example.org")
        #expect(imapPeople == ["quentin@imap.example"])
        #expect(!gmailPeople.isEmpty && !gmailPeople.contains("quentin@imap.example"), "\(gmailPeople)")
        #expect(try imapSnapshot(home: gmail.home, account: "alice@example.org").count == 3)

        for (account, provider) in [("alice@example.org", "imap"), ("me@example.org", "gmail")] {
            let status = try await gmail.run(["status", "--account", account, "--json"])
            #expect((try status.json() as? [String: Any])?["provider"] as? String == provider, "\(status.stderr)")
        }
    }
}
