import Foundation
import GRDB
import Testing

@testable import ChatmailStore

/// Rules in the store: what each field and action decides, at ingest and retroactively.
@Suite struct RuleTests {
    static let t0: Int64 = 1_700_000_000_000
    static let dave = EmailAddress(address: "dave@mail.example.com", name: "Dave")
    static let eve = EmailAddress(address: "eve@notexample.com", name: "Eve")

    @Test("a sender rule matches by identity key: case, Gmail dots, +tags and googlemail.com are ignored")
    func senderField() async throws {
        try await withTemporaryStore { store, _ throws in
            let tagged = EmailAddress(address: "Bob.Smith+news@googlemail.com", name: "Bob")
            let (account, _) = try store.seed([
                message("a", from: bob), message("b", from: tagged), message("c", from: alice),
            ])
            let change = try store.addRule(.deny, .sender, "BOBSMITH@gmail.com", in: account)
            let rule = try #require(change.added.first)
            #expect(rule.pattern == "bobsmith@gmail.com")
            #expect(try store.decision(of: "a") == rule.id)
            #expect(try store.decision(of: "b") == rule.id)
            #expect(try store.decision(of: "c") == nil)
            #expect(change.messagesRedecided == 2)
        }
    }

    @Test("a domain rule matches the domain and its subdomains, not a domain that merely ends alike")
    func domainField() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                message("a", from: alice), message("d", from: Self.dave), message("e", from: Self.eve),
                message("c", from: carol),
            ])
            let rule = try #require(try store.addRule(.mute, .domain, "@EXAMPLE.com", in: account).added.first)
            #expect(try store.decision(of: "a") == rule.id)
            #expect(try store.decision(of: "d") == rule.id)
            #expect(try store.decision(of: "e") == nil)
            #expect(try store.decision(of: "c") == nil)
        }
    }

    @Test("subject and text rules match whole words of their own field only")
    func subjectAndTextFields() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                message("s", from: alice, text: "nothing here", subject: "Weekly Digest #12"),
                message("t", from: bob, text: "Your weekly digest is ready", subject: "News"),
                message("x", from: carol, text: "digests and weekly-ish things", subject: "Digests"),
            ])
            let subject = try #require(try store.addRule(.deny, .subject, "weekly digest", in: account).added.first)
            #expect(try store.decision(of: "s") == subject.id)
            #expect(try store.decision(of: "t") == nil)
            let text = try #require(try store.addRule(.mute, .text, "Weekly Digest", in: account).added.first)
            #expect(try store.decision(of: "s") == subject.id)
            #expect(try store.decision(of: "t") == text.id)
            #expect(try store.decision(of: "x") == nil)
        }
    }

    @Test("allow beats deny beats mute, and the oldest rule of the winning action decides")
    func precedence() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([message("a", from: alice, subject: "Big sale")])
            let conversation = results[0].conversationID
            let mute = try store.addRule(.mute, .sender, alice.address, in: account).added[0]
            #expect(try store.decision(of: "a") == mute.id)
            let deny1 = try store.addRule(.deny, .subject, "sale", in: account).added[0]
            let deny2 = try store.addRule(.deny, .domain, "example.com", in: account).added[0]
            #expect(try store.decision(of: "a") == deny1.id)
            #expect(try store.flags(conversation) == Flags(filtered: true, allowed: false))
            let allow1 = try store.addRule(.allow, .domain, "example.com", in: account).added[0]
            let allow2 = try store.addRule(.allow, .subject, "big", in: account).added[0]
            #expect(try store.decision(of: "a") == allow1.id)
            #expect(try store.flags(conversation) == Flags(filtered: false, allowed: true))

            try store.removeRule(allow1.id, in: account)
            #expect(try store.decision(of: "a") == allow2.id)
            try store.removeRule(allow2.id, in: account)
            #expect(try store.decision(of: "a") == deny1.id)
            #expect(try store.flags(conversation) == Flags(filtered: true, allowed: false))
            try store.removeRule(deny1.id, in: account)
            #expect(try store.decision(of: "a") == deny2.id)
            try store.removeRule(deny2.id, in: account)
            #expect(try store.decision(of: "a") == mute.id)
            #expect(try store.flags(conversation) == Flags(filtered: false, allowed: false))
        }
    }

    @Test("explain lists every matching rule, the deciding one first")
    func explain() throws {
        let rules = [
            Rule(id: RuleID(rawValue: 1), action: .mute, field: .text, pattern: "hi", archives: false, createdAtMs: 1),
            Rule(
                id: RuleID(rawValue: 2), action: .deny, field: .domain, pattern: "example.com", archives: false,
                createdAtMs: 2),
            Rule(
                id: RuleID(rawValue: 3), action: .allow, field: .sender, pattern: "x@y.org", archives: false,
                createdAtMs: 3),
            Rule(
                id: RuleID(rawValue: 4), action: .deny, field: .subject, pattern: "hello", archives: false,
                createdAtMs: 4),
        ]
        let set = RuleSet(rules)
        let subject = RuleSubject(senders: ["alice@example.com"], subject: "Hello", text: "hi there")
        let decision = try #require(set.explain(subject))
        #expect(decision.rule.id.rawValue == 2)
        #expect(decision.matches.map(\.id.rawValue) == [2, 4, 1])
        #expect(set.decide(subject)?.id.rawValue == 2)
        #expect(set.explain(RuleSubject(senders: ["z@z.org"], subject: "", text: "")) == nil)
    }

    @Test("rules never judge the account's own mail, so my reply does not keep a denied conversation in view")
    func ownMailNotJudged() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("in", from: alice, at: Self.t0, subject: "Deals"),
                message("out", from: me, to: [alice], at: Self.t0 + 1, labels: ["SENT"], subject: "Deals"),
                message("solo", from: me, to: [carol], labels: ["SENT"], subject: "Deals"),
            ])
            let change = try store.addRule(.deny, .subject, "deals", in: account)
            #expect(try store.decision(of: "in") == change.added[0].id)
            #expect(try store.decision(of: "out") == nil)
            #expect(try store.decision(of: "solo") == nil)
            #expect(change.conversations == [results[0].conversationID])
            #expect(try store.flags(results[0].conversationID).filtered)
            // A conversation of my own mail only has no incoming mail to deny.
            #expect(try !store.flags(results[2].conversationID).filtered)
            #expect(try store.conversations(in: account).map(\.id) == [results[2].conversationID])
        }
    }

    @Test("a new rule reports exactly the conversations whose messages it re-decided")
    func changeReportsAffectedConversations() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("a", from: alice, subject: "Promo"), message("b", from: bob, subject: "Promo"),
                message("c", from: carol, subject: "Lunch?"),
            ])
            let first = try store.addRule(.deny, .subject, "promo", in: account)
            #expect(first.conversations == [results[0].conversationID, results[1].conversationID])
            #expect(first.messagesRedecided == 2)
            // A newer deny rule matching what an older one decides changes no decision.
            let second = try store.addRule(.deny, .sender, alice.address, in: account)
            #expect(second.messagesRedecided == 0 && second.conversations.isEmpty)
            // The same rule again is not stored twice.
            let again = try store.addRule(.deny, .subject, "PROMO!", in: account)
            #expect(again.added.isEmpty && again.conversations.isEmpty)
            #expect(try store.rules(in: account).count == 2)
            // Removing the older rule hands alice's message to the newer one: a change of rule, not of action.
            let removed = try store.removeRule(first.added[0].id, in: account)
            #expect(removed.removed == first.added)
            #expect(removed.conversations == [results[0].conversationID, results[1].conversationID])
            #expect(try store.decision(of: "a") == second.added[0].id)
            #expect(try store.decision(of: "b") == nil)
            #expect(
                try store.conversations(in: account, filter: .init(section: .filtered)).map(\.id) == [
                    results[0].conversationID
                ])
        }
    }

    @Test("removing the only matching rule clears the decision and brings the conversation back")
    func removeClearsDecision() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([message("a", from: alice, labels: ["INBOX", "UNREAD"])])
            let conversation = results[0].conversationID
            let deny = try store.addRule(.deny, .sender, alice.address, in: account).added[0]
            #expect(try store.conversations(in: account).isEmpty)
            let change = try store.removeRule(deny.id, in: account)
            #expect(change.conversations == [conversation] && change.messagesRedecided == 1)
            #expect(try store.decision(of: "a") == nil)
            #expect(try store.action(of: "a") == nil)
            #expect(try store.conversations(in: account).map(\.id) == [conversation])
            #expect(try store.conversations(in: account, filter: .init(section: .filtered)).isEmpty)

            let mute = try store.addRule(.mute, .sender, alice.address, in: account).added[0]
            #expect(try store.conversation(conversation)?.unreadCount == 0)
            try store.removeRule(mute.id, in: account)
            #expect(try store.action(of: "a") == nil)
            #expect(try store.conversation(conversation)?.unreadCount == 1)
            #expect(throws: RuleError.unknownRule(mute.id)) { try store.removeRule(mute.id, in: account) }
        }
    }

    @Test("importing with replacing removes the rules not given, keeps the others and adds the new")
    func importReplacing() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("a", from: alice), message("b", from: bob), message("c", from: carol),
            ])
            let keptRule = try store.addRule(.mute, .sender, bob.address, in: account).added[0]
            let goneRule = try store.addRule(.deny, .sender, alice.address, in: account).added[0]
            let change = try store.write { tx in
                let change = try tx.importRules(
                    [
                        try Rule.Draft(action: .mute, field: .sender, pattern: "bobsmith@gmail.com"),
                        try Rule.Draft(action: .allow, field: .domain, pattern: "example.net"),
                    ], replacing: true, in: account)
                try tx.recomputeRollups(for: change.conversations)
                return change
            }
            #expect(change.removed == [goneRule])
            #expect(change.added.map(\.pattern) == ["example.net"])
            #expect(change.conversations == [results[0].conversationID, results[2].conversationID])
            let rules = try store.rules(in: account)
            #expect(rules.map(\.pattern) == ["bobsmith@gmail.com", "example.net"])
            #expect(rules[0] == keptRule)
            #expect(try store.decision(of: "a") == nil && store.action(of: "a") == nil)
            #expect(try store.decision(of: "b") == keptRule.id)
            #expect(try store.flags(results[2].conversationID).allowed)
            #expect(try !store.flags(results[0].conversationID).filtered)
        }
    }

    @Test("importing a rule again with --archive changed updates it in place, keeping its age")
    func importReplacingUpdatesArchives() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([message("a", from: alice, labels: ["INBOX"])])
            let older = try store.addRule(.deny, .sender, alice.address, in: account).added[0]
            let newer = try store.addRule(.deny, .domain, "example.com", in: account).added[0]
            let change = try store.write { tx in
                try tx.importRules(
                    [
                        try Rule.Draft(action: .deny, field: .sender, pattern: alice.address, archives: true),
                        newer.draft,
                    ], replacing: true, in: account)
            }
            #expect(change.removed.isEmpty)
            #expect(change.added.isEmpty)
            #expect(change.updated.map(\.id) == [older.id] && change.updated[0].archives)
            #expect(try store.rules(in: account).map(\.id) == [older.id, newer.id])
            #expect(try store.decision(of: "a") == older.id)
            #expect(change.messagesArchived == 1)
        }
    }

    @Test("muted messages never count as unread; the others of the conversation still do")
    func muteUnread() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("a", from: alice, at: Self.t0, labels: ["INBOX", "UNREAD"], text: "You won the lottery"),
                message("b", from: alice, at: Self.t0 + 1, labels: ["INBOX", "UNREAD"], text: "Lunch?"),
                message("c", from: bob, labels: ["INBOX", "UNREAD"], text: "lottery results"),
            ])
            let change = try store.addRule(.mute, .text, "lottery", in: account)
            #expect(change.conversations == [results[0].conversationID, results[2].conversationID])
            #expect(try store.conversation(results[0].conversationID)?.unreadCount == 1)
            let bobs = try #require(try store.conversation(results[2].conversationID))
            #expect(bobs.unreadCount == 0 && bobs.hasInbox)
            // Muted, not hidden: both stay in the main list.
            #expect(Set(try store.conversations(in: account).map(\.id)) == Set(results.map(\.conversationID)))
            #expect(
                try store.conversations(in: account, filter: .init(unreadOnly: true)).map(\.id) == [
                    results[0].conversationID
                ])
        }
    }

    @Test("a conversation is filtered only while ALL its visible incoming mail is denied")
    func denyFilteredMixed() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("spam", from: alice, at: Self.t0, subject: "Casino bonus"),
                message("real", from: alice, at: Self.t0 + 1, subject: "Dinner"),
                message("other", from: bob, subject: "Hi"),
            ])
            let conversation = results[0].conversationID
            try store.addRule(.deny, .subject, "casino", in: account)
            #expect(try !store.flags(conversation).filtered)
            #expect(try store.conversations(in: account).count == 2)
            // Trashing the good message leaves only denied mail visible.
            try store.relabel(["real"], adding: ["TRASH"], removing: ["INBOX"], in: account)
            #expect(try store.flags(conversation).filtered)
            #expect(try store.conversations(in: account).map(\.id) == [results[2].conversationID])
            let filtered = try store.conversations(in: account, filter: .init(section: .filtered))
            #expect(filtered.map(\.id) == [conversation])
            #expect(filtered[0].messageCount == 1)
            // Deleting the denied message leaves nothing visible: the conversation is not filtered.
            try store.write { tx in
                try tx.recomputeRollups(for: try tx.deleteMessages(gmailIDs: ["spam"], in: account))
            }
            #expect(try !store.flags(conversation).filtered)
            #expect(try store.conversations(in: account, filter: .init(section: .filtered)).isEmpty)
            // Untrashed, the good message is back in the main list.
            try store.relabel(["real"], adding: ["INBOX"], removing: ["TRASH"], in: account)
            #expect(Set(try store.conversations(in: account).map(\.id)) == [conversation, results[2].conversationID])
        }
    }

    @Test("deleting every message of a denied conversation deletes it; deleting the good one filters it")
    func rollupsAfterDeletion() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("spam", from: alice, at: Self.t0, subject: "Casino"),
                message("real", from: alice, at: Self.t0 + 1, subject: "Dinner"),
                message("b", from: bob, subject: "Casino night"),
            ])
            try store.addRule(.deny, .subject, "casino", in: account)
            try store.write { tx in
                try tx.recomputeRollups(for: try tx.deleteMessages(gmailIDs: ["real", "b"], in: account))
            }
            #expect(try store.flags(results[0].conversationID).filtered)
            #expect(try store.conversation(results[2].conversationID) == nil)
            #expect(
                try store.conversations(in: account, filter: .init(section: .filtered)).map(\.id) == [
                    results[0].conversationID
                ])
        }
    }

    @Test("rules of one account do not judge another account's mail")
    func accountsAreSeparate() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([message("a", from: alice, subject: "Promo")])
            let other = try store.write { tx in
                let other = try tx.ensureAccount(email: "other@example.org")
                try tx.upsert(message("o", from: alice, subject: "Promo"), in: other)
                return other
            }
            for (field, pattern) in [(Rule.Field.sender, alice.address), (.domain, "example.com"), (.subject, "promo")]
            {
                try store.addRule(.deny, field, pattern, in: account)
            }
            #expect(try store.decision(of: "a") != nil)
            #expect(try store.decision(of: "o") == nil)
            #expect(try store.rules(in: other).isEmpty)
        }
    }
}

