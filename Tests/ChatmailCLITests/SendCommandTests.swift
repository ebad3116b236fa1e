import Foundation
import Testing

extension ComposeEndToEnd {
    /// `chatmail send` end to end: the real binary, the real emulator over HTTP, the real store.
    @Suite struct SendCommandTests {
        /// The conversations whose participants are exactly `addresses`.
        func conversations(_ home: ComposeHome, with addresses: Set<String>) async throws -> [[String: Any]] {
            let result = try await home.run(["conversations", "--json", "--all"])
            let list = try #require(try result.json() as? [[String: Any]], "\(result.stderr)")
            return list.filter { conversation in
                let people = conversation["participants"] as? [[String: Any]] ?? []
                return Set(people.compactMap { ($0["address"] as? String)?.lowercased() }) == addresses
            }
        }

        @Test(
            "send to two new people: a new conversation of exactly them; a non-ASCII subject and body reach Gmail and come back intact"
        )
        func newConversation() async throws {
            let home = try await ComposeHome()
            let people: Set = ["quinn@example.com", "rae@example.org"]
            #expect(try await conversations(home, with: people).isEmpty)
            let subject = "Grüße 👋 aus 日本"
            let text = "日本語のテキスト。\nZweite Zeile: Grüße 👋 — café"
            let send = try await home.run(
                ["send", "quinn@example.com", "Rae Smith <rae@example.org>", "--subject", subject, "-m", text])
            #expect(send.status == 0, "\(send.stderr)")
            #expect(send.stdout == "Sent to quinn@example.com, rae@example.org (#1).\n")

            let sent = try await home.newSent()
            try #require(sent.count == 1, "\(sent.map(\.raw))")
            let message = sent[0]
            #expect(message.labels == ["SENT"])
            #expect(message.header("In-Reply-To") == nil && message.header("References") == nil)
            let to = try #require(message.header("To"))
            #expect(to.contains("quinn@example.com") && to.contains("Rae Smith <rae@example.org>"), "\(to)")
            // Headers stay ASCII on the wire (encoded words); the body decodes to exactly the text.
            let head = message.raw.components(separatedBy: "\r\n\r\n")[0]
            let ascii = head.unicodeScalars.allSatisfy { $0.isASCII }
            #expect(ascii, "\(message.raw)")
            #expect(message.header("Subject") != subject)
            #expect(message.text == text + "\n", "\(message.raw)")

            for round in ["after the send", "after a sync"] {
                let found = try await conversations(home, with: people)
                #expect(found.count == 1, "\(round): \(found)")
                let id = try #require(found.first?["id"] as? Int, "\(round)")
                let shown = try await home.run(["show", "id:\(id)", "--json"])
                let messages = try #require(
                    (try shown.json() as? [String: Any])?["messages"] as? [[String: Any]], "\(shown.stderr)")
                #expect(messages.count == 1, "\(round): \(messages)")
                #expect(messages.first?["gmailId"] as? String == message.id, "\(round)")
                #expect(messages.first?["subject"] as? String == subject, "\(round): \(messages)")
                #expect(messages.first?["text"] as? String == text, "\(round): \(messages)")
                #expect(messages.first?["outbox"] is NSNull, "\(round)")
                if round == "after the send" {
                    let sync = try await home.run(["sync"])
                    #expect(sync.status == 0, "\(sync.stderr)")
                }
            }
            #expect(try await home.newSent().count == 1)
        }

