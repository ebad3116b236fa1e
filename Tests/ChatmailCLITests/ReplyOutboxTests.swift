import Foundation
import Testing

extension ComposeEndToEnd {
    /// A reply on its way through the outbox when Gmail cannot be reached, when chatmail is killed mid-send,
    /// when Gmail stores the message but its answer is lost, and when Gmail refuses it: always exactly one
    /// copy on Gmail and one message in the conversation in the end, or none when the user drops it.
    @Suite struct ReplyOutboxTests {
        /// Asserts that Gmail holds exactly one copy of `text`, in Pat's thread, and that the conversation
        /// shows it once, under Gmail's id, out of the outbox.
        func expectSentOnce(_ home: ComposeHome, _ text: String, _ when: String) async throws {
            let copies = try await home.newSent().filter { $0.text == text + "\n" }
            #expect(copies.count == 1, "\(when): \(copies.count) copies on Gmail")
            #expect(copies.first?.threadID == home.patThread, "\(when)")
            let local = try await home.local("pat", text: text)
            #expect(local.count == 1, "\(when): \(local)")
            #expect(local.first?["gmailId"] as? String == copies.first?.id, "\(when): \(local)")
            #expect(local.first?["outbox"] is NSNull, "\(when): \(local)")
        }

        @Test(
            "offline: exit 0, queued with the network's reason, the bubble in the outbox; `pending run`, or a sync, sends it exactly once"
        )
        func offlineThenSent() async throws {
            let home = try await ComposeHome()
            for (number, sender) in [(1, ["pending", "run"]), (2, ["sync"])] {
                let text = "Sent by `\(sender.joined(separator: " "))`."
                let reply = try await home.run(["reply", "pat", "-m", text], environment: ComposeHome.offline)
                #expect(reply.status == 0, "\(reply.stderr)")
                #expect(
                    reply.stdout
                        == "Queued for pat@example.net (#\(number)); not sent yet: Could not reach Gmail (network error -1004). "
                        + "Check the network connection and try again. It is sent on the next `chatmail sync` or `chatmail pending run`.\n",
                    "\(reply.stdout)")
                let bubble = try #require(try await home.local("pat", text: text).first)
                #expect(bubble["gmailId"] as? String == "out-\(number)")
                #expect(bubble["isFromMe"] as? Bool == true && bubble["threadId"] as? String == home.patThread)
                let outbox = try #require(bubble["outbox"] as? [String: Any], "\(bubble)")
                #expect(Set(outbox.keys) == ["actionId", "status", "lastError"])
                #expect(outbox["actionId"] as? Int == number)
                // Offline is not a failure of the message: it waits, queued, with the reason beside it.
                #expect(outbox["status"] as? String == "queued", "\(outbox)")
                #expect((outbox["lastError"] as? String)?.contains("Could not reach Gmail") == true, "\(outbox)")
                #expect(try await home.newSent().isEmpty == (number == 1))
                // The bubble has a header of its own, marked, even right after a sent message of mine.
                let shown = try await home.run(["show", "pat", "--no-pager"])
                let rows = shown.stdout.components(separatedBy: "\n")
                let row = try #require(rows.firstIndex { $0.hasSuffix("│ \(text) │") }, "\(shown.stdout)")
                #expect(rows[row - 2].hasSuffix("You · 12:00 · queued"), "\(shown.stdout)")

                let run = try await home.run(sender, environment: ComposeHome.later(10 * Int64(number)))
                #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
                if number == 1 { #expect(run.stdout.hasPrefix("Actions: sent 1"), "\(run.stdout)") }
                try await expectSentOnce(home, text, "after `\(sender.joined(separator: " "))`")
            }
            let again = try await home.run(["sync"], environment: ComposeHome.later(30))
            #expect(again.status == 0, "\(again.stderr)")
            try await expectSentOnce(home, "Sent by `pending run`.", "after another sync")
            try await expectSentOnce(home, "Sent by `sync`.", "after another sync")
            #expect(try await home.newSent().count == 2)
            #expect(try await home.setup.pendingJSON().isEmpty)
        }

