import Foundation
import Testing

@testable import ChatmailStore

@Suite struct ListLookupTests {
    /// Dev talk: Alice, then my post (no List-Id, to the posting address), then Bob. Carol has a
    /// one-to-one chat and also wrote to the list; Bob wrote only to lists.
    func seedDev(_ store: ChatmailStore, opsToo: Bool = false) throws -> AccountID {
        var messages = [
            listMessage("d1", from: alice, at: 1_000),
            message("d2", from: me, to: [devPost], at: 2_000, labels: ["SENT"]),
            listMessage("d3", from: bob, at: 3_000),
            listMessage("d4", from: carol, at: 4_000),
            message("c1", from: carol, to: [me], at: 500),
        ]
        if opsToo {
            messages.append(listMessage("o1", from: bob, list: opsList, posting: .address(opsPost), at: 5_000))
        }
        return try store.seed(messages).0
    }

    @Test("a list's id (brackets and case aside) and its posting address designate the list's conversation")
    func listByIDOrAddress() async throws {
        try await withTemporaryStore { store, _ throws in
            let account = try seedDev(store)
            for query in ["dev.lists.example.org", "<DEV.lists.example.org>", "dev@lists.example.org", "Dev talk"] {
                guard case .found(let list, let others) = try store.resolvePerson(query, in: account) else {
                    Issue.record("\(query) found no single conversation")
                    continue
                }
                #expect(list.title == "Dev talk", "\(query)")
                #expect(
                    list.list
                        == MailingList(
                            id: "dev.lists.example.org", postAddress: "Dev@Lists.Example.org", name: "Dev talk"))
                #expect(others.isEmpty)
            }
        }
    }

    @Test("a person's own conversations win over lists, which are never their groups; a list-only person gets the list")
    func personThenList() async throws {
        try await withTemporaryStore { store, _ throws in
            let account = try seedDev(store)
            guard case .found(let chat, let groups) = try store.resolvePerson("carol", in: account) else {
                Issue.record("carol")
                return
            }
            #expect(chat.title == "Carol Danvers")
            #expect(groups.isEmpty)
            guard case .wroteToList(let list, let person) = try store.resolvePerson("bob", in: account) else {
                Issue.record("bob did not resolve to the list")
                return
            }
            #expect(list.title == "Dev talk")
            #expect(person.address == "Bob.Smith@gmail.com")
        }
    }

    @Test("someone who wrote to several lists and nothing else gives those lists, newest first")
    func severalLists() async throws {
        try await withTemporaryStore { store, _ throws in
            let account = try seedDev(store, opsToo: true)
            guard case .severalConversations(let lists) = try store.resolvePerson("bob", in: account) else {
                Issue.record("bob did not give several lists")
                return
            }
            #expect(lists.map(\.title) == ["Ops", "Dev talk"])
        }
    }

    @Test("a transcript from one person keeps their messages and mine, and counts only those as earlier")
    func transcriptFromOne() async throws {
        try await withTemporaryStore { store, _ throws in
            let account = try seedDev(store)
            guard case .found(let list, _) = try store.resolvePerson("Dev talk", in: account) else {
                Issue.record("Dev talk")
                return
            }
            let all = try #require(try store.transcript(of: list.id, limit: 10))
            #expect(all.messages.map(\.gmailID) == ["d1", "d2", "d3", "d4"])
            let alices = try #require(try store.transcript(of: list.id, limit: 10, onlyFrom: "alice@example.com"))
            #expect(alices.messages.map(\.gmailID) == ["d1", "d2"])
            #expect(alices.earlierMessageCount == 0)
            let latest = try #require(try store.transcript(of: list.id, limit: 1, onlyFrom: "alice@example.com"))
            #expect(latest.messages.map(\.gmailID) == ["d2"])
            #expect(latest.earlierMessageCount == 1)
            // The summary names the newest sender, for the list row.
            #expect(list.lastSender == LastSender(from: carol, isFromMe: false))
        }
    }
}
