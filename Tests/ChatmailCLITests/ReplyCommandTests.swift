import Foundation
import Testing

extension ComposeEndToEnd {
    /// `chatmail reply` end to end: the real binary, the real emulator over HTTP, the real store.
    @Suite struct ReplyCommandTests {
        @Test(
            "reply -m: sent once to Pat, in Pat's thread, threaded under the latest message; local copy has Gmail's id and stays single after a sync"
        )
        func replySent() async throws {
            let home = try await ComposeHome()
            let reply = try await home.run(["reply", "pat", "-m", "Eight is perfect."])
            #expect(reply.status == 0, "\(reply.stderr)")
            #expect(reply.stdout == "Sent to pat@example.net (#1).\n")
            #expect(reply.stderr.isEmpty, "\(reply.stderr)")

            let sent = try await home.newSent()
            try #require(sent.count == 1, "\(sent.map(\.raw))")
            let message = sent[0]
            #expect(message.labels == ["SENT"])
            #expect(message.threadID == home.patThread)
            #expect(message.header("To") == "Pat Jones <pat@example.net>")
            #expect(message.header("Subject") == "Re: Dinner on Friday")
            #expect(message.header("In-Reply-To") == ComposeHome.patSecondID)
            #expect(message.header("References") == "\(ComposeHome.patFirstID) \(ComposeHome.patSecondID)")
            #expect(message.header("From")?.contains("me@example.org") == true)
            #expect(message.text == "Eight is perfect.\n", "\(message.raw)")

            for round in ["after the reply", "after a sync"] {
                let mine = try await home.local("pat", text: "Eight is perfect.")
                #expect(mine.count == 1, "\(round): \(mine)")
                #expect(mine.first?["gmailId"] as? String == message.id, "\(round)")
                #expect(mine.first?["threadId"] as? String == home.patThread, "\(round)")
                #expect(mine.first?["isFromMe"] as? Bool == true, "\(round)")
                #expect(mine.first?["outbox"] is NSNull, "\(round): \(mine)")
                #expect(try await home.transcript("pat").count == 3, "\(round)")
                if round == "after the reply" {
                    let sync = try await home.run(["sync"])
                    #expect(sync.status == 0, "\(sync.stderr)")
                }
            }
            #expect(try await home.newSent().count == 1)
            #expect(try await home.setup.pendingJSON().isEmpty)
            let done = try await home.setup.pendingJSON(all: true)
            #expect(done.count == 1 && done.first?["status"] as? String == "completed", "\(done)")
        }

        @Test(
            "reply in a group: to the latest sender first, then everyone else; in the group's thread and conversation")
        func groupReply() async throws {
            let home = try await ComposeHome()
            let thread = try await ComposeHome.deliver(
                """
                From: Quinn Lee <quinn@example.com>\r\nTo: Me <me@example.org>, Pat Jones <pat@example.net>\r\n\
                Subject: Picnic\r\nDate: Tue, 4 Mar 2025 11:00:00 +0000\r\nMessage-ID: <g1@quinn.example>\r\n\r\n\
                Picnic on Sunday?\r\n
                """, to: home.setup)
            #expect(try await home.run(["sync"]).status == 0)
            let patBefore = try await home.transcript("pat").count
            let reply = try await home.run(["reply", "quinn", "-m", "Count me in."])
            #expect(reply.status == 0, "\(reply.stderr)")
            #expect(reply.stdout == "Sent to quinn@example.com, pat@example.net (#1).\n")
            let sent = try await home.newSent()
            try #require(sent.count == 1)
            // Everyone in the conversation; nobody was only in Cc, so nobody is in Cc now.
            #expect(sent[0].header("To") == "Quinn Lee <quinn@example.com>, Pat Jones <pat@example.net>")
            #expect(sent[0].header("Cc") == nil)
            #expect(sent[0].header("Subject") == "Re: Picnic")
            #expect(sent[0].header("In-Reply-To") == "<g1@quinn.example>")
            #expect(sent[0].threadID == thread)
            let group = try await home.local("quinn", text: "Count me in.")
            #expect(group.count == 1 && group.first?["gmailId"] as? String == sent[0].id, "\(group)")
            #expect(try await home.transcript("pat").count == patBefore)
        }

