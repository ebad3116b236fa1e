import Foundation
import GRDB
import Testing

@testable import ChatmailStore

@Suite struct TranscriptTests {
    @Test("returns the NEWEST N messages, oldest first")
    func newestN() async throws {
        try await withTemporaryStore { store, _ throws in
            // Inserted out of order, so insertion order cannot pass for date order.
            let order = [5, 1, 9, 3, 7, 0, 8, 2, 6, 4]
            let (_, results) = try store.seed(
                order.map { i in
                    message(
                        "m\(i)", from: i.isMultiple(of: 3) ? me : alice, to: i.isMultiple(of: 3) ? [alice] : [me],
                        at: 1_700_000_000_000 + Int64(i) * 60_000, text: "message \(i)")
                })
            let transcript = try #require(try store.transcript(of: results[0].conversationID, limit: 4))
            #expect(transcript.messages.map(\.gmailID) == ["m6", "m7", "m8", "m9"])
            #expect(transcript.earlierMessageCount == 6)
            #expect(transcript.messages.map(\.isFromMe) == [true, false, false, true])
        }
    }

    @Test("carries labels and attachments of each message")
    func labelsAndAttachments() async throws {
        try await withTemporaryStore { store, _ throws in
            let pdf = MessageInput.Attachment(
                partID: "2", filename: "report.pdf", mimeType: "application/pdf", size: 12_345)
            let (_, results) = try store.seed([
                message("a", from: alice, labels: ["INBOX", "UNREAD", "STARRED"], attachments: [pdf])
            ])
            let transcript = try #require(try store.transcript(of: results[0].conversationID, limit: 10))
            #expect(transcript.messages[0].labels == ["INBOX", "STARRED", "UNREAD"])
            #expect(transcript.messages[0].isUnread)
            #expect(
                transcript.messages[0].attachments == [
                    .init(filename: "report.pdf", mimeType: "application/pdf", size: 12_345, isInline: false)
                ])
        }
    }
}

@Suite struct ConversationListTests {
    @Test("lists newest first, with filters")
    func filters() async throws {
        try await withTemporaryStore { store, _ throws in
            let news = EmailAddress(address: "news@shop.example", name: "Shop")
            let (account, _) = try store.seed([
                message("a", from: alice, at: 3, labels: ["INBOX"]),
                message("b", from: bob, at: 2, labels: ["INBOX", "UNREAD"]),
                message("c", from: news, at: 1, labels: ["INBOX"], newsletter: true),
                message("d", from: carol, at: 4, labels: []),  // archived
            ])
            let titles = { (filter: ConversationFilter) in
                try store.conversations(in: account, filter: filter).map(\.title)
            }
            #expect(try titles(.init()) == ["Alice Liddell", "Bob Smith", "Shop"])
            #expect(try titles(.init(visibility: .all)) == ["Carol Danvers", "Alice Liddell", "Bob Smith", "Shop"])
            #expect(try titles(.init(visibility: .archived)) == ["Carol Danvers"])
            #expect(try titles(.init(unreadOnly: true)) == ["Bob Smith"])
            #expect(try titles(.init(kind: .people)) == ["Alice Liddell", "Bob Smith"])
            #expect(try titles(.init(kind: .newsletters)) == ["Shop"])
            #expect(try titles(.init(limit: 2)) == ["Alice Liddell", "Bob Smith"])
        }
    }
}

