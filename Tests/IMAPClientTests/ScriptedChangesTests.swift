import Foundation
import IMAPClient
import IMAPProtocol
import Testing

/// The write commands and IDLE against a scripted server: the exact bytes of commands Dovecot cannot
/// take (Gmail's labels), and answers Dovecot does not give (COPYUID in MOVE's untagged OK, Gmail's
/// unordered COPYUID, LITERAL-, IDLE keep-alives).
@Suite("IMAPConnection's write commands and IDLE against a scripted server")
struct ScriptedChangesTests {
    typealias Scripted = ScriptedServerTests

    /// Reads the next command and fails the script unless it is `expected`; returns its tag.
    static func expect(_ peer: ScriptedIMAPPeer, _ expected: String) throws -> String {
        let (tag, command) = try peer.readCommand()
        guard command == expected else { throw ScriptError.unexpected("expected \(expected), got \(command)") }
        return tag
    }

    @Test("Gmail labels: system labels bare, user labels quoted and in modified UTF-7; flags as given")
    func gmailLabelsAndFlags() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Scripted.logIn(peer)
            var tag = try Self.expect(
                peer, #"UID STORE 1:3,7 +X-GM-LABELS.SILENT (\Inbox "Projekt &ANw-" "a\"b\\c" \Important)"#)
            try peer.send("\(tag) OK Success\r\n")
            tag = try Self.expect(peer, #"UID STORE 9 -X-GM-LABELS.SILENT (\Trash "&-Co")"#)
            try peer.send("\(tag) OK Success\r\n")
            tag = try Self.expect(peer, #"UID STORE 4 -FLAGS.SILENT (\Seen $Junk)"#)
            try peer.send("\(tag) OK Success\r\n")
            try Scripted.serveLogout(peer)
        }
        let connection = try await Scripted().connect(server)
        try await connection.uidStoreGmailLabels(
            IMAPUIDSet([1, 2, 3, 7]), .add, ["\\Inbox", "Projekt Ü", "a\"b\\c", "\\Important"])
        try await connection.uidStoreGmailLabels(IMAPUIDSet([9]), .remove, ["\\Trash", "&Co"])
        // Nothing to change sends nothing: the script's next command must be the flags.
        try await connection.uidStoreGmailLabels(IMAPUIDSet([9]), .add, [])
        try await connection.uidStoreFlags(IMAPUIDSet([4]), .remove, ["\\Seen", "$Junk"])
        await connection.logout()
        try await server.finish()
    }

    @Test("COPYUID from MOVE's untagged OK or its completion, Gmail's unordered one, and a broken one")
    func copyUIDs() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Scripted.logIn(peer, capabilities: "IMAP4rev1 UIDPLUS MOVE")
            var tag = try Self.expect(peer, #"UID MOVE 2,4 "Trash""#)
            try peer.send(
                "* OK [COPYUID 99 4,2 11,10] Moved UIDs.\r\n* 1 EXPUNGE\r\n* 1 EXPUNGE\r\n\(tag) OK Moved\r\n")
            tag = try Self.expect(peer, #"UID MOVE 7 "Trash""#)
            try peer.send("* 3 EXPUNGE\r\n\(tag) OK [COPYUID 99 7 12] Done\r\n")
            tag = try Self.expect(peer, #"UID COPY 5:6,8 "[Gmail]/All Mail""#)
            try peer.send("\(tag) OK [COPYUID 658824223 5:6,8 22,21,20] (Success)\r\n")
            tag = try Self.expect(peer, #"UID COPY 9 "Trash""#)
            try peer.send("\(tag) OK [COPYUID 99 9 30,31] Two for one\r\n")
            tag = try Self.expect(peer, #"UID MOVE 10 "Trash""#)
            try peer.send("\(tag) OK Moved without a word\r\n")
            try Scripted.serveLogout(peer)
        }
        let connection = try await Scripted().connect(server)
        #expect(
            try await connection.uidMove(IMAPUIDSet([2, 4]), to: "Trash")
                == IMAPCopiedUIDs(uidValidity: 99, mapping: [4: 11, 2: 10]))
        #expect(
            try await connection.uidMove(IMAPUIDSet([7]), to: "Trash")
                == IMAPCopiedUIDs(uidValidity: 99, mapping: [7: 12]))
        #expect(
            try await connection.uidCopy(IMAPUIDSet([5, 6, 8]), to: "[Gmail]/All Mail")
                == IMAPCopiedUIDs(uidValidity: 658_824_223, mapping: [5: 22, 6: 21, 8: 20]))
        #expect(try await connection.uidCopy(IMAPUIDSet([9]), to: "Trash") == nil)
        #expect(try await connection.uidMove(IMAPUIDSet([10]), to: "Trash") == nil)
        await connection.logout()
        try await server.finish()
    }

    @Test("APPEND with LITERAL-: small messages inline, large ones after the +; a NO instead of the + is no hang")
    func appendLiterals() async throws {
        let small = Array("Subject: small\r\n\r\nHi\r\n".utf8)
        let large = Array(repeating: UInt8(ascii: "x"), count: 5000) + Array("\r\n".utf8)
        let server = try ScriptedIMAPServer { peer in
            try Scripted.logIn(peer, capabilities: "IMAP4rev1 UIDPLUS LITERAL-")
            var tag = try Self.expect(peer, #"APPEND "Drafts" (\Seen) "03-Jun-2024 10:00:00 +0000" {\#(small.count)+}"#)
            guard try peer.readBytes(small.count) == small, try peer.readLine().isEmpty else {
                throw ScriptError.unexpected("the small message is not what was sent")
            }
            try peer.send("\(tag) OK [APPENDUID 5 9] Append completed.\r\n")
            tag = try Self.expect(peer, #"APPEND "Drafts" {\#(large.count)}"#)
            try peer.send("+ OK\r\n")
            guard try peer.readBytes(large.count) == large, try peer.readLine().isEmpty else {
                throw ScriptError.unexpected("the large message is not what was sent")
            }
            try peer.send("\(tag) OK [APPENDUID 5 10] Append completed.\r\n")
            tag = try Self.expect(peer, #"APPEND "Nope" {\#(large.count)}"#)
            try peer.send("\(tag) NO [TRYCREATE] Mailbox doesn't exist: Nope\r\n")
            tag = try Self.expect(peer, "NOOP")
            try peer.send("\(tag) OK NOOP completed.\r\n")
            try Scripted.serveLogout(peer)
        }
        let connection = try await Scripted().connect(server)
        #expect(
            try await connection.append(small, to: "Drafts", flags: ["\\Seen"], internalDateMs: 1_717_408_800_000)
                == IMAPAppendedUID(uidValidity: 5, uid: 9))
        #expect(try await connection.append(large, to: "Drafts", flags: []) == IMAPAppendedUID(uidValidity: 5, uid: 10))
        await #expect {
            try await connection.append(large, to: "Nope", flags: [])
        } throws: { error in
            guard case .commandFailed(command: "APPEND", status: "NO", _) = error as? IMAPClientError else {
                return false
            }
            return true
        }
        try await connection.noop()
        await connection.logout()
        try await server.finish()
    }

    @Test("IDLE: a refusal throws; events arrive, keep-alives do not; a command waits until DONE")
    func idle() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Scripted.logIn(peer, capabilities: "IMAP4rev1 IDLE")
            var tag = try Self.expect(peer, "IDLE")
            try peer.send("\(tag) NO Not now\r\n")
            tag = try Self.expect(peer, "IDLE")
            try peer.send("+ idling\r\n")
            try peer.send(
                "* OK Still here\r\n+ still\r\n* 3 EXISTS\r\n* 1 RECENT\r\n* 2 FETCH (FLAGS (\\Seen))\r\n* 1 EXPUNGE\r\n"
            )
            let done = try peer.readLine()
            guard done == "DONE" else { throw ScriptError.unexpected("expected DONE, got \(done)") }
            try peer.send("\(tag) OK Idle completed.\r\n")
            tag = try Self.expect(peer, "NOOP")
            try peer.send("\(tag) OK NOOP completed.\r\n")
            try Scripted.serveLogout(peer)
        }
        let connection = try await Scripted().connect(server)
        await #expect(throws: IMAPClientError.commandFailed(command: "IDLE", status: "NO", serverText: "Not now")) {
            try await connection.idle()
        }
        let session = try await connection.idle()
        // Submitted before stop(): it must wait for the IDLE to end, or the server would read it as DONE.
        let noop = Task.immediate { try await connection.noop() }
        try await session.stop()
        var events: [IMAPIdleEvent] = []
        for await event in session.events { events.append(event) }
        #expect(events == [.exists(3), .other, .fetch(2), .expunge(1)])
        try await noop.value
        await connection.logout()
        try await server.finish()
    }

    @Test("CREATE: a NO that says the mailbox exists is success, one that says something else is not")
    func createAnswers() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Scripted.logIn(peer, capabilities: "IMAP4rev1")
            var tag = try Self.expect(peer, #"CREATE "Archive""#)
            try peer.send("\(tag) NO Mailbox exists.\r\n")
            tag = try Self.expect(peer, #"CREATE "Archive""#)
            try peer.send("\(tag) NO [ALREADYEXISTS] Duplicate folder name Archive (Failure)\r\n")
            tag = try Self.expect(peer, #"CREATE "Lost/Child""#)
            try peer.send("\(tag) NO [NONEXISTENT] Parent mailbox doesn't exist\r\n")
            try Scripted.serveLogout(peer)
        }
        let connection = try await Scripted().connect(server)
        try await connection.create("Archive")
        try await connection.create("Archive")
        await #expect(
            throws: IMAPClientError.commandFailed(
                command: "CREATE", status: "NO", serverText: "Parent mailbox doesn't exist")
        ) {
            try await connection.create("Lost/Child")
        }
        await connection.logout()
        try await server.finish()
    }

    @Test("DONE brings the time-out back: a server that never completes the IDLE times it out", .timeLimit(.minutes(1)))
    func unansweredDone() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Scripted.logIn(peer, capabilities: "IMAP4rev1 IDLE")
            _ = try Self.expect(peer, "IDLE")
            try peer.send("+ idling\r\n")
            let done = try peer.readLine()
            guard done == "DONE" else { throw ScriptError.unexpected("expected DONE, got \(done)") }
            peer.waitForClose()
        }
        let connection = try await Scripted().connect(server, command: .seconds(1))
        let session = try await connection.idle()
        await #expect(throws: IMAPClientError.timedOut(command: "IDLE", seconds: 1)) { try await session.stop() }
        // The failure ended the events too: this loop ends.
        for await _ in session.events {}
        try await server.finish()
    }

    @Test("Without the capabilities nothing is sent; unsolicited responses between commands are dropped")
    func missingCapabilitiesAndUnsolicitedResponses() async throws {
        let server = try ScriptedIMAPServer { peer in
            try Scripted.logIn(peer, capabilities: "IMAP4rev1")
            try peer.send("* 4 EXISTS\r\n* 2 FETCH (FLAGS (\\Seen))\r\n* OK [ALERT] Maintenance tonight\r\n")
            let tag = try Self.expect(peer, "NOOP")
            try peer.send("\(tag) OK NOOP completed.\r\n")
            try Scripted.serveLogout(peer)
        }
        let connection = try await Scripted().connect(server)
        await #expect(throws: IMAPClientError.missingCapability("IDLE")) { try await connection.idle() }
        await #expect(throws: IMAPClientError.missingCapability("MOVE")) {
            try await connection.uidMove(IMAPUIDSet([1]), to: "Trash")
        }
        await #expect(throws: IMAPClientError.missingCapability("UIDPLUS")) {
            try await connection.uidExpunge(IMAPUIDSet([1]))
        }
        await #expect(throws: IMAPClientError.missingCapability("X-GM-EXT-1")) {
            try await connection.uidStoreGmailLabels(IMAPUIDSet([1]), .add, ["\\Inbox"])
        }
        try await connection.noop()
        await connection.logout()
        try await server.finish()
    }
}