        @Test("reply --quote: the answered message is quoted under an attribution line, the reply below it")
        func quoted() async throws {
            let home = try await ComposeHome()
            let reply = try await home.run(["reply", "pat", "--quote", "-m", "Eight works."])
            #expect(reply.status == 0 && reply.stdout == "Sent to pat@example.net (#1).\n", "\(reply.stderr)")
            let sent = try await home.newSent()
            try #require(sent.count == 1)
            #expect(
                sent[0].text == "On Tue, 4 Mar 2025 at 10:00, Pat Jones wrote:\n> At eight, say?\n\nEight works.\n",
                "\(sent[0].raw)")
            #expect(sent[0].header("In-Reply-To") == ComposeHome.patSecondID)
            #expect(try await home.transcript("pat").filter { $0["gmailId"] as? String == sent[0].id }.count == 1)
        }

        @Test(
            "the text from --file, --file -, piped standard input: exactly that text is sent, trailing blank lines trimmed"
        )
        func textSources() async throws {
            let home = try await ComposeHome()
            let file = home.setup.dir.appendingPathComponent("reply.txt")
            try Data("From a file.\nSecond line.\n\n\n".utf8).write(to: file)
            let fromFile = try await home.run(["reply", "pat", "--file", file.path])
            #expect(fromFile.status == 0 && fromFile.stdout.hasPrefix("Sent to pat@example.net"), "\(fromFile.stderr)")

            let dash = try await home.runWithInput(["reply", "pat", "--file", "-"], input: .bytes("From --file -.\n"))
            #expect(dash.result.status == 0 && dash.result.stdout.hasPrefix("Sent to"), "\(dash.result.stderr)")
            let piped = try await home.runWithInput(["reply", "pat"], input: .bytes("Piped in.\r\nWith CRLF.\r\n"))
            #expect(piped.result.status == 0 && piped.result.stdout.hasPrefix("Sent to"), "\(piped.result.stderr)")

            let texts = ["From a file.\nSecond line.", "From --file -.", "Piped in.\nWith CRLF."]
            for text in texts {
                #expect(try await home.local("pat", text: text).count == 1, "\(text)")
            }
            let bodies = try await home.newSent().map(\.text)
            #expect(bodies.count == 3)
            for text in texts {
                #expect(bodies.filter { $0 == text + "\n" }.count == 1, "\(text) in \(bodies)")
            }
            // A missing file queues nothing.
            let missing = try await home.run(["reply", "pat", "--file", file.path + ".none"])
            #expect(missing.status != 0 && missing.stderr.contains("cannot be read"), "\(missing.stderr)")
            #expect(try await home.newSent().count == 3)
            #expect(try await home.setup.pendingJSON(all: true).count == 3)
        }