        @Test("send to someone I already talk with lands in that conversation, in a thread of its own")
        func existingPerson() async throws {
            let home = try await ComposeHome()
            let before = try await home.transcript("pat").count
            let send = try await home.run([
                "send", "PAT@example.net", "--subject", "Another thing", "-m", "Also: bring wine.",
            ])
            #expect(
                send.status == 0 && send.stdout == "Sent to PAT@example.net (#1).\n", "\(send.stdout) \(send.stderr)")
            let sent = try await home.newSent()
            try #require(sent.count == 1)
            #expect(sent[0].threadID != home.patThread)
            #expect(sent[0].header("Subject") == "Another thing")
            let mine = try await home.local("pat", text: "Also: bring wine.")
            #expect(mine.count == 1 && mine.first?["gmailId"] as? String == sent[0].id, "\(mine)")
            #expect(try await home.transcript("pat").count == before + 1)
            #expect(try await conversations(home, with: ["pat@example.net"]).count == 1)
        }

        @Test("an address that is not one mail address, or none at all, exits 64 and queues nothing")
        func invalidAddresses() async throws {
            let home = try await ComposeHome()
            let conversationsBefore = try await home.run(["conversations", "--json", "--all"]).stdout
            for argument in ["not-an-address", "", "a@example.com, b@example.com", "Ann <ann@example.com>, bob@x.org"] {
                let send = try await home.run(["send", argument, "-m", "Hello"])
                #expect(send.status == 64, "\(argument): \(send.status) \(send.stderr)")
                #expect(send.stdout.isEmpty, "\(argument)")
            }
            let mixed = try await home.run(["send", "ok@example.com", "not-an-address", "-m", "Hello"])
            #expect(mixed.status == 64 && mixed.stderr.contains("not-an-address"), "\(mixed.stderr)")
            #expect(try await home.run(["send", "-m", "Hello"]).status == 64)
            #expect(try await home.run(["send", "ok@example.com", "-m", " \n "]).status == 64)
            #expect(try await home.setup.pendingJSON(all: true).isEmpty)
            #expect(try await home.newSent().isEmpty)
            #expect(try await home.run(["conversations", "--json", "--all"]).stdout == conversationsBefore)
        }

        @Test(
            "send --json: the five keys; sent carries Gmail's ids; queued offline has them null; the queued one is sent later"
        )
        func jsonShapes() async throws {
            let home = try await ComposeHome()
            let sent = try await home.run([
                "send", "quinn@example.com", "--subject", "JSON", "-m", "As JSON.", "--json",
            ])
            #expect(sent.status == 0, "\(sent.stderr)")
            let json = try #require(try sent.json() as? [String: Any], "\(sent.stdout)")
            #expect(Set(json.keys) == ["actionId", "status", "gmailId", "threadId", "lastError"])
            #expect(json["actionId"] as? Int == 1 && json["status"] as? String == "sent")
            let server = try await home.newSent()
            try #require(server.count == 1)
            #expect(json["gmailId"] as? String == server[0].id)
            #expect(json["threadId"] as? String == server[0].threadID)
            #expect(json["lastError"] is NSNull)

            let queued = try await home.run(
                ["send", "quinn@example.com", "--subject", "JSON offline", "-m", "As JSON, offline.", "--json"],
                environment: ComposeHome.offline)
            #expect(queued.status == 0, "\(queued.stderr)")
            let offline = try #require(try queued.json() as? [String: Any], "\(queued.stdout)")
            #expect(Set(offline.keys) == ["actionId", "status", "gmailId", "threadId", "lastError"])
            #expect(offline["actionId"] as? Int == 2 && offline["status"] as? String == "queued")
            #expect(offline["gmailId"] is NSNull && offline["threadId"] is NSNull)
            #expect((offline["lastError"] as? String)?.contains("Could not reach Gmail") == true, "\(offline)")
            let bubble = try #require(try await home.local("quinn@example.com", text: "As JSON, offline.").first)
            #expect((bubble["outbox"] as? [String: Any])?["actionId"] as? Int == 2, "\(bubble)")

            let run = try await home.run(["pending", "run"], environment: ComposeHome.later(10))
            #expect(run.stdout.hasPrefix("Actions: sent 1"), "\(run.stdout) \(run.stderr)")
            let all = try await home.newSent()
            #expect(all.count == 2 && all.filter { $0.header("Subject") == "JSON offline" }.count == 1)
            let local = try await home.local("quinn@example.com", text: "As JSON, offline.")
            #expect(local.count == 1 && local.first?["outbox"] is NSNull, "\(local)")
        }
    }
}
