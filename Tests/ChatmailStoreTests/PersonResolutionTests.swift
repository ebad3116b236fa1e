import Foundation
import GRDB
import Testing

@testable import ChatmailStore

@Suite struct PersonResolutionTests {
    static let alan = EmailAddress(address: "alan@example.org", name: "Alan Turing")

    /// Alice: a one-to-one chat and the group "Alice, Bob, Carol". Alan: a one-to-one chat and the group
    /// "Alan, Carol". Bob: a one-to-one chat, and the first group under another spelling of his address.
    /// Carol: the two groups only.
    func seeded(_ body: (ChatmailStore, AccountID) throws -> Void) async throws {
        try await withTemporaryStore { store, _ throws in
            let bobElsewhere = EmailAddress(address: "bobsmith@gmail.com", name: "Bob")
            let (account, _) = try store.seed([
                message("a1", from: alice, at: 10),
                message("g1", from: alice, cc: [bobElsewhere, carol], at: 20),
                message("l1", from: Self.alan, at: 30),
                message("b1", from: bob, at: 40),
                message("c1", from: carol, cc: [Self.alan], at: 50),
            ])
            try body(store, account)
        }
    }

    /// A match in words, so each expectation reads as the outcome it asserts.
    func describe(_ match: PersonMatch) -> String {
        func titles(_ conversations: [ConversationSummary]) -> String {
            conversations.map(\.title).joined(separator: " | ")
        }
        switch match {
        case .found(let conversation, let groups):
            return groups.isEmpty ? conversation.title : "\(conversation.title), also [\(titles(groups))]"
        case .severalPeople(let people, let conversations):
            let listed = people.map { "\($0.name ?? "") <\($0.address)> \($0.conversationCount)" }.joined(
                separator: " | ")
            return "people [\(listed)]" + (conversations.isEmpty ? "" : " and [\(titles(conversations))]")
        case .severalConversations(let conversations):
            return "conversations [\(titles(conversations))]"
        case .wroteToList(let list, let person):
            return "list \(list.title) written to by <\(person.address)>"
        case .noGroupConversation(let person):
            return "no group for <\(person.address)>"
        case .notFound:
            return "not found"
        }
    }

    func id(of title: String, in store: ChatmailStore, account: AccountID) throws -> Int64 {
        let all = try store.conversations(in: account, filter: .init(visibility: .all))
        return try #require(all.first { $0.title == title }).id.rawValue
    }

