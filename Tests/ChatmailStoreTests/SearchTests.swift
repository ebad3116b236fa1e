import Foundation
import GRDB
import Testing
import TextSafety

@testable import ChatmailStore

@Suite struct SearchQueryTests {
    @Test("plain words are quoted phrases joined by AND; punctuation inside words is harmless")
    func plainWords() throws {
        #expect(try SearchQuery("lunch friday").expression == "\"lunch\" \"friday\"")
        #expect(
            try SearchQuery("don't e-mail 10:30 AT&T C++").expression
                == "\"don't\" \"e-mail\" \"10:30\" \"AT&T\" \"C++\"")
        #expect(try SearchQuery("meet*").expression == "\"meet\"*")
        #expect(try SearchQuery("or and not").isAdvanced == false)  // lowercase words are words
        #expect(throws: SearchError.emptyQuery) { try SearchQuery("  \t ") }
    }

    @Test("operators, quotes, parentheses and column filters switch to FTS5 syntax")
    func advanced() throws {
        for text in [
            "\"exact phrase\"", "lunch OR dinner", "report NOT draft", "(a b)", "subject:invoice", "NEAR(a b)",
            "^start",
        ] {
            let query = try SearchQuery(text)
            #expect(query.isAdvanced, "\(text)")
            #expect(query.expression == text)
        }
    }

    @Test("a plain word repeated, in any case, is searched once; a prefix is another word")
    func repeats() throws {
        let pasted = try SearchQuery(String(repeating: "word ", count: 2_000))
        #expect(pasted.expression == "\"word\"" && pasted.phrases == ["\"word\""])
        #expect(try SearchQuery("Lunch lunch friday LUNCH friday").expression == "\"Lunch\" \"friday\"")
        #expect(try SearchQuery("meet meet* meet").expression == "\"meet\" \"meet\"*")
    }

    @Test("more different words than the cap, or more characters, are refused, plain or FTS5")
    func caps() throws {
        let words = (1...SearchQuery.maximumTermCount + 1).map { "w\($0)" }
        #expect(try SearchQuery(words.dropLast().joined(separator: " ")).phrases?.count == SearchQuery.maximumTermCount)
        #expect(throws: SearchError.tooManyTerms(SearchQuery.maximumTermCount + 1)) {
            try SearchQuery(words.joined(separator: " "))
        }
        #expect(throws: SearchError.tooManyTerms(SearchQuery.maximumTermCount + 1)) {
            try SearchQuery(words.joined(separator: " OR "))
        }
        // repeats count once
        #expect(try SearchQuery(Array(repeating: "w1", count: 40).joined(separator: " OR ")).isAdvanced)
        let long = String(repeating: "x", count: SearchQuery.maximumLength + 1)
        #expect(throws: SearchError.tooLong) { try SearchQuery(long) }
        #expect(throws: SearchError.tooLong) { try SearchQuery("\"" + long + "\"") }
        #expect(try SearchQuery(String(long.dropLast())).expression.count == SearchQuery.maximumLength + 2)  // quoted
        #expect(
            SearchError.tooManyTerms(40).errorDescription?.contains("too many different words (40; at most 32)") == true
        )
    }
}