/// A conversation's rule rollups.
struct Flags: Equatable {
    var filtered: Bool
    var allowed: Bool
}

extension ChatmailStore {
    /// Adds a rule and recomputes the rollups it reports, in one write, as the CLI does.
    @discardableResult
    func addRule(
        _ action: Rule.Action, _ field: Rule.Field, _ pattern: String, archives: Bool = false, in account: AccountID
    ) throws -> RuleChange {
        try write { tx in
            let change = try tx.addRule(
                Rule.Draft(action: action, field: field, pattern: pattern, archives: archives), in: account)
            try tx.recomputeRollups(for: change.conversations)
            return change
        }
    }

    @discardableResult
    func removeRule(_ id: RuleID, in account: AccountID) throws -> RuleChange {
        try write { tx in
            let change = try tx.removeRule(id, in: account)
            try tx.recomputeRollups(for: change.conversations)
            return change
        }
    }

    /// Changes labels as a sync would, with rollups.
    func relabel(_ gmailIDs: [String], adding: [String], removing: [String], in account: AccountID) throws {
        try write { tx in
            try tx.recomputeRollups(
                for: try tx.modifyLabels(adding: adding, removing: removing, onMessages: gmailIDs, in: account))
        }
    }

    /// The rule stored as deciding a message.
    func decision(of gmailID: String) throws -> RuleID? {
        try read { db in
            try RuleID.fetchOne(db, sql: "SELECT rule_id FROM message WHERE gmail_id = ?", arguments: [gmailID])
        }
    }

    /// The action stored beside the deciding rule, which the rollups read.
    func action(of gmailID: String) throws -> Rule.Action? {
        try read { db in
            try Rule.Action.fetchOne(
                db, sql: "SELECT rule_action FROM message WHERE gmail_id = ?", arguments: [gmailID])
        }
    }

    func flags(_ conversation: ConversationID) throws -> Flags {
        try read { db in
            let row = try #require(
                try Row.fetchOne(
                    db, sql: "SELECT is_filtered, is_allowed FROM conversation WHERE id = ?", arguments: [conversation])
            )
            return Flags(filtered: row["is_filtered"], allowed: row["is_allowed"])
        }
    }
}
