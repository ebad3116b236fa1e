import Testing

@testable import IMAPProtocol

/// The exact bytes of each command, since servers reject anything else.
@Suite struct EncoderTests {
    func line(_ command: IMAPCommand, literalPlus: Bool = false) -> String {
        let encoded = IMAPEncodedCommand.encode(command, tag: "A1", literalPlus: literalPlus)
        #expect(encoded.parts.count == 1)
        return String(decoding: encoded.bytes, as: UTF8.self)
    }

    func parts(_ command: IMAPCommand, literalPlus: Bool) -> [String] {
        IMAPEncodedCommand.encode(command, tag: "A1", literalPlus: literalPlus).parts.map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    @Test func simpleCommands() {
        #expect(line(.capability) == "A1 CAPABILITY\r\n")
        #expect(line(.noop) == "A1 NOOP\r\n")
        #expect(line(.logout) == "A1 LOGOUT\r\n")
        #expect(line(.startTLS) == "A1 STARTTLS\r\n")
        #expect(line(.idle) == "A1 IDLE\r\n")
        #expect(line(.done) == "DONE\r\n")
        #expect(line(.expunge) == "A1 EXPUNGE\r\n")
        #expect(line(.enable(["QRESYNC", "CONDSTORE"])) == "A1 ENABLE QRESYNC CONDSTORE\r\n")
    }

    @Test func loginQuotesAndEscapes() {
        #expect(
            line(.login(user: "alice@example.org", password: "p\"w\\d x"))
                == "A1 LOGIN \"alice@example.org\" \"p\\\"w\\\\d x\"\r\n")
    }