@Suite struct SearchTests {
    @Test("results are ranked by bm25 with subject matches weighted")
    func ranking() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                message(
                    "once", from: alice, at: 1_000,
                    text: "the garden party was fun and the weather nice and warm all day long"),
                message("often", from: bob, at: 2_000, text: "garden garden garden: the garden is lovely"),
                message("subject", from: carol, at: 3_000, text: "see the plans attached", subject: "Garden plans"),
                message("none", from: carol, at: 4_000, text: "nothing about it"),
                // "garden" must be in fewer than half of the messages, or bm25 weighs it zero (see `broadWords`).
                message("other1", from: alice, at: 5_000, text: "lunch on friday"),
                message("other2", from: bob, at: 6_000, text: "the train was late"),
                message("other3", from: carol, at: 7_000, text: "see you soon"),
            ])
            let hits = try store.search(try SearchQuery("garden"), in: account)
            #expect(hits.map(\.gmailID) == ["often", "subject", "once"])
            #expect(hits.map(\.score) == hits.map(\.score).sorted())
            // Matches are marked in the subject and the snippet.
            #expect(hits[1].subject.segments.contains(.init(text: "Garden", isMatch: true)))
            #expect(
                hits[0].snippet.segments.filter(\.isMatch).map { $0.text.lowercased() } == [
                    "garden", "garden", "garden", "garden",
                ])
            #expect(hits[0].snippet.plain.contains("the garden is lovely"))
            #expect(try store.search(try SearchQuery("garden"), in: account, limit: 1).map(\.gmailID) == ["often"])
        }
    }

    @Test("every plain word must match; prefixes and phrases work")
    func words() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([
                message("a", from: alice, text: "meeting on friday, don't be late"),
                message("b", from: bob, text: "friday lunch"),
            ])
            #expect(try store.search(try SearchQuery("friday"), in: account).map(\.gmailID).sorted() == ["a", "b"])
            #expect(try store.search(try SearchQuery("friday lunch"), in: account).map(\.gmailID) == ["b"])
            #expect(try store.search(try SearchQuery("meet*"), in: account).map(\.gmailID) == ["a"])
            #expect(try store.search(try SearchQuery("don't"), in: account).map(\.gmailID) == ["a"])
            #expect(try store.search(try SearchQuery("\"be late\""), in: account).map(\.gmailID) == ["a"])
            #expect(try store.search(try SearchQuery("lunch OR meeting"), in: account).count == 2)
            // A pasted repetition finds what the word alone finds.
            #expect(
                try store.search(try SearchQuery(String(repeating: "friday ", count: 2_000)), in: account)
                    == store.search(try SearchQuery("friday"), in: account))
        }
    }

    @Test("the conversation filter, and trashed or spam messages are left out")
    func filters() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, upserts) = try store.seed([
                message("a", from: alice, text: "budget draft"),
                message("b", from: bob, text: "budget final"),
                message("t", from: bob, labels: ["TRASH"], text: "budget trashed"),
                message("s", from: carol, labels: ["SPAM"], text: "budget spam"),
            ])
            #expect(try store.search(try SearchQuery("budget"), in: account).map(\.gmailID).sorted() == ["a", "b"])
            let bobs = try #require(upserts[1].affectedConversations.first)
            let hits = try store.search(try SearchQuery("budget"), in: account, conversation: bobs)
            #expect(hits.map(\.gmailID) == ["b"])
            #expect(hits.first?.conversation.title == "Bob Smith")
        }
    }

    @Test(
        "when the best candidates are trashed the full query decides; equal scores are cut exactly, latest stored first"
    )
    func fallback() async throws {
        try await withTemporaryStore { store, _ throws in
            // 30 strong matches, all trashed, then 10 weaker visible ones.
            var messages = (0..<30).map {
                message("t\($0)", from: alice, at: Int64($0), labels: ["TRASH"], text: "zebra zebra zebra zebra")
            }
            messages += (0..<10).map {
                message("v\($0)", from: bob, at: Int64(100 + $0), text: "a zebra among many other words here \($0)")
            }
            // 40 equal matches that differ only in date.
            messages += (0..<40).map { message("e\($0)", from: carol, at: Int64(1_000 + $0), text: "okapi") }
            // Neither word in half of the messages, so bm25 ranks (see `broadWords`).
            messages += (0..<10).map { message("f\($0)", from: alice, at: Int64(2_000 + $0), text: "filler") }
            let (account, _) = try store.seed(messages)
            let visible = try store.search(try SearchQuery("zebra"), in: account, limit: 2)
            #expect(visible.count == 2 && visible.allSatisfy { $0.gmailID.hasPrefix("v") })
            let newest = try store.search(try SearchQuery("okapi"), in: account, limit: 3)
            #expect(newest.map(\.gmailID) == ["e39", "e38", "e37"])
            let all = try store.search(try SearchQuery("okapi"), in: account, limit: 100)
            #expect(all.count == 40)
            // Three neighbours are marked in one pass over their id range, all 40 by a probe each: the same marks.
            let marked = [MarkedText.Segment(text: "okapi", isMatch: true)]
            #expect(
                newest.allSatisfy { $0.snippet.segments == marked } && all.allSatisfy { $0.snippet.segments == marked })
        }
    }

    @Test("a search list counts the visible matches past its limit, and without a limit holds them all")
    func searchList() async throws {
        try await withTemporaryStore { store, _ throws in
            // Trashed matches rank first in FTS5 and are counted by it, but not by the list.
            var messages = (0..<30).map {
                message("t\($0)", from: alice, at: Int64($0), labels: ["TRASH"], text: "zebra zebra zebra zebra")
            }
            messages += (0..<10).map {
                message("v\($0)", from: bob, at: Int64(100 + $0), text: "a zebra among many other words here \($0)")
            }
            messages += (0..<40).map { message("f\($0)", from: carol, at: Int64(2_000 + $0), text: "filler") }
            let (account, _) = try store.seed(messages)
            let zebra = try SearchQuery("zebra")
            let cut = try store.searchList(zebra, in: account, limit: 3)
            #expect(cut.items == (try store.search(zebra, in: account, limit: 3)) && cut.omittedCount == 7)
            let all = try store.searchList(zebra, in: account, limit: nil)
            #expect(all.items == (try store.search(zebra, in: account, limit: 100)) && all.omittedCount == 0)
            #expect(all.items.count == 10)
            #expect(try store.searchList(zebra, in: account, limit: 10).omittedCount == 0)
            #expect(try store.searchList(try SearchQuery("quokka"), in: account, limit: nil) == LimitedList(items: []))
            #expect(throws: SearchError.self) {
                try store.searchList(try SearchQuery("\"unclosed"), in: account, limit: nil)
            }
        }
    }

    @Test("when every word is in half of the messages or more, bm25 weighs them zero: newest first by date, score 0")
    func broadWords() async throws {
        try await withTemporaryStore { store, _ throws in
            // Stored in an order unlike their dates, as a first sync stores the newest first.
            let (account, upserts) = try store.seed([
                message("new", from: alice, at: 9_000, text: "invoice attached"),
                message("old", from: bob, at: 1_000, text: "invoice invoice invoice: the invoice, the invoice"),
                message("mid", from: alice, at: 5_000, text: "your invoice and the hotel invoice", subject: "Invoice"),
                message("trashed", from: bob, at: 9_500, labels: ["TRASH"], text: "invoice"),
                message("recent", from: carol, at: 7_000, text: "hotel booking"),
                message("spam", from: carol, at: 8_000, labels: ["SPAM"], text: "hotel invoice"),
                message("none", from: carol, at: 3_000, text: "nothing about it"),
            ])
            // "invoice" is in 5 of 7: bm25 would put "old" (five times) or "mid" (subject) first.
            let hits = try store.search(try SearchQuery("invoice"), in: account)
            #expect(hits.map(\.gmailID) == ["new", "mid", "old"])
            #expect(hits.allSatisfy { $0.score == 0 })
            #expect(hits[1].subject.segments.contains(.init(text: "Invoice", isMatch: true)))
            #expect(hits[0].snippet.segments.contains(.init(text: "invoice", isMatch: true)))
            #expect(
                try store.search(try SearchQuery("invoice"), in: account, limit: 2).map(\.gmailID) == ["new", "mid"])
            // Both words broad (invoice 5, hotel 4 of 7): still newest first.
            #expect(try store.search(try SearchQuery("hotel invoice"), in: account).map(\.gmailID) == ["mid"])
            #expect(try store.search(try SearchQuery("invoice hotel*"), in: account).map(\.gmailID) == ["mid"])
            // Alice's conversation only.
            let alices = try #require(upserts[0].affectedConversations.first)
            #expect(
                try store.search(try SearchQuery("invoice"), in: account, conversation: alices).map(\.gmailID) == [
                    "new", "mid",
                ])
            // One rare word (booking: 1 of 7) and bm25 decides again, with real scores.
            let ranked = try store.search(try SearchQuery("hotel booking"), in: account)
            #expect(ranked.map(\.gmailID) == ["recent"] && ranked[0].score < 0)
            // FTS5 syntax is always ranked by bm25 (its phrases are not enumerated): real scores, best first.
            let advanced = try store.search(try SearchQuery("\"invoice\""), in: account)
            #expect(Set(advanced.map(\.gmailID)) == ["new", "mid", "old"])
            #expect(advanced.allSatisfy { $0.score < 0 } && advanced.map(\.score) == advanced.map(\.score).sorted())
        }
    }

    @Test("newest first across conversations whose dates interleave, for any limit")
    func newestAcrossConversations() async throws {
        try await withTemporaryStore { store, _ throws in
            // 30 messages with "memo" in three chats, dated in an order unrelated to chat or storage, and 5 without.
            let people = [alice, bob, carol]
            let dates = (0..<30).map { Int64(($0 * 7919) % 30) * 1_000 }
            var messages = (0..<30).map { message("m\($0)", from: people[$0 % 3], at: dates[$0], text: "memo \($0)") }
            messages += (0..<5).map { message("x\($0)", from: alice, at: 100_000 + Int64($0), text: "other") }
            let (account, _) = try store.seed(messages)
            let byDate = (0..<30).sorted { dates[$0] > dates[$1] }.map { "m\($0)" }
            for limit in [1, 5, 13, 29, 30, 100] {
                #expect(
                    try store.search(try SearchQuery("memo"), in: account, limit: limit).map(\.gmailID)
                        == Array(byDate.prefix(limit)), "limit \(limit)")
            }
        }
    }

    @Test("a query FTS5 rejects is a SearchError with FTS5's reason, not an SQLite error")
    func badQuery() async throws {
        try await withTemporaryStore { store, _ throws in
            let (account, _) = try store.seed([message("a", from: alice, text: "anything")])
            for text in ["\"unterminated", "lunch AND", "nosuchcolumn: \"x\"", "(a OR"] {
                #expect {
                    _ = try store.search(try SearchQuery(text), in: account)
                } throws: { error in
                    guard case SearchError.badQuery(let reason) = error else { return false }
                    return !reason.isEmpty && !reason.lowercased().contains("sqlite")
                }
            }
        }
    }

    @Test("search sees the store's updates and deletes at once (the index is kept in step)")
    func followsWrites() async throws {
        try await withTemporaryStore { store, path throws in
            let (account, _) = try store.seed([
                message("a", from: alice, text: "quokka"), message("b", from: bob, text: "wombat"),
            ])
            try store.write { tx in
                try tx.upsert(message("a", from: alice, text: "numbat"), in: account)
                try tx.deleteMessages(gmailIDs: ["b"], in: account)
            }
            #expect(try store.search(try SearchQuery("quokka"), in: account).isEmpty)
            #expect(try store.search(try SearchQuery("numbat"), in: account).map(\.gmailID) == ["a"])
            #expect(try store.search(try SearchQuery("wombat"), in: account).isEmpty)
            try DatabaseQueue(path: path.path).write { db in
                try db.execute(sql: "INSERT INTO message_fts (message_fts, rank) VALUES ('integrity-check', 1)")
            }
        }
    }
}
