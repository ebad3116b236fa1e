import Testing

@testable import IMAPProtocol

/// The typed responses the connection and the sync engine read, from lines as real servers send them.
@Suite struct ResponseParserTests {
    func parse(_ line: String) throws(IMAPProtocolError) -> IMAPResponse {
        try IMAPResponseParser.parse(Array(line.utf8))
    }

    func untagged(_ line: String) throws -> IMAPUntaggedResponse {
        guard case .untagged(let response) = try parse(line) else {
            Issue.record("not untagged: \(line)")
            return .other("")
        }
        return response
    }

    func fetch(_ frame: [UInt8]) throws -> (UInt32, IMAPFetchAttributes) {
        guard case .untagged(.fetch(let sequence, let attributes)) = try IMAPResponseParser.parse(frame) else {
            Issue.record("not a FETCH")
            return (0, IMAPFetchAttributes())
        }
        return (sequence, attributes)
    }

    @Test func greetingAndCapabilities() throws {
        let greeting = try untagged(String(decoding: Transcripts.dovecot[0], as: UTF8.self))
        guard case .condition(.ok, .capability(let codeCapabilities)?, let text) = greeting else {
            Issue.record("unexpected \(greeting)")
            return
        }
        #expect(codeCapabilities.contains("LITERAL+") && codeCapabilities.contains("AUTH=PLAIN"))
        #expect(text == "Dovecot (Debian) ready.")
        let capability = try untagged("* CAPABILITY IMAP4rev1 sasl-ir X-GM-EXT-1 AUTH=XOAUTH2\r\n")
        #expect(capability == .capability(["IMAP4REV1", "SASL-IR", "X-GM-EXT-1", "AUTH=XOAUTH2"]))
        #expect(try untagged("* ENABLED QRESYNC CONDSTORE\r\n") == .enabled(["QRESYNC", "CONDSTORE"]))
    }