        @Test(
            "kill -9 before the send request is written, or after Gmail accepted it: the bubble stays; the next sync or `pending run` leaves exactly one copy",
            arguments: ["sendMarked", "sendAnswered"], [["sync"], ["pending", "run"]])
        func killedMidSend(at point: String, then recovery: [String]) async throws {
            let home = try await ComposeHome()
            let text = "Killed at \(point)."
            let killed = try await home.runWithInput(
                ["reply", "pat", "-m", text], input: .bytes(""), environment: ["CHATMAIL_TEST_CRASH_AT": point])
            #expect(killed.signal == SIGKILL, "exit \(killed.result.status): \(killed.result.stderr)")
            #expect(killed.result.stderr.contains("chatmail: crash point \(point) reached"), "\(killed.result.stderr)")
            #expect(killed.result.stdout.isEmpty)

            let bubble = try await home.local("pat", text: text)
            #expect(bubble.count == 1 && bubble.first?["gmailId"] as? String == "out-1", "\(bubble)")
            #expect(bubble.first?["outbox"] is [String: Any], "\(bubble)")
            let shown = try await home.run(["show", "pat", "--no-pager"])
            #expect(shown.status == 0 && shown.stdout.contains(text), "\(shown.stdout)")
            let onGmail = try await home.newSent().filter { $0.text == text + "\n" }.count
            #expect(onGmail == (point == "sendMarked" ? 0 : 1))

            let recovered = try await home.run(recovery, environment: ComposeHome.later(10))
            #expect(recovered.status == 0, "\(recovered.stdout) \(recovered.stderr)")
            try await expectSentOnce(home, text, "after `\(recovery.joined(separator: " "))`")
            let again = try await home.run(["sync"], environment: ComposeHome.later(20))
            #expect(again.status == 0, "\(again.stderr)")
            try await expectSentOnce(home, text, "after a second sync")
            #expect(try await home.newSent().count == 1)
            #expect(try await home.setup.pendingJSON().isEmpty)
            let done = try await home.setup.pendingJSON(all: true)
            #expect(done.count == 1 && done.first?["status"] as? String == "completed", "\(done)")
        }

        @Test(
            "Gmail stores the message, then the connection drops or a 500 answers: one copy on Gmail, never sent again, one message locally",
            arguments: ["commitThenDrop", "commitThenError500"])
        func answerLost(fault: String) async throws {
            let home = try await ComposeHome()
            _ = try await home.setup.control(
                "PUT", "faults", json: #"{"rules": [{"method": "messages.send", "kind": "\#(fault)", "count": 1}]}"#)
            let text = "Answer lost by \(fault)."
            let reply = try await home.run(["reply", "pat", "-m", text])
            #expect(reply.status == 0, "\(reply.stderr)")
            let sentNow = reply.stdout == "Sent to pat@example.net (#1).\n"
            #expect(sentNow || reply.stdout.hasPrefix("Queued for pat@example.net (#1)"), "\(reply.stdout)")
            #expect(try await home.newSent().filter { $0.text == text + "\n" }.count == 1)
            if sentNow {
                try await expectSentOnce(home, text, "after the reply")
            }
            let sync = try await home.run(["sync"], environment: ComposeHome.later(10))
            #expect(sync.status == 0, "\(sync.stdout) \(sync.stderr)")
            try await expectSentOnce(home, text, "after a sync")
            let requests = try await home.setup.control("GET", "requests")["requests"] as? [[String: Any]] ?? []
            #expect(requests.filter { $0["gmailMethod"] as? String == "messages.send" }.count == 1)
            #expect(try await home.setup.pendingJSON().isEmpty)
        }

        @Test(
            "a revoked login: queued, exit 3 asking for a new login (--json prints one document); after `login`, `pending run` sends it once"
        )
        func revokedLogin() async throws {
            let home = try await ComposeHome()
            let token = try String(contentsOf: home.setup.dir.appendingPathComponent("token"), encoding: .utf8)
            _ = try await home.setup.emulator.post("revoke", form: "token=\(token)")
            // Every access token too, chatmail's cached one with them; the test reads Gmail with a new one.
            _ = try await home.setup.control("POST", "expire-tokens")
            home.bearer = try #require(
                try await home.setup.emulator.post("_emulator/issue-tokens")["access_token"] as? String)

            let plain = try await home.run(["reply", "pat", "-m", "Sent after a new login."])
            #expect(plain.status == 3, "\(plain.stderr)")
            #expect(plain.stdout.hasPrefix("Queued for pat@example.net (#1); not sent yet: "), "\(plain.stdout)")
            #expect(plain.stderr.contains("chatmail login"), "\(plain.stderr)")
            let json = try await home.run(["reply", "pat", "-m", "Also sent after it.", "--json"])
            #expect(json.status == 3, "\(json.stderr)")
            // Exactly one JSON document: the result, not the result followed by an error document.
            let result = try #require(try json.json() as? [String: Any], "\(json.stdout)")
            #expect(result["status"] as? String == "queued" && result["actionId"] as? Int == 2, "\(result)")
            #expect(result["gmailId"] is NSNull)
            #expect(json.stderr.contains("chatmail login"), "\(json.stderr)")
            let statuses = try await home.transcript("pat").compactMap { ($0["outbox"] as? [String: Any])?["status"] }
            #expect(statuses as? [String] == ["queued", "queued"], "\(statuses)")

            let fresh = try #require(
                try await home.setup.emulator.post("_emulator/issue-tokens")["refresh_token"] as? String)
            let file = home.setup.dir.appendingPathComponent("fresh-token")
            try Data(fresh.utf8).write(to: file)
            #expect(try await home.run(["login", "--refresh-token-file", file.path]).status == 0)
            let run = try await home.run(["pending", "run"])
            #expect(run.stdout.hasPrefix("Actions: sent 2"), "\(run.stdout) \(run.stderr)")
            try await expectSentOnce(home, "Sent after a new login.", "after the new login")
            try await expectSentOnce(home, "Also sent after it.", "after the new login")
        }

