/// Server responses as Dovecot 2.3 and Gmail send them, one complete frame each, shared by the parser,
/// framer and fuzz tests.
enum Transcripts {
    /// A message body with everything a framer must not look into: line breaks, a literal announcement,
    /// parentheses, brackets, quotes and a NUL.
    static let trickyBody: [UInt8] =
        Array("Subject: {5}\r\n\r\n(unbalanced [\"quoted\" \\ )\r\n".utf8) + [0] + Array("{7+}\r\nend".utf8)

    static let headerFields = Array("Message-ID: <a@example.com>\r\nDate: Mon, 1 Jan 2024 10:00:00 +0100\r\n\r\n".utf8)

    static let dovecot: [[UInt8]] =
        [
            "* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS AUTH=PLAIN] Dovecot (Debian) ready.\r\n",
            "* CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE SORT SORT=DISPLAY THREAD=REFERENCES MULTIAPPEND UNSELECT CHILDREN NAMESPACE UIDPLUS LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS BINARY MOVE SNIPPET=FUZZY PREVIEW=FUZZY SAVEDATE LITERAL+ NOTIFY SPECIAL-USE\r\n",
            "a1 OK [CAPABILITY IMAP4rev1 SASL-IR ENABLE IDLE CONDSTORE QRESYNC UIDPLUS MOVE SPECIAL-USE] Logged in\r\n",
            "* ENABLED QRESYNC\r\n",
            "* LIST (\\HasNoChildren \\Sent) \"/\" Sent\r\n",
            "* LIST (\\HasNoChildren) \".\" \"&ZeVnLIqe-\"\r\n",
            "* LIST (\\Noselect \\HasChildren) \"/\" Archive (\"CHILDINFO\" (\"SUBSCRIBED\"))\r\n",
            "* STATUS INBOX (MESSAGES 231 UIDNEXT 44292 HIGHESTMODSEQ 7011231777)\r\n",
            "* FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded)\r\n",
            "* OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft $Forwarded \\*)] Flags permitted.\r\n",
            "* 3 EXISTS\r\n",
            "* 0 RECENT\r\n",
            "* OK [UNSEEN 2] First unseen.\r\n",
            "* OK [UIDVALIDITY 1700000000] UIDs valid\r\n",
            "* OK [UIDNEXT 44] Predicted next UID\r\n",
            "* OK [HIGHESTMODSEQ 42] Highest\r\n",
            "* VANISHED (EARLIER) 1:3,7\r\n",
            "a2 OK [READ-WRITE] Select completed (0.001 + 0.000 secs).\r\n",
            "* 2 FETCH (UID 41 MODSEQ (18) FLAGS ())\r\n",
            "* 3 EXPUNGE\r\n",
            "* SEARCH 2 5 (MODSEQ 917162500)\r\n",
            "* SEARCH\r\n",
            "* ESEARCH (TAG \"A5\") UID ALL 1:3,5\r\n",
            "* ESEARCH (TAG \"A6\") UID MIN 2 MAX 40 COUNT 7 MODSEQ 99\r\n",
            "* NAMESPACE ((\"\" \"/\")) NIL NIL\r\n",
            "* OK [CLOSED] Previous mailbox closed.\r\n",
            "* OK [NOMODSEQ] No permanent modsequences\r\n",
            "A1 OK [APPENDUID 38505 3955] APPEND completed\r\n",
            "A2 OK [COPYUID 38505 304,319:320 3956:3958] Done\r\n",
            "A3 NO [AUTHENTICATIONFAILED] Authentication failed.\r\n",
            "A4 NO [TRYCREATE] Mailbox doesn't exist: Foo\r\n",
            "A7 BAD Error in IMAP command UID FETCH: Invalid uidset\r\n",
            "* NO [ALERT] System shutdown in 10 minutes\r\n",
            "+ idling\r\n",
            "+ \r\n",
            "* BYE server shutting down\r\n",
        ].map { Array($0.utf8) } + [
            Array(
                "* 12 FETCH (UID 40 MODSEQ (17) FLAGS (\\Seen $Forwarded) INTERNALDATE \"01-Jan-2024 10:00:00 +0100\" RFC822.SIZE 1234 BODY[] {\(trickyBody.count)}\r\n"
                    .utf8)
                + trickyBody + Array(")\r\n".utf8),
            Array("* 5 FETCH (UID 9 BODY[HEADER.FIELDS (MESSAGE-ID DATE)] {\(headerFields.count)}\r\n".utf8)
                + headerFields
                + Array(
                    " BODYSTRUCTURE (\"text\" \"plain\" (\"charset\" \"utf-8\") NIL NIL \"7bit\" 12 1 NIL NIL NIL NIL))\r\n"
                        .utf8),
        ]

    static let gmail: [[UInt8]] =
        [
            "* OK Gimap ready for requests from 203.0.113.5 a1b2c3mb12345678wrj\r\n",
            "* CAPABILITY IMAP4rev1 UNSELECT IDLE NAMESPACE QUOTA ID XLIST CHILDREN X-GM-EXT-1 XYZZY SASL-IR AUTH=XOAUTH2 AUTH=PLAIN AUTH=PLAIN-CLIENTTOKEN AUTH=OAUTHBEARER\r\n",
            "+ eyJzdGF0dXMiOiI0MDAiLCJzY2hlbWVzIjoiQmVhcmVyIiwic2NvcGUiOiJodHRwczovL21haWwuZ29vZ2xlLmNvbS8ifQ==\r\n",
            "* LIST (\\HasNoChildren \\Sent) \"/\" \"[Gmail]/Sent Mail\"\r\n",
            "* LIST (\\All \\HasNoChildren) \"/\" \"[Gmail]/All Mail\"\r\n",
            "* 1 FETCH (X-GM-THRID 1278455344230334865 X-GM-MSGID 1278455344230334866 X-GM-LABELS (\\Inbox \\Sent \"Project &AOk-t&AOk-\" Important) UID 4 FLAGS (\\Seen))\r\n",
            "a3 OK Success\r\n",
        ].map { Array($0.utf8) } + [
            Array("* 2 FETCH (X-GM-LABELS (\\Important {8}\r\nCaf&AOk-) UID 5)\r\n".utf8)
        ]

    static var all: [[UInt8]] { dovecot + gmail }
}

/// SplitMix64: a tiny deterministic generator, so every randomized test is reproducible from its seed.
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (bound > 0).
    mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