    @Test("an exact address finds the person's one-to-one chat, compared by identity key")
    func exactAddress() async throws {
        try await seeded { store, account throws in
            #expect(
                describe(try store.resolvePerson("alice@example.com", in: account))
                    == "Alice Liddell, also [Alice, Bob, Carol]")
            #expect(
                describe(try store.resolvePerson("bobsmith+x@googlemail.com", in: account))
                    == "Bob Smith, also [Alice, Bob, Carol]")
        }
    }

    @Test("a full name matches case-insensitively, and so does a conversation title")
    func name() async throws {
        try await seeded { store, account throws in
            #expect(
                describe(try store.resolvePerson("ALICE liddell", in: account))
                    == "Alice Liddell, also [Alice, Bob, Carol]")
            #expect(describe(try store.resolvePerson("alice, bob, carol", in: account)) == "Alice, Bob, Carol")
        }
    }

    @Test("a unique prefix of an address, a name or a surname matches")
    func uniquePrefix() async throws {
        try await seeded { store, account throws in
            #expect(describe(try store.resolvePerson("alic", in: account)) == "Alice Liddell, also [Alice, Bob, Carol]")
            #expect(describe(try store.resolvePerson("turi", in: account)) == "Alan Turing, also [Alan, Carol]")
            #expect(describe(try store.resolvePerson("bob.s", in: account)) == "Bob Smith, also [Alice, Bob, Carol]")
        }
    }

    @Test("a prefix several people share lists the people, with their conversation counts, most recent first")
    func severalPeople() async throws {
        try await seeded { store, account throws in
            #expect(
                describe(try store.resolvePerson("al", in: account))
                    == "people [Alan Turing <alan@example.org> 2 | Alice Liddell <Alice@Example.com> 2]")
            #expect(
                describe(try store.resolvePerson("al", in: account, allowingFuzzy: false)).hasPrefix(
                    "people [Alan Turing"))
        }
    }

    @Test("one person with two spellings of their address is one person, not two")
    func oneIdentity() async throws {
        try await seeded { store, account throws in
            guard case .found(let chat, let groups) = try store.resolvePerson("bob", in: account) else {
                Issue.record("expected Bob's one-to-one chat")
                return
            }
            #expect(chat.title == "Bob Smith" && groups.map(\.title) == ["Alice, Bob, Carol"])
        }
    }

    @Test("preferring groups gives the person's one group, lists several, and says when there is none")
    func preferringGroups() async throws {
        try await seeded { store, account throws in
            #expect(
                describe(try store.resolvePerson("alice", in: account, preferringGroups: true)) == "Alice, Bob, Carol")
            #expect(
                describe(try store.resolvePerson("alan@example.org", in: account, preferringGroups: true))
                    == "Alan, Carol")
            #expect(
                describe(try store.resolvePerson("carol", in: account, preferringGroups: true))
                    == "conversations [Alan, Carol | Alice, Bob, Carol]")
            // Several people stay several people: --group picks among one person's conversations.
            #expect(describe(try store.resolvePerson("al", in: account, preferringGroups: true)).hasPrefix("people ["))
        }
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([message("a1", from: alice)])
            #expect(
                describe(try store.resolvePerson("alice", in: account, preferringGroups: true))
                    == "no group for <Alice@Example.com>")
        }
    }

    @Test("a person without a one-to-one chat: their one group, or the list of their groups, newest first")
    func groupsOnly() async throws {
        try await seeded { store, account throws in
            #expect(
                describe(try store.resolvePerson("carol", in: account))
                    == "conversations [Alan, Carol | Alice, Bob, Carol]")
        }
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                message("g1", from: alice, cc: [carol], at: 10), message("a1", from: alice, at: 20),
            ])
            #expect(describe(try store.resolvePerson("carol", in: account)) == "Alice, Carol")
        }
    }

    @Test("id:N and #N name one conversation of the account exactly; anything else written so is not found")
    func conversationID() async throws {
        try await seeded { store, account throws in
            let group = try id(of: "Alice, Bob, Carol", in: store, account: account)
            for reference in ["id:\(group)", "ID:\(group)", "#\(group)", " id: \(group) "] {
                #expect(
                    describe(try store.resolvePerson(reference, in: account)) == "Alice, Bob, Carol", "\(reference)")
                #expect(
                    describe(
                        try store.resolvePerson(reference, in: account, allowingFuzzy: false, preferringGroups: true))
                        == "Alice, Bob, Carol")
            }
            let chat = try id(of: "Alan Turing", in: store, account: account)
            #expect(
                describe(try store.resolvePerson("id:\(chat)", in: account, preferringGroups: true)) == "Alan Turing")
            for reference in ["id:999", "id:0", "id:-1", "id:alice", "#", "id:"] {
                #expect(try store.resolvePerson(reference, in: account) == .notFound, "\(reference)")
            }
            // Another account's conversation is not this account's to open.
            let other = try store.write { tx in
                let other = try tx.ensureAccount(email: "other@example.org")
                let result = try tx.upsert(
                    message("o1", from: alice, to: [EmailAddress(address: "other@example.org", name: nil)]), in: other)
                try tx.recomputeRollups(for: Set(result.affectedConversations))
                return result.conversationID.rawValue
            }
            #expect(try store.resolvePerson("id:\(other)", in: account) == .notFound)
        }
    }

    @Test("actions' exact matching never reaches fuzzy candidates")
    func exactOnly() async throws {
        try await seeded { store, account throws in
            #expect(
                describe(try store.resolvePerson("lidell", in: account)) == "Alice Liddell, also [Alice, Bob, Carol]")
            #expect(try store.resolvePerson("lidell", in: account, allowingFuzzy: false) == .notFound)
        }
    }

    @Test("an unknown person is not found")
    func unknown() async throws {
        try await seeded { store, account throws in
            #expect(try store.resolvePerson("zorro", in: account) == .notFound)
            #expect(try store.resolvePerson("nobody@example.com", in: account) == .notFound)
            #expect(try store.resolvePerson("   ", in: account) == .notFound)
        }
    }
}
