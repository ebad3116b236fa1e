import Foundation
import GRDB
import Testing

@testable import ChatmailStore

/// Rules deciding mail as it is stored, agreeing with what adding the rule later decides, and deny
/// rules that archive.
@Suite struct RuleIngestTests {
    static let t0: Int64 = 1_700_000_000_000

    @Test("a message stored after the rule is decided on upsert, and again when stored anew")
    func decidedOnUpsert() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([])
            let deny = try store.addRule(.deny, .subject, "casino", archives: true, in: account).added[0]
            let mute = try store.addRule(.mute, .sender, bob.address, in: account).added[0]
            let (_, results) = try store.seed([
                message("a", from: alice, subject: "Casino bonus"), message("b", from: bob, subject: "Hi"),
                message("c", from: carol, subject: "Hi"),
            ])
            #expect(results.map(\.decidedByArchivingRule) == [true, false, false])
            #expect(try store.decision(of: "a") == deny.id && store.action(of: "a") == .deny)
            #expect(try store.decision(of: "b") == mute.id && store.action(of: "b") == .mute)
            #expect(try store.decision(of: "c") == nil)
            #expect(try store.flags(results[0].conversationID).filtered)
            // Stored again with another subject, the message is judged again.
            let (_, again) = try store.seed([message("a", from: alice, subject: "Dinner")])
            #expect(!again[0].wasInserted && !again[0].decidedByArchivingRule)
            #expect(try store.decision(of: "a") == nil && store.action(of: "a") == nil)
            #expect(try !store.flags(results[0].conversationID).filtered)
        }
    }

    @Test(
        "adding a rule later decides what the rule would have decided at ingest",
        arguments: [
            (Rule.Field.subject, "amazon"),  // ASCII next to Japanese: no space for a word boundary
            (.subject, "sale"),
            (.subject, "お知らせ"),
            (.text, "tracking"),
            (.text, "配送"),
            (.subject, "istanbul"),  // the mail writes İSTANBUL, whose İ is no ASCII letter
            (.text, "がっこう"),  // the mail writes が as か and a combining voicing mark
            (.domain, "shop.example"),
            (.domain, "@GoogleMail.com"),  // stored as gmail.com, as identity stores those addresses
            (.sender, "Orders@Shop.example"),
        ])
    func retroactiveAgreesWithIngest(field: Rule.Field, pattern: String) async throws {
        let mail = [
            message(
                "jp", from: EmailAddress(address: "orders@shop.example"), text: "配送状況Trackingはこちら",
                subject: "Amazonからのお知らせ：今だけSALE"),
            message("plain", from: alice, text: "Tracking number inside", subject: "Your order: big SALE"),
            message(
                "nfd", from: EmailAddress(address: "Old.Friend@googlemail.com"), text: "明日はか\u{3099}っこうです",
                subject: "İSTANBUL'dan selamlar"),
            message("none", from: carol, text: "nothing to see", subject: "Lunch"),
        ]
        let atIngest = try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([])
            try store.addRule(.deny, field, pattern, in: account)
            try store.seed(mail)
            return try mail.map { try store.decision(of: $0.gmailID) != nil }
        }
        #expect(atIngest.contains(true))
        #expect(atIngest.last == false)
        let later = try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed(mail)
            try store.addRule(.deny, field, pattern, in: account)
            return try mail.map { try store.decision(of: $0.gmailID) != nil }
        }
        #expect(later == atIngest)
    }

    @Test("a rule added in the write that stored the message judges it too")
    func ruleInSameWrite() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([])
            let change = try store.write { tx in
                let stored = try tx.upsert(message("a", from: alice, text: "weekly newsletter"), in: account)
                try tx.recomputeRollups(for: stored.affectedConversations)
                let change = try tx.addRule(Rule.Draft(action: .deny, field: .text, pattern: "newsletter"), in: account)
                try tx.recomputeRollups(for: change.conversations)
                return change
            }
            #expect(change.messagesRedecided == 1)
            #expect(try store.decision(of: "a") == change.added[0].id)
        }
    }

    @Test("an archiving deny rule archives inbox mail locally and queues one archive action")
    func archivesOnAdd() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("a1", from: alice, at: Self.t0, labels: ["INBOX", "UNREAD"], subject: "Casino"),
                message("a2", from: alice, at: Self.t0 + 1, labels: ["INBOX"], subject: "Casino night"),
                message("old", from: bob, labels: [], subject: "Casino"),  // archived already
                message("c", from: carol, labels: ["INBOX"], subject: "Lunch"),
            ])
            let change = try store.addRule(.deny, .subject, "casino", archives: true, in: account)
            #expect(change.messagesArchived == 2)
            let action = try #require(change.archiveActions.first)
            #expect(change.archiveActions.count == 1)
            #expect(action.kind == .archive && Set(action.targetIDs) == ["a1", "a2"])
            #expect(action.target.contains("rule \(change.added[0].id.rawValue)"))
            #expect(try store.pendingActions(of: account) == [action])
            #expect(change.conversations == [results[0].conversationID, results[2].conversationID])
            let labels = try store.write { tx in try tx.labelIDs(ofMessages: ["a1", "a2", "c"], in: account) }
            #expect(labels["a1"] == ["UNREAD"] && labels["a2"] == [] && labels["c"] == ["INBOX"])
            let alices = try #require(try store.conversation(results[0].conversationID))
            #expect(alices.isArchived && !alices.hasInbox)
            #expect(try store.flags(results[0].conversationID).filtered)
        }
    }

    @Test("each archiving rule queues its own action for the messages it decides")
    func oneActionPerRule() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                message("a", from: alice, subject: "Casino"), message("b", from: bob, subject: "Poker"),
                message("c", from: carol, subject: "Poker"),
            ])
            let change = try store.write { tx in
                try tx.importRules(
                    [
                        try Rule.Draft(action: .deny, field: .subject, pattern: "casino", archives: true),
                        try Rule.Draft(action: .deny, field: .subject, pattern: "poker", archives: true),
                    ], replacing: false, in: account)
            }
            #expect(change.messagesArchived == 3)
            #expect(change.archiveActions.map { Set($0.targetIDs) } == [["a"], ["b", "c"]])
        }
    }

    @Test("a rule archives a message once: not when sync stores it anew, nor when a rule is added again")
    func archivesOnce() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([message("a", from: alice, subject: "Casino")])
            let first = try store.addRule(.deny, .subject, "casino", archives: true, in: account)
            #expect(first.messagesArchived == 1)
            // The user moved it back to the inbox; a full sync stores it again.
            let (_, again) = try store.seed([message("a", from: alice, subject: "Casino")])
            #expect(again[0].decidedByArchivingRule)
            let archiving = try store.write { tx in try tx.archiveByRules([again[0].messageID], in: account) }
            #expect(archiving == .init())
            // Removed and added again, the rule is new but the message was archived by rule already.
            try store.removeRule(first.added[0].id, in: account)
            let second = try store.addRule(.deny, .subject, "casino", archives: true, in: account)
            #expect(second.messagesRedecided == 1 && second.messagesArchived == 0 && second.archiveActions.isEmpty)
            #expect(try store.pendingActions(of: account).count == 1)
            #expect(try store.conversations(in: account, filter: .init(section: .filtered)).first?.hasInbox == true)
        }
    }

    @Test("mail that arrives decided by an archiving rule is archived by archiveByRules, once")
    func archivesOnIngest() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([])
            try store.addRule(.deny, .sender, alice.address, archives: true, in: account)
            let (_, results) = try store.seed([message("a", from: alice), message("b", from: bob)])
            let ids = results.filter(\.decidedByArchivingRule).map(\.messageID)
            #expect(ids == [results[0].messageID])
            let archiving = try store.write { tx in
                let archiving = try tx.archiveByRules(ids, in: account)
                try tx.recomputeRollups(for: archiving.conversations)
                return archiving
            }
            #expect(archiving.messages == 1 && archiving.actions.map(\.targetIDs) == [["a"]])
            #expect(archiving.conversations == [results[0].conversationID])
            #expect(try store.conversation(results[0].conversationID)?.isArchived == true)
            let twice = try store.write { tx in try tx.archiveByRules(ids, in: account) }
            #expect(twice.actions.isEmpty && twice.messages == 0)
        }
    }

    @Test("a message with a live archive, unarchive, trash or untrash action is left to the user")
    func skipsLiveActions() async throws {
        try await withTemporaryStore { store, _ throws in
            let kinds: [PendingActionKind] = [.archive, .unarchive, .trash, .untrash]
            let ids = kinds.map(\.rawValue)
            let (account, _) = try store.seed(
                (ids + ["done", "starred", "free"]).map { message($0, from: alice, subject: "Casino") })
            try store.write { tx in
                for (kind, id) in zip(kinds, ids) {
                    try tx.insertPendingAction(kind: kind, target: id, gmailIDs: [id], in: account)
                }
                var done = try tx.insertPendingAction(kind: .unarchive, target: "d", gmailIDs: ["done"], in: account)
                done.status = .completed
                try tx.savePendingAction(done)
                try tx.insertPendingAction(kind: .star, target: "s", gmailIDs: ["starred"], in: account)
            }
            let change = try store.addRule(.deny, .subject, "casino", archives: true, in: account)
            #expect(change.archiveActions.map { Set($0.targetIDs) } == [["done", "starred", "free"]])
            let labels = try store.write { tx in try tx.labelIDs(ofMessages: ids + ["free"], in: account) }
            for id in ids { #expect(labels[id] == ["INBOX"], "\(id)") }
            #expect(labels["free"] == [])
            // Acted on once: the user's choice stands after their action completes, too.
            let again = try store.write { tx in
                try tx.archiveByRules(try MessageID.fetchAll(tx.db, sql: "SELECT id FROM message"), in: account)
            }
            #expect(again.actions.isEmpty)
        }
    }

    @Test("turning an existing deny rule into an archiving one archives what it decides")
    func upgradeToArchiving() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([message("a", from: alice), message("b", from: bob)])
            let plain = try store.addRule(.deny, .domain, "example.com", in: account)
            #expect(plain.archiveActions.isEmpty)
            let upgraded = try store.addRule(.deny, .domain, "example.com", archives: true, in: account)
            #expect(upgraded.added.isEmpty)
            #expect(upgraded.updated.map(\.id) == plain.added.map(\.id) && upgraded.updated[0].archives)
            // Adding the plain rule again does not turn archiving off.
            let again = try store.addRule(.deny, .domain, "example.com", in: account)
            #expect(again.added.isEmpty && again.updated.isEmpty)
            #expect(upgraded.archiveActions.map(\.targetIDs) == [["a"]])
            #expect(try store.rules(in: account).map(\.archives) == [true])
        }
    }
}
