import ChatmailStore
import Foundation
import GmailAPI
import GmailEmulator
import MailText
import Testing

@testable import ChatmailSync

/// Replies and new messages end to end against the emulator: what Gmail receives (headers, threading),
/// and that every path, including lost answers, leaves exactly one copy on the server and one locally.
@Suite struct OutboxSyncTests {
    static let fromAlice = rawMessage(1, from: "Alice <alice@example.com>", subject: "Lunch")
    static let groupMessage = rawMessage(
        2, from: "Bob <bob@example.com>", to: "me@example.org, carol@example.com", cc: "dan@example.com",
        subject: "AW: Re: Plans")
    static let toMyAlias = rawMessage(3, from: "Erin <erin@example.com>", to: "me.work@example.org", subject: "Work")

    /// Syncs `seeded`, then runs `body` with a queue-and-send helper for the conversation of `person`.
    static func withOutbox(
        _ seeded: [([UInt8], [String]?)], aliases: [String] = [],
        _ body: (RunningEmulator, ChatmailStore, Account, Outbox) async throws -> Void
    ) async throws {
        try await withSyncSetup(mailbox: .messages(seeded), aliases: aliases) { emulator, store, account, _ in
            _ = try await makeEngine(emulator, store).run(account: account)
            try await body(emulator, store, account, Outbox(emulator: emulator, store: store, account: account))
        }
    }

    struct Outbox {
        let emulator: RunningEmulator
        let store: ChatmailStore
        let account: Account

        var sender: PendingActionSender {
            PendingActionSender(
                store: store, gmail: emulatorClient(emulator), timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
        }

        func conversation(with address: String) throws -> ConversationSummary {
            try #require(
                try store.conversations(in: account.id, filter: .init(visibility: .all)).first {
                    $0.participants.contains { $0.address == address }
                })
        }

        /// Queues a reply in the conversation with `address`.
        func reply(to address: String, _ text: String) async throws -> PendingActionID {
            let context = try #require(try store.replyContext(of: try conversation(with: address).id))
            let message = try ReplyPlanner.reply(to: context, text: text, quote: false, timeZone: .current)
            return try await queue(message)
        }

        func queue(_ message: QueuedMessage) async throws -> PendingActionID {
            try await OutboxQueue.queue(message, in: store, account: account.id)
        }

        /// The messages on the server in SENT, parsed.
        func sent() async -> [(stored: StoredMessage, parsed: ParsedMessage)] {
            await emulator.mailbox.list(matching: { $0.labelIds.contains("SENT") }, after: nil, limit: 1000).page
                .map { ($0, ParsedMessage(raw: $0.raw)) }
        }

        /// Every local message whose text is `text`, with its outbox state.
        func local(_ text: String) throws -> [TranscriptMessage] {
            try store.conversations(in: account.id, filter: .init(visibility: .all)).flatMap {
                try store.transcript(of: $0.id, limit: 1000)?.messages ?? []
            }.filter { $0.text == text }
        }

        func action(_ id: PendingActionID) async throws -> PendingAction? {
            try await store.write { tx in try tx.pendingAction(id, in: account.id) }
        }
    }