    @Test func selectResponses() throws {
        #expect(
            try untagged("* OK [UIDVALIDITY 1700000000] UIDs valid\r\n")
                == .condition(status: .ok, code: .uidValidity(1_700_000_000), text: "UIDs valid"))
        #expect(
            try untagged("* OK [HIGHESTMODSEQ 42]\r\n") == .condition(status: .ok, code: .highestModSeq(42), text: ""))
        #expect(
            try untagged("* OK [UIDNEXT 44] Predicted next UID\r\n")
                == .condition(status: .ok, code: .uidNext(44), text: "Predicted next UID"))
        #expect(
            try untagged("* OK [UNSEEN 2] First unseen.\r\n")
                == .condition(status: .ok, code: .unseen(2), text: "First unseen."))
        #expect(
            try untagged("* OK [NOMODSEQ] No permanent modsequences\r\n")
                == .condition(status: .ok, code: .noModSeq, text: "No permanent modsequences"))
        #expect(
            try untagged("* OK [PERMANENTFLAGS (\\Answered \\Seen $Forwarded \\*)] Flags permitted.\r\n")
                == .condition(
                    status: .ok, code: .permanentFlags(["\\Answered", "\\Seen", "$Forwarded", "\\*"]),
                    text: "Flags permitted."))
        #expect(try untagged("* 3 EXISTS\r\n") == .exists(3))
        #expect(try untagged("* 0 RECENT\r\n") == .recent(0))
        #expect(try untagged("* 3 EXPUNGE\r\n") == .expunge(3))
        #expect(
            try untagged("* FLAGS (\\Answered \\Flagged $Forwarded)\r\n")
                == .flags(["\\Answered", "\\Flagged", "$Forwarded"]))
        #expect(
            try parse("a2 OK [READ-WRITE] Select completed (0.001 + 0.000 secs).\r\n")
                == .tagged(
                    IMAPTaggedResponse(
                        tag: "a2", status: .ok, code: .readWrite, text: "Select completed (0.001 + 0.000 secs).")))
        #expect(try untagged("* OK [READ-ONLY] x\r\n") == .condition(status: .ok, code: .readOnly, text: "x"))
        #expect(
            try untagged("* OK [CLOSED] Previous mailbox closed.\r\n")
                == .condition(status: .ok, code: .closed, text: "Previous mailbox closed."))
    }

    @Test func vanished() throws {
        #expect(
            try untagged("* VANISHED (EARLIER) 1:3,7\r\n") == .vanished(earlier: true, uids: IMAPUIDSet([1, 2, 3, 7])))
        #expect(try untagged("* VANISHED 405,407\r\n") == .vanished(earlier: false, uids: IMAPUIDSet([405, 407])))
    }

    @Test func fetchWithLiteralBody() throws {
        let (sequence, attributes) = try fetch(Transcripts.dovecot[Transcripts.dovecot.count - 2])
        #expect(sequence == 12)
        #expect(attributes.uid == 40)
        #expect(attributes.modSeq == 17)
        #expect(attributes.flags == ["\\Seen", "$Forwarded"])
        #expect(attributes.internalDateMs == 1_704_099_600_000)
        #expect(attributes.rfc822Size == 1234)
        #expect(attributes.body == Transcripts.trickyBody)
        #expect(attributes.header == nil && attributes.sections.isEmpty && attributes.gmailLabels == nil)
    }

    @Test func fetchHeaderFieldsAndSkippedBodyStructure() throws {
        let (sequence, attributes) = try fetch(Transcripts.dovecot[Transcripts.dovecot.count - 1])
        #expect(sequence == 5)
        #expect(attributes == IMAPFetchAttributes(uid: 9, header: Transcripts.headerFields))
    }

    @Test func fetchSectionsAndNil() throws {
        let (_, attributes) = try fetch(
            Array(
                "* 1 FETCH (BODY[TEXT] \"hi\" BODY[1.MIME] NIL BODY[]<0> {3}\r\nabc BINARY[2] ~{2}\r\n\0\u{1} RFC822 NIL)\r\n"
                    .utf8))
        #expect(
            attributes.sections == [
                "BODY[TEXT]": Array("hi".utf8), "BODY[]<0>": Array("abc".utf8), "BINARY[2]": [0, 1],
            ])
        #expect(attributes.body == nil)
        let (_, whole) = try fetch(Array("* 1 FETCH (RFC822 {2}\r\nhi RFC822.HEADER \"h\")\r\n".utf8))
        #expect(whole.body == Array("hi".utf8) && whole.header == Array("h".utf8))
    }

    @Test func internalDateWithNegativeZoneAndPaddedDay() throws {
        let (_, attributes) = try fetch(Array("* 1 FETCH (INTERNALDATE \"17-Jul-1996 02:44:25 -0700\")\r\n".utf8))
        #expect(attributes.internalDateMs == 837_596_665_000)
        let (_, padded) = try fetch(Array("* 1 FETCH (INTERNALDATE \" 1-Jan-2024 10:00:00 +0100\")\r\n".utf8))
        #expect(padded.internalDateMs == 1_704_099_600_000)
        #expect(throws: IMAPProtocolError.self) {
            try fetch(Array("* 1 FETCH (INTERNALDATE \"30-Feb-2024 10:00:00 +0100\")\r\n".utf8))
        }
    }

    @Test func gmailExtensions() throws {
        let (_, attributes) = try fetch(Transcripts.gmail[5])
        #expect(attributes.gmailThreadID == 1_278_455_344_230_334_865)
        #expect(attributes.gmailMessageID == 1_278_455_344_230_334_866)
        #expect(attributes.gmailLabels == ["\\Inbox", "\\Sent", "Project été", "Important"])
        #expect(attributes.uid == 4 && attributes.flags == ["\\Seen"])
        let (_, literalLabel) = try fetch(Transcripts.gmail[Transcripts.gmail.count - 1])
        #expect(literalLabel.gmailLabels == ["\\Important", "Café"])
        #expect(literalLabel.uid == 5)
    }

    @Test func listEntries() throws {
        let sent = try untagged("* LIST (\\HasNoChildren \\Sent) \"/\" Sent\r\n")
        #expect(
            sent
                == .list(
                    IMAPListEntry(
                        attributes: ["\\HasNoChildren", "\\Sent"], delimiter: "/", name: "Sent",
                        rawName: Array("Sent".utf8))))
        guard case .list(let japanese) = try untagged("* LIST (\\HasNoChildren) \".\" \"&ZeVnLIqe-\"\r\n") else {
            Issue.record("not a LIST")
            return
        }
        #expect(japanese.name == "日本語" && japanese.rawName == Array("&ZeVnLIqe-".utf8))
        #expect(japanese.specialUse == nil && japanese.isSelectable)
        guard case .list(let gmailAll) = try untagged("* LIST (\\all \\HasNoChildren) \"/\" \"[Gmail]/All Mail\"\r\n"),
            case .list(let archive) = try untagged(
                "* LIST (\\Noselect \\HasChildren) NIL Archive (\"CHILDINFO\" (\"SUBSCRIBED\"))\r\n"),
            case .list(let utf8) = try untagged("* LIST () \"/\" \"Caf\u{E9}\"\r\n")
        else {
            Issue.record("not LIST responses")
            return
        }
        #expect(gmailAll.specialUse == .all && gmailAll.name == "[Gmail]/All Mail")
        #expect(archive.delimiter == nil && !archive.isSelectable && archive.name == "Archive")
        #expect(utf8.name == "Café")
    }

    @Test func statusSearchAndESearch() throws {
        #expect(
            try untagged("* STATUS \"&ZeVnLIqe-\" (MESSAGES 231 UIDNEXT 44292 HIGHESTMODSEQ 7011231777)\r\n")
                == .status(
                    mailbox: "日本語", attributes: ["MESSAGES": 231, "UIDNEXT": 44292, "HIGHESTMODSEQ": 7_011_231_777]))
        #expect(try untagged("* SEARCH 2 5 (MODSEQ 917162500)\r\n") == .search(uids: [2, 5], modSeq: 917_162_500))
        #expect(try untagged("* SEARCH\r\n") == .search(uids: [], modSeq: nil))
        #expect(try untagged("* SEARCH 7 \r\n") == .search(uids: [7], modSeq: nil))
        #expect(
            try untagged("* ESEARCH (TAG \"A5\") UID ALL 1:3,5\r\n")
                == .esearch(IMAPESearch(tag: "A5", uid: true, all: IMAPUIDSet([1, 2, 3, 5]))))
        #expect(
            try untagged("* ESEARCH (TAG \"A6\") UID MIN 2 MAX 40 COUNT 7 MODSEQ 99 PARTIAL (1:10 NIL)\r\n")
                == .esearch(IMAPESearch(tag: "A6", uid: true, min: 2, max: 40, count: 7, modSeq: 99)))
        #expect(try untagged("* ESEARCH\r\n") == .esearch(IMAPESearch()))
    }

    @Test func taggedCodes() throws {
        #expect(
            try parse("A1 OK [APPENDUID 38505 3955] APPEND completed\r\n")
                == .tagged(
                    IMAPTaggedResponse(
                        tag: "A1", status: .ok, code: .appendUID(uidValidity: 38505, uid: 3955),
                        text: "APPEND completed")))
        #expect(
            try parse("A2 OK [COPYUID 38505 304,319:320 3956:3958] Done\r\n")
                == .tagged(
                    IMAPTaggedResponse(
                        tag: "A2", status: .ok,
                        code: .copyUID(
                            uidValidity: 38505, source: [304, 319, 320], destination: [3956, 3957, 3958]),
                        text: "Done")))
        #expect(
            try parse("A3 NO [AUTHENTICATIONFAILED] Authentication failed.\r\n")
                == .tagged(
                    IMAPTaggedResponse(
                        tag: "A3", status: .no, code: .authenticationFailed, text: "Authentication failed.")))
        #expect(
            try parse("A4 NO [TRYCREATE] Mailbox doesn't exist: Foo\r\n")
                == .tagged(
                    IMAPTaggedResponse(tag: "A4", status: .no, code: .tryCreate, text: "Mailbox doesn't exist: Foo")))
        #expect(
            try parse("a3 OK Success\r\n")
                == .tagged(IMAPTaggedResponse(tag: "a3", status: .ok, code: nil, text: "Success")))
        #expect(
            try parse("A9 OK [APPENDUID 38505 3955:3957] done\r\n")
                == .tagged(
                    IMAPTaggedResponse(
                        tag: "A9", status: .ok, code: .other(name: "APPENDUID", text: "38505 3955:3957"), text: "done"))
        )
        #expect(
            try parse("A8 NO [OVERQUOTA] Quota exceeded (mailbox for user is full)\r\n")
                == .tagged(
                    IMAPTaggedResponse(
                        tag: "A8", status: .no, code: .other(name: "OVERQUOTA", text: ""),
                        text: "Quota exceeded (mailbox for user is full)")))
        #expect(
            try untagged("* NO [ALERT] System shutdown in 10 minutes\r\n")
                == .condition(
                    status: .no, code: .alert("System shutdown in 10 minutes"), text: "System shutdown in 10 minutes"))
        #expect(
            try untagged("* OK [BADCHARSET (UTF-8 US-ASCII)] x\r\n")
                == .condition(status: .ok, code: .other(name: "BADCHARSET", text: "(UTF-8 US-ASCII)"), text: "x"))
    }

    @Test func continuationsByeAndUnknown() throws {
        #expect(try parse("+ idling\r\n") == .continuation("idling"))
        #expect(try parse("+ \r\n") == .continuation(""))
        #expect(try parse("+\n") == .continuation(""))
        #expect(
            try untagged("* BYE server shutting down\r\n")
                == .condition(status: .bye, code: nil, text: "server shutting down"))
        #expect(try untagged("* PREAUTH ready\r\n") == .condition(status: .preauth, code: nil, text: "ready"))
        #expect(try untagged("* NAMESPACE ((\"\" \"/\")) NIL NIL\r\n") == .other("NAMESPACE ((\"\" \"/\")) NIL NIL"))
        #expect(try untagged("* 4 XUNKNOWN foo\r\n") == .other("4 XUNKNOWN foo"))
    }

    @Test(arguments: [
        "* 1 FETCH (UID 1\r\n",  // unbalanced
        "* 1 FETCH (UID abc)\r\n",  // not a number
        "* 4294967296 EXISTS\r\n",  // over UInt32
        "* 1 FETCH (UID 4294967296)\r\n",
        "* 1 FETCH (BODY[] {10}\r\nabc)\r\n",  // literal shorter than announced
        "* 1 FETCH (MODSEQ (x))\r\n",
        "* 1 FETCH (FLAGS (\\Seen)\r\n",
        "* OK [UIDVALIDITY] x\r\n",
        "* OK [UIDNEXT 5 x\r\n",
        "* VANISHED 0:3\r\n",
        "* 3 EXISTS now\r\n",
        "A1 MAYBE done\r\n",
        "* LIST (\\Sent \"/\" Sent\r\n",
        "* STATUS INBOX (MESSAGES x)\r\n",
        "* SEARCH 1 x\r\n",
        "* 1 FETCH (BODY[TEXT \"x\")\r\n",
        "* OK no line break",
        "",
    ])
    func malformedInputThrows(_ line: String) {
        #expect(throws: IMAPProtocolError.self) { try parse(line) }
    }

    @Test func deepNestingIsRejectedWithoutRecursingFurther() throws {
        let deep =
            "* 1 FETCH (X " + String(repeating: "(", count: 10_000) + String(repeating: ")", count: 10_000) + ")\r\n"
        #expect(throws: IMAPProtocolError.self) { try parse(deep) }
        let shallow =
            "* 1 FETCH (X " + String(repeating: "(", count: 20) + String(repeating: ")", count: 20) + " UID 3)\r\n"
        #expect(try untagged(shallow) == .fetch(sequence: 1, IMAPFetchAttributes(uid: 3)))
    }

    @Test func errorReasonsAreShortAndEscaped() {
        let hostile = "* 1 FETCH (UID \u{1B}[31m" + String(repeating: "x", count: 500) + "\r\n"
        do {
            _ = try parse(hostile)
            Issue.record("parsed")
        } catch {
            guard case .malformed(let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(!reason.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
            #expect(reason.count < 120)
            #expect(reason.contains("\\x1B[31m"))
            #expect(error.errorDescription?.hasPrefix("The IMAP server sent a malformed response: ") == true)
        }
    }

    /// Every transcript line parses, so the fuzz test mutates valid responses.
    @Test func everyTranscriptFrameParses() throws {
        for frame in Transcripts.all {
            _ = try IMAPResponseParser.parse(frame)
        }
    }
}
