import Foundation
import GmailModel
import Testing

extension ComposeEndToEnd {
    /// `chatmail rules`, `allow`, `deny` and the screener, on a home synced from the emulator.
    @Suite struct RulesCommandTests {
        static func mail(from: String, subject: String, text: String, id: String, hour: Int = 11) -> String {
            """
            From: \(from)\r\nTo: Me <me@example.org>\r\nSubject: \(subject)\r\n\
            Date: Tue, 4 Mar 2025 \(hour):00:00 +0000\r\nMessage-ID: <\(id)>\r\n\r\n\(text)\r\n
            """
        }

        static func conversations(_ home: ComposeHome, _ flags: [String] = []) async throws -> [[String: Any]] {
            let result = try await home.run(["conversations", "--json", "--limit", "500"] + flags)
            return try #require(try result.json() as? [[String: Any]], "\(result.stderr)")
        }

        static func addresses(_ conversation: [String: Any]) -> Set<String> {
            Set((conversation["participants"] as? [[String: Any]] ?? []).compactMap { $0["address"] as? String })
        }

        /// The conversation with exactly `address` among `rows`, or `nil`.
        static func find(_ address: String, in rows: [[String: Any]]) -> [String: Any]? {
            rows.first { addresses($0) == [address] }
        }

        /// How many times Gmail's history says INBOX left each message since `start`.
        static func inboxRemovals(_ home: ComposeHome, since start: String) async throws -> [String: Int] {
            let history = try await home.setup.gmail("history?startHistoryId=\(start)")
            var counts: [String: Int] = [:]
            for record in history["history"] as? [[String: Any]] ?? [] {
                for change in record["labelsRemoved"] as? [[String: Any]] ?? [] {
                    guard (change["labelIds"] as? [String])?.contains("INBOX") == true,
                        let id = (change["message"] as? [String: Any])?["id"] as? String
                    else { continue }
                    counts[id, default: 0] += 1
                }
            }
            return counts
        }

        @Test(
            "a deny rule with --archive hides a sender's conversation and archives its mail on Gmail exactly once, old mail and new"
        )
        func denyArchiveReachesGmailOnce() async throws {
            let home = try await ComposeHome()
            let start = try #require(try await home.setup.control("GET", "state")["historyId"] as? String)
            var spam: [String] = []
            for number in 1...2 {
                spam.append(
                    try await Self.deliverID(
                        Self.mail(
                            from: "Offers <offers@deals.spam.example>", subject: "Deal \(number)",
                            text: "Buy now, number \(number).", id: "deal\(number)@spam.example"), to: home))
            }
            #expect(try await home.run(["sync"]).status == 0)
            #expect(Self.find("offers@deals.spam.example", in: try await Self.conversations(home)) != nil)

            let added = try await home.run(["rules", "add", "deny", "spam.example", "--archive"])
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("Added rule 1: deny domain spam.example, and archive."), "\(added.stdout)")
            #expect(added.stdout.contains("Archived 2 messages; queued for Gmail as action #"), "\(added.stdout)")
            // Hidden from the main list, shown by --filtered, and archived locally at once.
            #expect(Self.find("offers@deals.spam.example", in: try await Self.conversations(home)) == nil)
            let filtered = try await Self.conversations(home, ["--filtered", "--all"])
            #expect(filtered.count == 1 && Self.find("offers@deals.spam.example", in: filtered) != nil, "\(filtered)")

            #expect(try await home.run(["sync"]).status == 0)  // sends the queued archive first
            for id in spam { #expect(try await home.setup.serverLabels(id).contains("INBOX") == false) }

            // New mail the rule matches is archived as it arrives.
            let third = try await Self.deliverID(
                Self.mail(
                    from: "offers@deals.spam.example", subject: "Deal 3", text: "Last chance.",
                    id: "deal3@spam.example",
                    hour: 12), to: home)
            #expect(try await home.run(["sync"]).status == 0)
            #expect(try await home.run(["pending", "run"]).status == 0)
            #expect(try await home.setup.serverLabels(third).contains("INBOX") == false)

            // The user moves one back to the inbox: later syncs, even a full one, leave it there.
            #expect(try await home.run(["unarchive", "--message", spam[0]]).status == 0)
            #expect(try await home.run(["sync"]).status == 0)
            #expect(try await home.run(["sync", "--full"]).status == 0)
            #expect(try await home.run(["pending", "run"]).status == 0)
            #expect(try await home.setup.serverLabels(spam[0]).contains("INBOX"))
            let removals = try await Self.inboxRemovals(home, since: start)
            #expect(removals == [spam[0]: 1, spam[1]: 1, third: 1], "\(removals)")
        }