        @Test(
            "a permanent 400: exit 1, abandoned with Gmail's reason; dismiss drops the bubble; retry and `pending run` send it once"
        )
        func refusedByGmail() async throws {
            let home = try await ComposeHome()
            try await home.setup.fault("messages.send", "400")
            let refused = try await home.run(["reply", "pat", "-m", "Refused, then dismissed."])
            #expect(refused.status == 1, "\(refused.stderr)")
            #expect(refused.stdout.hasPrefix("Not sent to pat@example.net: "), "\(refused.stdout)")
            #expect(
                refused.stdout.hasSuffix("(#1, abandoned; `chatmail pending retry 1` or `dismiss 1`).\n"),
                "\(refused.stdout)")
            #expect(refused.stderr.contains("Gmail refused the message"), "\(refused.stderr)")
            let listed = try #require(try await home.setup.pendingJSON().first)
            #expect(listed["kind"] as? String == "send" && listed["status"] as? String == "abandoned", "\(listed)")
            #expect(
                (listed["lastError"] as? String)?.contains("Invalid argument (injected fault)") == true, "\(listed)")
            let bubble = try #require(try await home.local("pat", text: "Refused, then dismissed.").first)
            #expect((bubble["outbox"] as? [String: Any])?["status"] as? String == "abandoned", "\(bubble)")

            let dismiss = try await home.run(["pending", "dismiss", "1"])
            #expect(dismiss.status == 0, "\(dismiss.stderr)")
            #expect(try await home.local("pat", text: "Refused, then dismissed.").isEmpty)
            #expect(try await home.setup.pendingJSON().isEmpty)
            #expect(try await home.transcript("pat").count == 2)

            let json = try await home.run(["reply", "pat", "-m", "Refused, then retried.", "--json"])
            #expect(json.status == 1, "\(json.stderr)")
            let result = try #require(try json.json() as? [String: Any], "\(json.stdout)")
            #expect(result["status"] as? String == "abandoned" && result["actionId"] as? Int == 2)
            #expect(result["gmailId"] is NSNull && result["threadId"] is NSNull)
            #expect(
                (result["lastError"] as? String)?.contains("Invalid argument (injected fault)") == true, "\(result)")

            try await home.setup.clearFaults()
            let retry = try await home.run(["pending", "retry", "2"])
            #expect(retry.status == 0, "\(retry.stderr)")
            #expect(try await home.setup.pendingJSON().first?["status"] as? String == "pending")
            let run = try await home.run(["pending", "run"], environment: ComposeHome.later(10))
            #expect(run.stdout.hasPrefix("Actions: sent 1"), "\(run.stdout) \(run.stderr)")
            try await expectSentOnce(home, "Refused, then retried.", "after retry and run")
            #expect(try await home.newSent().count == 1)
            #expect(try await home.local("pat", text: "Refused, then dismissed.").isEmpty)
        }
    }
}