        /// A shell script standing in for the user's editor.
        func editor(_ home: ComposeHome, _ name: String, _ script: String) throws -> String {
            let url = home.setup.dir.appendingPathComponent(name)
            try Data("#!/bin/sh\n\(script)\n".utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            return url.path
        }

        @Test(
            "$EDITOR on a terminal: the help comment is shown, # lines are dropped; an empty text or a failing editor exits 64 and queues nothing"
        )
        func editorText() async throws {
            let home = try await ComposeHome()
            let seen = home.setup.dir.appendingPathComponent("seen.txt").path
            // Keeps what chatmail wrote (the help comment) below its own text and a note of its own.
            let writes = try editor(
                home, "writes",
                #"cp "$1" '\#(seen)'; { printf 'Written in the editor.\n# a note to self\nSecond line.\n'; cat "$1"; } > "$1.new" && mv "$1.new" "$1""#
            )
            let edited = try await home.runWithInput(
                ["reply", "pat"], input: .terminal, environment: ["EDITOR": writes])
            #expect(edited.result.status == 0, "\(edited.result.stderr)")
            #expect(edited.result.stdout == "Sent to pat@example.net (#1).\n")
            let help = try String(contentsOfFile: seen, encoding: .utf8)
            #expect(help.contains("# Reply to Pat Jones."), "\(help)")
            let sent = try await home.newSent()
            try #require(sent.count == 1)
            #expect(sent[0].text == "Written in the editor.\nSecond line.\n", "\(sent[0].raw)")
            #expect(try await home.local("pat", text: "Written in the editor.\nSecond line.").count == 1)
            // $VISUAL wins over $EDITOR.
            let visual = try await home.runWithInput(
                ["reply", "pat"], input: .terminal,
                environment: [
                    "VISUAL": try editor(home, "visual", #"printf 'From VISUAL.\n' > "$1""#), "EDITOR": "false",
                ])
            #expect(visual.result.status == 0 && visual.result.stdout.hasPrefix("Sent to"), "\(visual.result.stderr)")

            let before = try await home.transcript("pat").count
            let refusals: [(String, String, String)] = [
                ("empties the file", #": > "$1""#, "empty"),
                ("keeps only the comment", "true", "empty"),
                ("writes blank lines", #"printf '\n   \n\t\n' > "$1""#, "empty"),
                ("exits 1", #"printf 'Never sent.\n' > "$1"; exit 1"#, "exited with status 1"),
            ]
            for (index, (what, script, reason)) in refusals.enumerated() {
                let path = try editor(home, "editor\(index)", script)
                let run = try await home.runWithInput(
                    ["reply", "pat"], input: .terminal, environment: ["EDITOR": path])
                #expect(run.result.status == 64, "an editor that \(what): \(run.result.status) \(run.result.stderr)")
                #expect(run.result.stdout.isEmpty, "\(what)")
                #expect(run.result.stderr.lowercased().contains(reason), "\(what): \(run.result.stderr)")
            }
            #expect(try await home.transcript("pat").count == before)
            #expect(try await home.setup.pendingJSON(all: true).count == 2)
            #expect(try await home.newSent().count == 2)
        }

        @Test("unknown person → 2, whitespace-only -m → 64, -m with --file → 64: nothing queued, nothing sent")
        func refusals() async throws {
            let home = try await ComposeHome()
            let before = try await home.transcript("pat")
            let unknown = try await home.run(["reply", "nobody-at-all", "-m", "Hello?"])
            #expect(unknown.status == 2, "\(unknown.stderr)")
            #expect(unknown.stdout.isEmpty)
            // No fuzzy matching: a typo of Pat's name is not Pat.
            #expect(try await home.run(["reply", "pta", "-m", "Hello?"]).status == 2)
            let blank = try await home.run(["reply", "pat", "-m", "  \n\t \n"])
            #expect(blank.status == 64, "\(blank.stderr)")
            #expect(blank.stdout.isEmpty)
            let both = try await home.run(["reply", "pat", "-m", "x", "--file", "/dev/null"])
            #expect(both.status == 64, "\(both.stderr)")
            let noPerson = try await home.run(["reply", "-m", "x"])
            #expect(noPerson.status == 64, "\(noPerson.stderr)")

            #expect(try await home.setup.pendingJSON(all: true).isEmpty)
            #expect(try await home.transcript("pat").count == before.count)
            #expect(try await home.newSent().isEmpty)
            let requests = try await home.setup.control("GET", "requests")["requests"] as? [[String: Any]] ?? []
            #expect(!requests.contains { $0["gmailMethod"] as? String == "messages.send" })
        }

        @Test("reply --json: the five keys; sent carries Gmail's ids, queued has them null with the reason")
        func jsonShapes() async throws {
            let home = try await ComposeHome()
            let sent = try await home.run(["reply", "pat", "-m", "As JSON.", "--json"])
            #expect(sent.status == 0, "\(sent.stderr)")
            let json = try #require(try sent.json() as? [String: Any], "\(sent.stdout)")
            #expect(Set(json.keys) == ["actionId", "status", "gmailId", "threadId", "lastError"])
            #expect(json["actionId"] as? Int == 1 && json["status"] as? String == "sent")
            let server = try await home.newSent()
            try #require(server.count == 1)
            #expect(json["gmailId"] as? String == server[0].id)
            #expect(json["threadId"] as? String == home.patThread)
            #expect(json["lastError"] is NSNull)

            let queued = try await home.run(
                ["reply", "pat", "-m", "As JSON, offline.", "--json"],
                environment: ["CHATMAIL_GMAIL_API_URL": "http://127.0.0.1:1"])
            #expect(queued.status == 0, "\(queued.stderr)")
            let offline = try #require(try queued.json() as? [String: Any], "\(queued.stdout)")
            #expect(Set(offline.keys) == ["actionId", "status", "gmailId", "threadId", "lastError"])
            #expect(offline["actionId"] as? Int == 2 && offline["status"] as? String == "queued")
            #expect(offline["gmailId"] is NSNull && offline["threadId"] is NSNull)
            #expect((offline["lastError"] as? String)?.contains("Could not reach Gmail") == true, "\(offline)")
            #expect(try await home.newSent().count == 1)
        }
    }
}