        @Test("allow beats deny, mute clears the unread count, and removing rules brings everything back")
        func precedenceMuteAndRemoval() async throws {
            let home = try await ComposeHome()
            try await ComposeHome.deliver(
                Self.mail(
                    from: "Lunch Club <club@food.example>", subject: "Friday", text: "Lunch at noon, as usual?",
                    id: "lunch@food.example"), to: home.setup)
            #expect(try await home.run(["sync"]).status == 0)
            let club = try #require(Self.find("club@food.example", in: try await Self.conversations(home)))
            #expect(club["unreadCount"] as? Int == 1)

            #expect(try await home.run(["rules", "add", "mute", "lunch"]).status == 0)  // text, whole word
            let muted = try #require(Self.find("club@food.example", in: try await Self.conversations(home)))
            #expect(muted["unreadCount"] as? Int == 0, "\(muted)")

            #expect(try await home.run(["rules", "add", "deny", "--on", "sender", "CLUB@food.example"]).status == 0)
            #expect(Self.find("club@food.example", in: try await Self.conversations(home)) == nil)
            #expect(try await home.run(["rules", "add", "allow", "food.example"]).status == 0)
            let allowed = try #require(Self.find("club@food.example", in: try await Self.conversations(home)))
            // Allow decides the message now, so mute no longer applies either.
            #expect(allowed["unreadCount"] as? Int == 1, "\(allowed)")

            let listed = try await home.run(["rules", "--json"])
            let rules = try #require(try listed.json() as? [[String: Any]])
            #expect(rules.map { $0["action"] as? String } == ["mute", "deny", "allow"])
            #expect(rules.allSatisfy { Set($0.keys) == ["id", "action", "on", "pattern", "archive", "createdAt"] })
            #expect(rules[1]["pattern"] as? String == "club@food.example" && rules[1]["on"] as? String == "sender")

            for id in ["3", "2", "1"] { #expect(try await home.run(["rules", "remove", id]).status == 0) }
            let back = try #require(Self.find("club@food.example", in: try await Self.conversations(home)))
            #expect(back["unreadCount"] as? Int == 1)
            #expect(try await Self.conversations(home, ["--filtered"]).isEmpty)

            let unknown = try await home.run(["rules", "remove", "3"])
            #expect(unknown.status == 2 && unknown.stderr.contains("There is no rule 3"), "\(unknown.stderr)")
            let notAddress = try await home.run(["rules", "add", "deny", "--on", "sender", "nobody"])
            #expect(notAddress.status == 64 && notAddress.stderr.contains("is not an email address"))
            let archiveMute = try await home.run(["rules", "add", "mute", "x@y.example", "--archive"])
            #expect(archiveMute.status == 64 && archiveMute.stderr.contains("--archive goes with deny rules only"))
        }

        @Test("rules test names the deciding rule and why, in text and JSON, from a file or stdin")
        func ruleTest() async throws {
            let home = try await ComposeHome()
            #expect(try await home.run(["rules", "add", "mute", "--on", "subject", "weekly digest"]).status == 0)
            #expect(try await home.run(["rules", "add", "deny", "digest@news.example"]).status == 0)
            let raw = Self.mail(
                from: "News <Digest@News.example>", subject: "Your WEEKLY digest!", text: "Hello.", id: "d@news.example"
            )

            let text = (try await home.runWithInput(["rules", "test", "-"], input: .bytes(raw))).result
            #expect(text.status == 0, "\(text.stderr)")
            #expect(
                text.stdout.hasPrefix(
                    "Denied by rule 2 (deny sender digest@news.example): the sender is digest@news.example."),
                "\(text.stdout)")
            #expect(text.stdout.contains("Also matches rule 1 (mute subject \"weekly digest\"), but deny wins."))

            let json = (try await home.runWithInput(["rules", "test", "--json", "-"], input: .bytes(raw))).result
            let decision = try #require(try json.json() as? [String: Any], "\(json.stdout)")
            #expect(Set(decision.keys) == ["decision", "rule", "matches", "fromMe"])
            #expect(decision["decision"] as? String == "deny")
            #expect((decision["matches"] as? [[String: Any]])?.count == 2)

            let plain = Self.mail(from: "pat@example.net", subject: "Hi", text: "A weekly thing.", id: "p@x.example")
            let none = (try await home.runWithInput(["rules", "test", "--json", "-"], input: .bytes(plain))).result
            let nothing = try #require(try none.json() as? [String: Any])
            #expect(nothing["decision"] is NSNull && nothing["rule"] is NSNull, "\(nothing)")

            let garbage = (try await home.runWithInput(["rules", "test", "-"], input: .bytes("just some words\n")))
                .result
            #expect(garbage.status == 65 && garbage.stderr.contains("is not an email message"), "\(garbage.stderr)")
        }

