import Foundation
import GRDB
import Testing

@testable import ChatmailStore

let devList = MessageInput.MailingList(id: "dev.lists.example.org", name: "Dev talk")
let devPost = EmailAddress(address: "Dev@Lists.Example.org")
let opsList = MessageInput.MailingList(id: "ops.lists.example.org", name: "Ops")
let opsPost = EmailAddress(address: "ops@lists.example.org")

/// A message that came through `list`, with its List-Post when `posting` is given.
func listMessage(
    _ gmailID: String, from: EmailAddress, list: MessageInput.MailingList = devList,
    posting: MessageInput.ListPosting? = .address(devPost), at dateMs: Int64 = 1_700_000_000_000
) -> MessageInput {
    var input = message(gmailID, from: from, to: [devPost], at: dateMs)
    input.mailingList = list
    input.listPosting = posting
    return input
}

@Suite struct MailingListTests {
    @Test("messages with a List-Id share their list's conversation whoever wrote them, titled by the list")
    func listIdGroups() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                listMessage("m1", from: alice), listMessage("m2", from: bob, at: 1_700_000_001_000),
                listMessage("m3", from: me, at: 1_700_000_002_000),
            ])
            #expect(Set(results.map(\.conversationID)).count == 1)
            let list = try store.conversations(in: account)
            #expect(list.count == 1)
            #expect(list[0].title == "Dev talk")
            #expect(list[0].messageCount == 3)
            // The people of a list conversation are those who wrote to it, never the account.
            #expect(Set(list[0].participants.map(\.address)) == ["Alice@Example.com", "Bob.Smith@gmail.com"])
        }
    }

    @Test("someone whose every list message is deleted is no longer among the list's participants")
    func deletedSenderLeavesTheList() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                listMessage("m1", from: alice), listMessage("m2", from: bob, at: 1_700_000_001_000),
            ])
            try store.write { tx in
                let touched = try tx.deleteMessages(gmailIDs: ["m2"], in: account)
                try tx.recomputeRollups(for: touched)
            }
            let list = try store.conversations(in: account)
            #expect(list.count == 1)
            #expect(list[0].participants.map(\.address) == ["Alice@Example.com"])
        }
    }

    @Test("a list without a display name is titled by its id")
    func titleFallsBackToID() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                listMessage("m1", from: alice, list: .init(id: "plain.example.org"), posting: nil)
            ])
            #expect(try store.conversations(in: account).map(\.title) == ["plain.example.org"])
        }
    }

    @Test("my post without a List-Id to a known posting address joins the list's conversation")
    func ownPostToKnownAddress() async throws {
        try await withTemporaryStore { store, _ throws in
            let post = message("m2", from: me, to: [EmailAddress(address: "dev@lists.example.org")], cc: [alice])
            let (_, results) = try store.seed([listMessage("m1", from: alice), post])
            #expect(results[1].conversationID == results[0].conversationID)
        }
    }

    @Test("my post from an alias to a known posting address joins the list too")
    func aliasPostToKnownAddress() async throws {
        try await withTemporaryStore { store, _ throws in
            let work = EmailAddress(address: "me.work@example.com")
            let (_, results) = try store.seed(
                [listMessage("m1", from: alice), message("m2", from: work, to: [devPost])], aliases: [work])
            #expect(results[1].conversationID == results[0].conversationID)
        }
    }

    @Test("someone else's message without a List-Id to a posting address keeps its participant set")
    func othersPostKeepsParticipants() async throws {
        try await withTemporaryStore { store, _ throws in
            let (_, results) = try store.seed([
                listMessage("m1", from: alice), message("m2", from: bob, to: [devPost]),
            ])
            #expect(results[1].conversationID != results[0].conversationID)
        }
    }

    @Test("a message with a List-Id belongs to that list even when addressed to another list's posting address")
    func listIdWinsOverPostingAddress() async throws {
        try await withTemporaryStore { store, _ throws in
            var crossPost = listMessage("m2", from: me, list: opsList, posting: .address(opsPost))
            crossPost.to = [devPost]
            let (_, results) = try store.seed([listMessage("m1", from: alice), crossPost])
            #expect(results[1].conversationID != results[0].conversationID)
            let title = try store.conversation(results[1].conversationID)?.title
            #expect(title == "Ops")
        }
    }

    @Test("several known posting addresses: the first in To order, then Cc order, wins")
    func firstMatchWins() async throws {
        try await withTemporaryStore { store, _ throws in
            let lists = [
                listMessage("d", from: alice), listMessage("o", from: bob, list: opsList, posting: .address(opsPost)),
            ]
            let (_, results) = try store.seed(
                lists + [
                    message("toOpsFirst", from: me, to: [carol, opsPost, devPost]),
                    message("toDevFirst", from: me, to: [devPost, opsPost]),
                    message("ccOnly", from: me, to: [carol], cc: [opsPost, devPost]),
                    message("toBeatsCc", from: me, to: [devPost], cc: [opsPost]),
                ])
            let dev = results[0].conversationID
            let ops = results[1].conversationID
            #expect(results[2...].map(\.conversationID) == [ops, dev, ops, dev])
        }
    }

    @Test("my earlier post moves into the list when its posting address is learned, and both rollups follow")
    func learnedAddressMovesEarlierPosts() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, first) = try store.seed([
                message("mine", from: me, to: [devPost], at: 1_700_000_000_000)
            ])
            let before = first[0].conversationID
            #expect(try store.conversations(in: account).map(\.title) == ["Dev@Lists.Example.org"])

            let learned = try store.write { tx in
                try tx.upsert(listMessage("reply", from: alice, at: 1_700_000_001_000), in: account)
            }
            #expect(learned.regroupedConversations == [before, learned.conversationID])
            #expect(learned.affectedConversations.contains(before))
            try store.write { tx in try tx.recomputeRollups(for: learned.affectedConversations) }

            let list = try store.conversations(in: account)
            #expect(list.map(\.title) == ["Dev talk"])
            #expect(list[0].messageCount == 2)
            // The participant-set conversation the post left was empty, so it is gone.
            #expect(try store.conversation(before) == nil)
        }
    }

    @Test("arrival order does not matter: every order of the same messages ends in the same state")
    func orderIndependent() async throws {
        let messages = [
            message("mine", from: me, to: [devPost], cc: [carol], at: 1_700_000_000_000),
            listMessage("l1", from: alice, at: 1_700_000_001_000),
            listMessage("l2", from: bob, posting: nil, at: 1_700_000_002_000),
            message("private", from: me, to: [alice], at: 1_700_000_003_000),
            message("bothLists", from: me, to: [opsPost, devPost], at: 1_700_000_004_000),
            listMessage("o1", from: carol, list: opsList, posting: .address(opsPost), at: 1_700_000_005_000),
        ]
        var states: [[String]] = []
        for order in [Array(messages), Array(messages.reversed()), [3, 0, 5, 4, 1, 2].map { messages[$0] }] {
            let state = try await withTemporaryStore { store, path throws in
                let account = try store.write { tx in try tx.ensureAccount(email: me.address) }
                // One message per transaction, as separate incremental syncs would store them.
                for input in order {
                    try store.write { tx in
                        try tx.recomputeRollups(for: try tx.upsert(input, in: account).affectedConversations)
                    }
                }
                return try Self.dump(path)
            }
            states.append(state)
        }
        #expect(states[0] == states[1])
        #expect(states[0] == states[2])
        // And the routing itself: the two lists plus the private conversation.
        #expect(states[0].filter { $0.hasPrefix("conversation ") }.count == 3)
    }

    @Test("the list and its posting address: the newest message's name and List-Post win, whatever the order")
    func mailingListRowIsOrderIndependent() async throws {
        let older = listMessage("a", from: alice, list: .init(id: devList.id, name: "Old name"), at: 1_000)
        let newer = listMessage("b", from: bob, posting: .readOnly, at: 2_000)
        let nameless = listMessage("c", from: carol, list: .init(id: devList.id), posting: nil, at: 3_000)
        for order in [[older, newer, nameless], [nameless, newer, older], [newer, nameless, older]] {
            try await withTemporaryStore { store, path throws in
                try store.seed(order)
                let row = try #require(
                    try DatabaseQueue(path: path.path).read { db in
                        try Row.fetchOne(db, sql: "SELECT * FROM mailing_list")
                    })
                #expect(row["list_id"] as String == "dev.lists.example.org")
                #expect(row["name"] as String? == "Dev talk")
                #expect(row["post_address"] as String? == nil)
                #expect(row["is_read_only"] as Bool)
                #expect(row["first_seen_ms"] as Int64 == 1_000 && row["last_seen_ms"] as Int64 == 3_000)
                let addresses = try DatabaseQueue(path: path.path).read { db in
                    try String.fetchAll(db, sql: "SELECT address_normalized FROM mailing_list_post_address")
                }
                // A posting address once seen keeps routing posts, even after the list went read-only.
                #expect(addresses == ["dev@lists.example.org"])
            }
        }
    }

    @Test("each message keeps its list headers, Reply-To and Mail-Followup-To")
    func headersStored() async throws {
        try await withTemporaryStore { store, path throws in
            var input = listMessage("m1", from: alice)
            input.replyTo = [EmailAddress(address: "replies@example.com", name: "Replies")]
            input.mailFollowupTo = [devPost, alice]
            try store.seed([input, listMessage("m2", from: bob, posting: .readOnly), message("m3", from: carol)])
            let rows = try DatabaseQueue(path: path.path).read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT gmail_id, list_id, list_name, list_post_address, list_read_only, reply_to,
                            mail_followup_to FROM message ORDER BY gmail_id
                        """)
            }
            #expect(
                rows[0]["list_id"] as String? == "dev.lists.example.org"
                    && rows[0]["list_name"] as String? == "Dev talk")
            #expect(
                rows[0]["list_post_address"] as String? == "Dev@Lists.Example.org"
                    && !(rows[0]["list_read_only"] as Bool))
            let replyTo = try JSONDecoder().decode(
                [EmailAddress].self, from: Data((rows[0]["reply_to"] as String).utf8))
            #expect(replyTo == [EmailAddress(address: "replies@example.com", name: "Replies")])
            let followup = try JSONDecoder().decode(
                [EmailAddress].self, from: Data((rows[0]["mail_followup_to"] as String).utf8))
            #expect(followup == [devPost, alice])
            #expect(rows[1]["list_post_address"] as String? == nil && rows[1]["list_read_only"] as Bool)
            #expect(rows[2]["list_id"] as String? == nil && rows[2]["reply_to"] as String? == nil)
        }
    }

    @Test("list and participant hashes never collide, even when a list id reads like an address set")
    func hashesDoNotCollide() async throws {
        #expect(ListConversationKey.hashInput(listID: "x").hasPrefix("l|"))
        let participants = ParticipantSet(from: alice, to: [], cc: [], excluding: [])
        #expect(participants.hashInput.hasPrefix("p|"))
        // A list whose id is exactly what a participant set hashes after its prefix.
        let lookalike = MessageInput.MailingList(id: "alice@example.com")
        #expect(ListConversationKey.hash(listID: lookalike.id) != participants.hash)
        try await withTemporaryStore { store, _ throws in
            let (account, results) = try store.seed([
                message("p", from: alice), listMessage("l", from: bob, list: lookalike, posting: nil),
            ])
            #expect(results[0].conversationID != results[1].conversationID)
            #expect(try store.conversations(in: account).count == 2)
        }
    }

    @Test("every author of a multi-author From is a participant, and the first is the sender")
    func multiAuthorFrom() async throws {
        try await withTemporaryStore { store, path throws in
            var input = message("m1", from: alice, to: [me])
            input.coAuthors = [bob]
            let (account, results) = try store.seed([input, message("m2", from: me, to: [alice, bob])])
            #expect(results[0].conversationID == results[1].conversationID)
            let list = try store.conversations(in: account)
            #expect(Set(list[0].participants.map(\.address)) == ["Alice@Example.com", "Bob.Smith@gmail.com"])
            let authors = try DatabaseQueue(path: path.path).read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT mp.address FROM message_participant mp JOIN message m ON m.id = mp.message_id
                        WHERE m.gmail_id = 'm1' AND mp.role = 'from' ORDER BY mp.address
                        """)
            }
            #expect(authors == ["Alice@Example.com", "Bob.Smith@gmail.com"])
            let transcript = try #require(try store.transcript(of: results[0].conversationID, limit: 10))
            #expect(transcript.messages[0].from.address == "Alice@Example.com")
        }
    }

    @Test("the authors of a multi-author list message all join the list's participants")
    func multiAuthorListMessage() async throws {
        try await withTemporaryStore { store, _ throws in
            var input = listMessage("m1", from: alice)
            input.coAuthors = [bob, me]
            let (account, _) = try store.seed([input])
            let participants = try store.conversations(in: account)[0].participants.map(\.address)
            #expect(Set(participants) == ["Alice@Example.com", "Bob.Smith@gmail.com"])
        }
    }

    @Test("a list's people carry the name of their newest post, whatever order the posts arrive in")
    func listParticipantNames() async throws {
        let older = listMessage("a", from: EmailAddress(address: alice.address, name: "A. Liddell"), at: 1_000)
        let newer = listMessage("b", from: alice, at: 2_000)
        let unnamed = listMessage("c", from: EmailAddress(address: alice.address), at: 3_000)
        for order in [[older, newer, unnamed], [unnamed, newer, older]] {
            try await withTemporaryStore { store, _ throws in
                let account = try store.write { tx in try tx.ensureAccount(email: me.address) }
                for input in order {
                    try store.write { tx in
                        try tx.recomputeRollups(for: try tx.upsert(input, in: account).affectedConversations)
                    }
                }
                #expect(try store.conversations(in: account)[0].participants.map(\.name) == ["Alice Liddell"])
            }
        }
    }

    @Test("deleting my post forgets its recipients, so a later posting address moves nothing")
    func deletedPostIsForgotten() async throws {
        try await withTemporaryStore { store, path throws in
            let (account, _) = try store.seed([message("mine", from: me, to: [devPost])])
            try store.write { tx in _ = try tx.deleteMessages(gmailIDs: ["mine"], in: account) }
            let learned = try store.write { tx in try tx.upsert(listMessage("l", from: alice), in: account) }
            #expect(learned.regroupedConversations.isEmpty)
            let rows = try DatabaseQueue(path: path.path).read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM own_post_recipient")
            }
            #expect(rows == 0)
        }
    }

    /// Every message's conversation (by key) and every conversation's rollups, in a stable order.
    static func dump(_ path: URL) throws -> [String] {
        try DatabaseQueue(path: path.path).read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT 'message ' || m.gmail_id || ' ' || c.participant_hash FROM message m
                    JOIN conversation c ON c.id = m.conversation_id
                    UNION ALL
                    SELECT 'conversation ' || participant_hash || ' ' || title || ' ' || message_count || ' '
                        || last_message_at_ms || ' ' || snippet || ' ' || coalesce(list_id, '-')
                    FROM conversation
                    UNION ALL
                    SELECT 'participant ' || c.participant_hash || ' ' || p.address_normalized
                    FROM conversation_participant p JOIN conversation c ON c.id = p.conversation_id
                    UNION ALL
                    SELECT 'list ' || list_id || ' ' || coalesce(name, '-') || ' ' || coalesce(post_address, '-')
                        || ' ' || is_read_only || ' ' || first_seen_ms || ' ' || last_seen_ms FROM mailing_list
                    ORDER BY 1
                    """)
        }
    }
}