    @Test func loginFallsBackToLiterals() {
        let command = IMAPCommand.login(user: "alice", password: "pässword")
        #expect(parts(command, literalPlus: false) == ["A1 LOGIN \"alice\" {9}\r\n", "pässword\r\n"])
        #expect(parts(command, literalPlus: true) == ["A1 LOGIN \"alice\" {9+}\r\npässword\r\n"])
        let both = IMAPCommand.login(user: "line\r\nbreak", password: "x\0y")
        #expect(parts(both, literalPlus: false) == ["A1 LOGIN {11}\r\n", "line\r\nbreak {3}\r\n", "x\0y\r\n"])
        let long = String(repeating: "a", count: 2000)
        #expect(
            parts(.login(user: "u", password: long), literalPlus: true) == ["A1 LOGIN \"u\" {2000+}\r\n\(long)\r\n"])
    }

    @Test func authenticateWithInitialResponse() {
        let plain = Array("\0alice\0secret".utf8)
        #expect(
            line(.authenticate(mechanism: "PLAIN", initialResponse: plain))
                == "A1 AUTHENTICATE PLAIN AGFsaWNlAHNlY3JldA==\r\n")
        #expect(line(.authenticate(mechanism: "EXTERNAL", initialResponse: [])) == "A1 AUTHENTICATE EXTERNAL =\r\n")
        #expect(line(.authenticate(mechanism: "XOAUTH2", initialResponse: nil)) == "A1 AUTHENTICATE XOAUTH2\r\n")
    }

    @Test func idSortsFields() {
        #expect(
            line(.id(["version": "1.0", "name": "chatmail"])) == "A1 ID (\"name\" \"chatmail\" \"version\" \"1.0\")\r\n"
        )
        #expect(line(.id(nil)) == "A1 ID NIL\r\n")
    }

    @Test func listAndStatus() {
        #expect(
            line(.list(reference: "", pattern: "*", returnSpecialUse: true))
                == "A1 LIST \"\" \"*\" RETURN (SPECIAL-USE)\r\n")
        #expect(line(.list(reference: "", pattern: "%", returnSpecialUse: false)) == "A1 LIST \"\" \"%\"\r\n")
        #expect(
            line(.status(mailbox: "日本語", items: ["UIDNEXT", "UIDVALIDITY", "HIGHESTMODSEQ"]))
                == "A1 STATUS \"&ZeVnLIqe-\" (UIDNEXT UIDVALIDITY HIGHESTMODSEQ)\r\n")
    }

    @Test func selectAndExamineParameters() {
        #expect(line(.select(mailbox: "INBOX", parameters: nil)) == "A1 SELECT \"INBOX\"\r\n")
        #expect(line(.select(mailbox: "INBOX", parameters: .condstore)) == "A1 SELECT \"INBOX\" (CONDSTORE)\r\n")
        #expect(
            line(
                .select(
                    mailbox: "x",
                    parameters: .qresync(uidValidity: 123, modSeq: 456, knownUIDs: IMAPUIDSet.from(uid: 1))))
                == "A1 SELECT \"x\" (QRESYNC (123 456 1:*))\r\n")
        #expect(
            line(.examine(mailbox: "Tom & Jerry", parameters: .qresync(uidValidity: 1, modSeq: 2, knownUIDs: nil)))
                == "A1 EXAMINE \"Tom &- Jerry\" (QRESYNC (1 2))\r\n")
    }

    @Test func uidCommands() {
        let all = IMAPUIDSet.from(uid: 1)
        #expect(
            line(.uidFetch(all, items: ["UID", "FLAGS"], changedSince: 5, vanished: true))
                == "A1 UID FETCH 1:* (UID FLAGS) (CHANGEDSINCE 5 VANISHED)\r\n")
        #expect(
            line(.uidFetch(IMAPUIDSet([3, 4, 5, 9]), items: ["BODY.PEEK[]"], changedSince: nil, vanished: false))
                == "A1 UID FETCH 3:5,9 (BODY.PEEK[])\r\n")
        #expect(line(.uidSearch("UID 1:*")) == "A1 UID SEARCH UID 1:*\r\n")
        #expect(
            line(.uidStore(IMAPUIDSet([7]), "+FLAGS.SILENT", ["\\Seen", "$Forwarded"]))
                == "A1 UID STORE 7 +FLAGS.SILENT (\\Seen $Forwarded)\r\n")
        #expect(
            line(.uidCopy(IMAPUIDSet([1, 2]), mailbox: "Archive/Übersicht"))
                == "A1 UID COPY 1:2 \"Archive/&ANw-bersicht\"\r\n")
        #expect(line(.uidMove(IMAPUIDSet([4]), mailbox: "[Gmail]/Trash")) == "A1 UID MOVE 4 \"[Gmail]/Trash\"\r\n")
        #expect(line(.uidExpunge(IMAPUIDSet([4, 6]))) == "A1 UID EXPUNGE 4,6\r\n")
        #expect(line(.create(mailbox: "a\"b")) == "A1 CREATE \"a\\\"b\"\r\n")
    }

    @Test func rawArgumentsCannotInjectACommand() {
        #expect(line(.uidSearch("ALL\r\nA2 LOGOUT")) == "A1 UID SEARCH ALL  A2 LOGOUT\r\n")
        #expect(line(.enable(["X\nY"])) == "A1 ENABLE X Y\r\n")
    }

    @Test func appendIsAlwaysALiteral() {
        let message = Array("Subject: hi\r\n\r\nbody\r\n".utf8)
        let command = IMAPCommand.append(
            mailbox: "Sent", flags: ["\\Seen"], internalDateMs: 837_596_665_000, message: message)
        #expect(
            parts(command, literalPlus: false) == [
                "A1 APPEND \"Sent\" (\\Seen) \"17-Jul-1996 09:44:25 +0000\" {21}\r\n",
                "Subject: hi\r\n\r\nbody\r\n\r\n",
            ])
        #expect(
            parts(command, literalPlus: true) == [
                "A1 APPEND \"Sent\" (\\Seen) \"17-Jul-1996 09:44:25 +0000\" {21+}\r\nSubject: hi\r\n\r\nbody\r\n\r\n"
            ])
        let bare = IMAPCommand.append(mailbox: "Drafts", flags: [], internalDateMs: -1500, message: [])
        #expect(parts(bare, literalPlus: true) == ["A1 APPEND \"Drafts\" \"31-Dec-1969 23:59:58 +0000\" {0+}\r\n\r\n"])
    }

    /// APPEND's date reads back as the same instant (to the second) through the FETCH parser.
    @Test func appendDateRoundTripsThroughTheParser() throws {
        var random = SplitMix64(state: 99)
        for _ in 0..<500 {
            let seconds = Int64(random.next(8_000_000_000)) - 2_000_000_000
            let encoded = InternalDateFormatter.format(epochMilliseconds: seconds * 1000)
            #expect(InternalDate.epochMilliseconds(Array(encoded.utf8)) == seconds * 1000, "\(encoded)")
        }
    }
}