    @Test("a 1:1 reply: To the person, Re: subject, In-Reply-To and References the parent, in its Gmail thread")
    func directReply() async throws {
        try await Self.withOutbox([(Self.fromAlice, ["INBOX"])]) { emulator, store, account, outbox in
            let id = try await outbox.reply(to: "alice@example.com", "Yes, noon works.")
            // Stored before any network call: the bubble is there, marked queued.
            #expect(try outbox.local("Yes, noon works.").map(\.outbox?.status) == [.queued])
            #expect(try await outbox.sender.sendMessage(id, account: account.id) == .completed)
            let sent = await outbox.sent()
            #expect(sent.count == 1)
            let message = try #require(sent.first)
            #expect(message.parsed.to.map(\.address) == ["alice@example.com"])
            #expect(message.parsed.from.map(\.address) == ["me@example.org"])
            #expect(message.parsed.subject == "Re: Lunch 1")
            #expect(
                message.parsed.root.headers.first("In-Reply-To").map { String(decoding: $0, as: UTF8.self) }
                    == "<m1@example.org>")
            #expect(message.parsed.references == ["<m1@example.org>"])
            let parentThread = try #require(
                await emulator.mailbox.list(matching: { !$0.labelIds.contains("SENT") }, after: nil, limit: 10).page
                    .first?.threadId)
            #expect(message.stored.threadId == parentThread)
            // Locally: once, with the server's id, no longer in the outbox; a sync keeps it once.
            let local = try outbox.local("Yes, noon works.")
            #expect(local.map(\.gmailID) == [message.stored.id] && local.first?.outbox == nil)
            _ = try await makeEngine(emulator, store).run(account: account)
            #expect(try outbox.local("Yes, noon works.").map(\.gmailID) == [message.stored.id])
            #expect(try await outbox.action(id)?.status == .completed)
        }
    }

    @Test("a group reply goes to everyone but me; a reply to my alias is sent from that alias")
    func groupAndAlias() async throws {
        try await Self.withOutbox(
            [(Self.groupMessage, ["INBOX"]), (Self.toMyAlias, ["INBOX"])], aliases: ["me.work@example.org"]
        ) { _, _, account, outbox in
            let group = try await outbox.reply(to: "bob@example.com", "Count me in.")
            let work = try await outbox.reply(to: "erin@example.com", "On it.")
            for id in [group, work] {
                #expect(try await outbox.sender.sendMessage(id, account: account.id) == .completed)
            }
            let sent = await outbox.sent()
            let toGroup = try #require(sent.first { $0.parsed.subject == "Re: Plans 2" })
            let recipients = Set((toGroup.parsed.to + toGroup.parsed.cc).map(\.address))
            #expect(recipients == ["bob@example.com", "carol@example.com", "dan@example.com"])
            let toErin = try #require(sent.first { $0.parsed.subject == "Re: Work 3" })
            #expect(toErin.parsed.from.map(\.address) == ["me.work@example.org"])
        }
    }

    @Test("a list reply goes to the list's posting address and stays in the list conversation")
    func listReply() async throws {
        let listMessage = rawListMessage(4, from: "Alice <alice@example.com>")
        try await Self.withOutbox([(listMessage, ["INBOX"])]) { emulator, store, account, outbox in
            let list = try #require(try store.conversations(in: account.id).first { $0.title == "Dev talk" })
            let context = try #require(try store.replyContext(of: list.id))
            let id = try await outbox.queue(
                try ReplyPlanner.reply(to: context, text: "+1", quote: false, timeZone: .current))
            #expect(try await outbox.sender.sendMessage(id, account: account.id) == .completed)
            let sent = try #require(await outbox.sent().first)
            #expect(sent.parsed.to.map(\.address) == ["dev@lists.example.org"])
            _ = try await makeEngine(emulator, store).run(account: account)
            let local = try outbox.local("+1")
            #expect(local.count == 1)
            #expect(try store.conversations(in: account.id).first { $0.title == "Dev talk" }?.messageCount == 2)
        }
    }

    @Test("non-ASCII text and subject reach Gmail intact")
    func nonASCII() async throws {
        try await Self.withOutbox([(Self.fromAlice, ["INBOX"])]) { _, store, account, outbox in
            let own = try await store.write { tx in try tx.ownAddresses(of: account.id) }
            let text = "Grüße aus Köln 👋\n日本語のテキスト\n" + String(repeating: "long line ", count: 150)
            let message = try ReplyPlanner.newMessage(
                to: [EmailAddress(address: "zoë@example.com", name: "Zoë Ünal")], subject: "Café ☕ plans", text: text,
                ownAddresses: own)
            let id = try await outbox.queue(message)
            #expect(try await outbox.sender.sendMessage(id, account: account.id) == .completed)
            let sent = try #require(await outbox.sent().first)
            #expect(sent.parsed.subject == "Café ☕ plans")
            #expect(sent.parsed.to.first?.name == "Zoë Ünal")
            let body = sent.parsed.plainPart.map { String(decoding: $0.body, as: UTF8.self) }
            #expect(
                body?.replacingOccurrences(of: "\r\n", with: "\n").hasPrefix("Grüße aus Köln 👋\n日本語のテキスト\n") == true)
            #expect(sent.stored.raw.split(separator: 0x0A).allSatisfy { $0.count <= 998 })
        }
    }

    @Test(
        "an answer lost after Gmail committed the send: the message is on the server once and locally once",
        arguments: [FaultKind.commitThenDrop, .commitThenError500])
    func unknownOutcome(fault: FaultKind) async throws {
        try await Self.withOutbox([(Self.fromAlice, ["INBOX"])]) { emulator, store, account, outbox in
            let id = try await outbox.reply(to: "alice@example.com", "Sent once.")
            await emulator.faults.set([FaultRule(method: "messages.send", probability: 1, kind: fault, remaining: 1)])
            // The check right after the lost answer finds the message: completed, nothing sent twice.
            #expect(try await outbox.sender.sendMessage(id, account: account.id) == .completed)
            await emulator.faults.set([])
            #expect(await outbox.sent().count == 1)
            _ = try await makeEngine(emulator, store).run(account: account)
            _ = try await outbox.sender.run(account: account.id)
            #expect(await outbox.sent().count == 1)
            #expect(try outbox.local("Sent once.").count == 1)
            #expect(try outbox.local("Sent once.").first?.outbox == nil)
        }
    }

    @Test("a connection lost before Gmail stored the message: the next attempt asks Gmail first, then sends once")
    func lostBeforeCommit() async throws {
        try await Self.withOutbox([(Self.fromAlice, ["INBOX"])]) { emulator, store, account, outbox in
            let id = try await outbox.reply(to: "alice@example.com", "After the drop.")
            await emulator.faults.set([FaultRule(method: "messages.send", probability: 1, kind: .drop, remaining: 1)])
            #expect(try await outbox.sender.sendMessage(id, account: account.id) == .failed)
            #expect(await outbox.sent().isEmpty)
            // Still marked unknown: the mark is only cleared by an answer, not by not finding it once.
            let marked = try #require(try await store.write { tx in try tx.outboxEntry(id, in: account.id) })
            #expect(marked.outcomeUnknown && marked.raw != nil)
            try await store.write { tx in
                var action = try #require(try tx.pendingAction(id, in: account.id))
                action.nextAttemptAtMs = 0
                try tx.savePendingAction(action)
            }
            let before = await emulator.requestLog.all.count
            #expect(try await outbox.sender.run(account: account.id).sent == 1)
            let log = await emulator.requestLog.all.dropFirst(before).map(\.gmailMethod)
            let history = try #require(log.firstIndex(of: "history.list"))
            let sends = log.indices.filter { log[$0] == "messages.send" }
            #expect(sends.count == 1 && history < sends[0], "\(log)")
            #expect(await outbox.sent().count == 1)
            // The same bytes as the first attempt: frozen once.
            #expect(try #require(await outbox.sent().first).stored.raw.count > 0)
            #expect(try outbox.local("After the drop.").map(\.outbox) == [nil])
        }
    }

    @Test("a permanent 400 abandons the send with Gmail's reason; retry requeues it and it is sent once")
    func permanentRefusal() async throws {
        try await Self.withOutbox([(Self.fromAlice, ["INBOX"])]) { emulator, _, account, outbox in
            let id = try await outbox.reply(to: "alice@example.com", "Refused first.")
            await emulator.faults.set([FaultRule(method: "messages.send", probability: 1, kind: .invalidArgument)])
            #expect(try await outbox.sender.sendMessage(id, account: account.id) == .abandoned)
            #expect(try await outbox.action(id)?.lastError?.contains("Invalid argument") == true)
            #expect(try outbox.local("Refused first.").first?.outbox?.status == .abandoned)
            await emulator.faults.set([])
            _ = try await ActionQueue(store: outbox.store).retry(.one(id), account: account.id)
            #expect(try await outbox.sender.run(account: account.id).sent == 1)
            #expect(await outbox.sent().count == 1)
        }
    }

    @Test("the second reply threads on the Message-ID Gmail gave the first, not on ours")
    func secondReplyThreadsOnServerID() async throws {
        try await Self.withOutbox([(Self.fromAlice, ["INBOX"])]) { emulator, store, account, outbox in
            let first = try await outbox.reply(to: "alice@example.com", "First.")
            #expect(try await outbox.sender.sendMessage(first, account: account.id) == .completed)
            let second = try await outbox.reply(to: "alice@example.com", "Second.")
            #expect(try await outbox.sender.sendMessage(second, account: account.id) == .completed)
            let sent = await outbox.sent()
            let firstCopy = try #require(
                sent.first {
                    $0.parsed.plainPart != nil && String(decoding: $0.stored.raw, as: UTF8.self).contains("First.")
                })
            let secondCopy = try #require(
                sent.first { String(decoding: $0.stored.raw, as: UTF8.self).contains("Second.") })
            let serverID = try #require(firstCopy.parsed.messageID)
            #expect(serverID.contains("mail.gmail.com"))
            #expect(
                secondCopy.parsed.root.headers.first("In-Reply-To").map { String(decoding: $0, as: UTF8.self) }
                    == serverID)
            #expect(secondCopy.parsed.references == ["<m1@example.org>", serverID])
            #expect(secondCopy.stored.threadId == firstCopy.stored.threadId)
            _ = try await makeEngine(emulator, store).run(account: account)
            #expect(try outbox.local("Second.").count == 1)
        }
    }

    @Test("a send Gmail cannot be reached for stays queued, uncounted; the next run sends it once")
    func offlineThenOnline() async throws {
        try await Self.withOutbox([(Self.fromAlice, ["INBOX"])]) { emulator, store, account, outbox in
            let id = try await outbox.reply(to: "alice@example.com", "Later.")
            let offline = PendingActionSender(
                store: store,
                gmail: GmailClient(
                    configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!), transport: URLSessionTransport(),
                    tokens: StaticTokenSource(token: "t"), pacer: QuotaPacer.unlimited()))
            guard case .unreachable = try await offline.sendMessage(id, account: account.id) else {
                Issue.record("expected unreachable")
                return
            }
            let waiting = try #require(try await outbox.action(id))
            #expect(waiting.attempts == 0 && waiting.status == .pending && waiting.lastError != nil)
            try await store.write { tx in
                var action = try #require(try tx.pendingAction(id, in: account.id))
                action.nextAttemptAtMs = 0
                try tx.savePendingAction(action)
            }
            _ = try await makeEngine(emulator, store).run(account: account)
            // The sync's push sent it; no copy was made before.
            #expect(await outbox.sent().count == 1)
            #expect(try outbox.local("Later.").map(\.outbox) == [nil])
        }
    }
}