@Suite struct QueryPlanTests {
    @Test(
        "every conversation list walks a recency index with no sort",
        arguments: [
            (ConversationFilter(), "conversation_active_by_recency"),
            (ConversationFilter(unreadOnly: true), "conversation_active_by_recency"),
            (ConversationFilter(kind: .people), "conversation_active_by_recency"),
            (ConversationFilter(visibility: .archived), "conversation_by_recency"),
            (ConversationFilter(visibility: .all, kind: .newsletters), "conversation_by_recency"),
        ])
    func plans(filter: ConversationFilter, index: String) async throws {
        try await withTemporaryStore { _, path throws in
            let plan = try DatabaseQueue(path: path.path).read { db in
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN \(ChatmailStore.listSQL(filter))",
                    arguments: ["account": 1, "limit": 50]
                ).map { $0["detail"] as String }
            }
            #expect(plan.contains { $0.contains("USING INDEX \(index)") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }

    @Test("Gmail-id lookups search the (account_id, gmail_id) index per id instead of scanning the mailbox")
    func gmailIDLookupPlan() async throws {
        try await withTemporaryStore { _, path throws in
            let plan = try DatabaseQueue(path: path.path).read { db in
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN SELECT m.id \(StoreTransaction.wantedMessagesJoin)",
                    arguments: ["[\"a\",\"b\"]", 1]
                ).map { $0["detail"] as String }
            }
            // The outer loop walks the wanted ids; each probes the unique index with BOTH columns.
            #expect(plan.first?.hasPrefix("SCAN wanted") == true, "\(plan)")
            #expect(
                plan.contains { $0.hasPrefix("SEARCH m") && $0.contains("(account_id=? AND gmail_id=?)") }, "\(plan)")
        }
    }

    @Test("learning a posting address finds my posts to it through the recipient index, not a mailbox scan")
    func ownPostsToAddressPlan() async throws {
        try await withTemporaryStore { _, path throws in
            let plan = try DatabaseQueue(path: path.path).read { db in
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN \(StoreTransaction.ownPostsToAddressSQL)", arguments: [1, "a@b"]
                ).map { $0["detail"] as String }
            }
            #expect(
                plan.contains {
                    $0.hasPrefix("SEARCH r USING") && $0.contains("own_post_recipient_by_address")
                        && $0.contains("(account_id=? AND address_normalized=?)")
                }, "\(plan)")
            #expect(plan.contains { $0.hasPrefix("SEARCH m USING INTEGER PRIMARY KEY") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
        }
    }

    @Test(
        "recomputing a list after a deletion reads only that list's messages, through message_by_list",
        arguments: [
            StoreTransaction.listSpanSQL, StoreTransaction.listNameSQL, StoreTransaction.listPostingSQL,
            StoreTransaction.listCarriesSpellingSQL, StoreTransaction.listPostSpellingsSQL,
        ])
    func listReconcilePlan(sql: String) async throws {
        try await withTemporaryStore { _, path throws in
            let plan = try DatabaseQueue(path: path.path).read { db in
                let values: [any DatabaseValueConvertible] = [1, "l", "a@b"]
                let arguments = StatementArguments(Array(values.prefix(sql.filter { $0 == "?" }.count)))
                return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN \(sql)", arguments: #require(arguments))
                    .map { $0["detail"] as String }
            }
            #expect(
                plan.contains { $0.contains("message_by_list") && $0.contains("account_id=? AND list_id=?") },
                "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
        }
    }

    @Test("naming a list (by id or posting address) finds its conversation by the unique hash index, no scan")
    func listByNamePlan() async throws {
        try await withTemporaryStore { _, path throws in
            let plan = try DatabaseQueue(path: path.path).read { db in
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN \(ChatmailStore.listConversationsSQL)", arguments: [1, "[\"ab\"]"]
                ).map { $0["detail"] as String }
            }
            #expect(
                plan.contains { $0.hasPrefix("SEARCH conversation USING INDEX") && $0.contains("participant_hash=?") },
                "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN conversation") }, "\(plan)")
        }
    }

    @Test("a list row's newest sender walks its conversation's date index backwards: no scan of the list")
    func listDetailsPlan() async throws {
        try await withTemporaryStore { _, path throws in
            let plan = try DatabaseQueue(path: path.path).read { db in
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN \(ChatmailStore.listDetailsSQL)", arguments: ["[1]"]
                ).map { $0["detail"] as String }
            }
            #expect(
                plan.contains { $0.hasPrefix("SEARCH m USING") && $0.contains("message_by_conversation_date") },
                "\(plan)")
            #expect(plan.contains { $0.hasPrefix("SEARCH c USING INTEGER PRIMARY KEY") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") && !$0.hasPrefix("SCAN json_each") }, "\(plan)")
        }
    }

    @Test("a rollup pass reads its conversations' dates and flags from the index alone, and scans nothing")
    func rollupPlans() async throws {
        try await withTemporaryStore { store, _ throws in
            let (_, results) = try store.seed([
                message("a", from: alice, at: 1, labels: ["INBOX", "UNREAD"]),
                message("b", from: me, to: [alice], at: 2, labels: ["SENT"]),
                message("c", from: bob, at: 3, labels: ["TRASH"]),
                listMessage("d", from: carol, at: 4),
            ])
            let conversations = Set(results.flatMap(\.affectedConversations))
            let plans = try store.write { tx -> [(sql: String, plan: [String])] in
                let statements = StatementLog()
                tx.db.trace { event in
                    if case .statement(let statement) = event { statements.sql.append(statement.expandedSQL) }
                }
                try tx.recomputeRollups(for: conversations)
                tx.db.trace(options: [])
                return try statements.sql.filter { !$0.hasPrefix("SAVEPOINT") && !$0.hasPrefix("RELEASE") }.map { sql in
                    (sql, try Row.fetchAll(tx.db, sql: "EXPLAIN QUERY PLAN \(sql)").map { $0["detail"] as String })
                }
            }
            let aggregate = try #require(plans.first { $0.sql.contains("WITH visible") }, "\(plans.map(\.sql))")
            // Reading each message's row instead costs a page per message on a large mailbox.
            #expect(
                aggregate.plan.contains(
                    "SEARCH m USING COVERING INDEX message_by_conversation_date (conversation_id=?)"),
                "\(aggregate.plan)")
            #expect(
                !aggregate.plan.contains { $0.contains("USING INDEX message_by_conversation_date") },
                "\(aggregate.plan)")
            // Scans are fine only over what does not grow with the mailbox: the id list, the aggregate of the
            // touched conversations, `label` (one row per Gmail label), and the touched lists' named senders
            // (`named`, the window over their messages that picks each sender's newest name).
            let small = ["SCAN json_each", "SCAN aggregate", "SCAN label", "SCAN named", "SCAN (subquery-"]
            for (sql, plan) in plans {
                #expect(
                    !plan.contains { step in step.hasPrefix("SCAN") && !small.contains { step.hasPrefix($0) } },
                    "\(sql): \(plan)")
            }
        }
    }
}

/// The statements a traced transaction ran, in order.
private final class StatementLog {
    var sql: [String] = []
}