        @Test("rules export writes TOML that rules import reads back; a bad file imports nothing")
        func exportImport() async throws {
            let home = try await ComposeHome()
            for arguments in [
                ["allow", "pat@example.net"], ["deny", "--on", "domain", "@ads.example", "--archive"],
                ["mute", "--on", "text", "Ünïcode “quotes” 'and' \\ backslash"],
            ] {
                #expect(try await home.run(["rules", "add"] + arguments).status == 0)
            }
            // The same rule without --archive is the same rule, and does not stop it archiving; the field
            // chatmail guessed is named on stderr.
            let again = try await home.run(["rules", "add", "deny", "ads.example"])
            #expect(again.stdout.hasPrefix("That rule exists already: deny domain ads.example."), "\(again.stdout)")
            #expect(again.stderr.contains("matching the domain (give --on text"), "\(again.stderr)")
            let allowAgain = try await home.run(["rules", "add", "allow", "pat@example.net"])
            #expect(allowAgain.stdout.hasPrefix("That rule exists already"), "\(allowAgain.stdout)")
            let before = try await home.run(["rules", "--json"]).json() as? [[String: Any]]
            let exported = try await home.run(["rules", "export"])
            #expect(exported.stdout.contains("[[rule]]"), "\(exported.stdout)")

            let replaced =
                (try await home.runWithInput(
                    ["rules", "import", "--replace", "-"],
                    input: .bytes("[[rule]]\naction = 'deny'\non = 'sender'\npattern = 'x@y.example'\n"))).result
            #expect(replaced.status == 0 && replaced.stdout.contains("3 removed"), "\(replaced.stdout)")
            let restored =
                (try await home.runWithInput(["rules", "import", "--replace", "-"], input: .bytes(exported.stdout)))
                .result
            #expect(restored.status == 0, "\(restored.stderr)")
            let after = try await home.run(["rules", "--json"]).json() as? [[String: Any]]
            let key = { (rules: [[String: Any]]?) in
                (rules ?? []).map { "\($0["action"]!) \($0["on"]!) \($0["pattern"]!) \($0["archive"]!)" }.sorted()
            }
            #expect(key(before) == key(after) && key(after).count == 3, "\(key(before)) \(key(after))")

            let bad =
                (try await home.runWithInput(
                    ["rules", "import", "-"],
                    input: .bytes(
                        "[[rule]]\naction = 'deny'\non = 'sender'\npattern = 'a@b.example'\n[[rule]]\naction = 'block'\non = 'text'\npattern = 'x'\n"
                    ))).result
            #expect(bad.status == 65 && bad.stderr.contains("stdin, rule 2: action \"block\""), "\(bad.stderr)")
            let unchanged = try await home.run(["rules", "--json"]).json() as? [[String: Any]]
            #expect(key(unchanged) == key(after))
        }

        @Test("the screener holds conversations with people never written to, until allowed; deny hides them")
        func screenerFlow() async throws {
            let home = try await ComposeHome()
            try await ComposeHome.deliver(
                Self.mail(from: "Stranger <new@stranger.example>", subject: "Hello", text: "Hi there.", id: "s@x"),
                to: home.setup)
            try await ComposeHome.deliver(
                Self.mail(from: "Pest <pest@stranger.example>", subject: "Again", text: "Me again.", id: "p@x"),
                to: home.setup)
            #expect(try await home.run(["sync"]).status == 0)
            // Off by default: everyone is in the main list.
            let off = try await home.run(["screener"])
            #expect(off.stdout.hasPrefix("The screener is off."), "\(off.stdout)")
            #expect(Self.find("new@stranger.example", in: try await Self.conversations(home)) != nil)

            #expect(try await home.run(["screener", "on"]).stdout.hasPrefix("The screener is on:"))
            #expect(Self.find("new@stranger.example", in: try await Self.conversations(home)) == nil)
            let held = try await Self.conversations(home, ["--screener"])
            #expect(
                Self.find("new@stranger.example", in: held) != nil
                    && Self.find("pest@stranger.example", in: held) != nil)

            // Writing to Pat lets Pat's conversation through.
            #expect(Self.find("pat@example.net", in: held) != nil)
            let reply = try await home.run(["reply", "pat", "--message", "Sounds good."])
            #expect(reply.status == 0, "\(reply.stderr)")
            #expect(Self.find("pat@example.net", in: try await Self.conversations(home)) != nil)

            let allow = try await home.run(["allow", "new@stranger.example"])
            #expect(allow.stdout.contains("Added rule 1: allow sender new@stranger.example."), "\(allow.stdout)")
            #expect(Self.find("new@stranger.example", in: try await Self.conversations(home)) != nil)

            let deny = try await home.run(["deny", "pest"])
            #expect(deny.status == 0, "\(deny.stderr)")
            #expect(Self.find("pest@stranger.example", in: try await Self.conversations(home, ["--screener"])) == nil)
            #expect(Self.find("pest@stranger.example", in: try await Self.conversations(home, ["--filtered"])) != nil)

            #expect(try await home.run(["screener", "off"]).stdout.hasPrefix("The screener is off."))
            let main = try await Self.conversations(home)
            #expect(Self.find("pest@stranger.example", in: main) == nil)  // deny still hides
        }

        /// Delivers `raw` to the inbox, unread, and returns the Gmail id it got.
        static func deliverID(_ raw: String, to home: ComposeHome) async throws -> String {
            let body = try JSONSerialization.data(withJSONObject: [
                "raw": Base64URL.encode(Array(raw.utf8), padded: true), "labelIds": ["INBOX", "UNREAD"],
            ])
            let delivered = try await home.setup.control("POST", "deliver", json: String(decoding: body, as: UTF8.self))
            return try #require(delivered["id"] as? String, "the emulator refused: \(delivered)")
        }
    }
}
