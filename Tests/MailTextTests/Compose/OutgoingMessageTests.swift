import Foundation
import MailText
import Testing

/// The fixed instant the tests send at: Wed, 25 Nov 2026 21:39:38 UTC.
let composeTestDate = Date(timeIntervalSince1970: 1_795_642_778)

/// A message with the given parts and fixed everything else.
func outgoing(
    from: MailAddress = MailAddress(name: "Ann Smith", address: "ann@example.org"),
    to: [MailAddress] = [MailAddress(name: "Bob", address: "bob@example.net")], cc: [MailAddress] = [],
    bcc: [MailAddress] = [], subject: String = "Plan", inReplyTo: String? = nil, references: [String] = [],
    body: String = "Hello\n"
) -> OutgoingMessage {
    OutgoingMessage(
        from: from, to: to, cc: cc, bcc: bcc, subject: subject, date: composeTestDate,
        timeZone: TimeZone(secondsFromGMT: 3600)!, messageID: "<id1@example.org>", inReplyTo: inReplyTo,
        references: references, body: body)
}

/// The header block of raw message bytes (up to the blank line), split into lines without CRLF.
func headerLines(_ raw: [UInt8]) -> [String] {
    let text = String(decoding: raw, as: UTF8.self)
    let head = text.components(separatedBy: "\r\n\r\n")[0]
    return head.components(separatedBy: "\r\n")
}

@Suite struct OutgoingMessageTests {
    @Test("A short ASCII reply is written byte for byte as expected")
    func golden() throws {
        let message = outgoing(
            cc: [MailAddress(address: "carol@example.com")], subject: "Re: Plan", inReplyTo: "<p@x>",
            references: ["<r@x>", "p@x"], body: "Sounds good.\n\nAnn")
        let expected =
            "Date: Wed, 25 Nov 2026 22:39:38 +0100\r\n" + "From: Ann Smith <ann@example.org>\r\n"
            + "To: Bob <bob@example.net>\r\n" + "Cc: carol@example.com\r\n" + "Subject: Re: Plan\r\n"
            + "Message-ID: <id1@example.org>\r\n" + "In-Reply-To: <p@x>\r\n" + "References: <r@x> <p@x>\r\n"
            + "MIME-Version: 1.0\r\n" + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Transfer-Encoding: 7bit\r\n" + "\r\n" + "Sounds good.\r\n" + "\r\n" + "Ann\r\n"
        #expect(String(decoding: try message.rfc5322(), as: UTF8.self) == expected)
    }

    @Test("Empty address lists and a missing In-Reply-To leave their headers out; Bcc is written for Gmail")
    func optionalHeaders() throws {
        let raw = try outgoing(to: [], bcc: [MailAddress(address: "hidden@example.com")]).rfc5322()
        let names = headerLines(raw).map { $0.prefix { $0 != ":" } }
        #expect(
            names == [
                "Date", "From", "Bcc", "Subject", "Message-ID", "MIME-Version", "Content-Type",
                "Content-Transfer-Encoding",
            ])
    }

    @Test("Names that are not atoms are quoted, with quotes and backslashes escaped")
    func quotedNames() throws {
        let to = [
            MailAddress(name: "Smith, Ann", address: "a@x.org"),
            MailAddress(name: "A. \"Al\" B\\C", address: "b@x.org"),
        ]
        let lines = headerLines(try outgoing(to: to).rfc5322())
        #expect(lines.contains("To: \"Smith, Ann\" <a@x.org>, \"A. \\\"Al\\\" B\\\\C\" <b@x.org>"))
    }

    @Test("Non-ASCII subjects and names become UTF-8 encoded words, Q for Latin, B for other scripts")
    func encodedWords() throws {
        let raw = try outgoing(
            from: MailAddress(name: "José Müller", address: "jose@example.org"),
            to: [MailAddress(name: "山田太郎", address: "taro@example.jp")], subject: "Re: Café au lait"
        ).rfc5322()
        let lines = headerLines(raw)
        #expect(lines.contains("From: =?UTF-8?Q?Jos=C3=A9_M=C3=BCller?= <jose@example.org>"))
        #expect(lines.contains("To: =?UTF-8?B?5bGx55Sw5aSq6YOO?= <taro@example.jp>"))
        // Only the word that needs it is encoded; the literal words around it stay readable.
        #expect(lines.contains("Subject: Re: =?UTF-8?Q?Caf=C3=A9?= au lait"))
    }

    @Test("ASCII text that looks like an encoded word is encoded, so no reader decodes it")
    func lookalikeEncodedWord() throws {
        let message = outgoing(subject: "About =?UTF-8?Q?x?= syntax")
        let parsed = ParsedMessage(raw: try message.rfc5322())
        #expect(parsed.subject == "About =?UTF-8?Q?x?= syntax")
    }

    @Test("Long headers fold at 78 octets and no encoded word passes 75 characters")
    func folding() throws {
        let subjects = [
            String(repeating: "word ", count: 60), String(repeating: "mot accentué ", count: 30),
            String(repeating: "漢字かな交じり文", count: 20), String(repeating: "👩‍👩‍👧‍👦", count: 30),
            String(repeating: "x", count: 5000), "Re: " + String(repeating: "Ü", count: 200),
        ]
        let names = [String(repeating: "Ann ", count: 40), String(repeating: "Ånn ", count: 40)]
        for subject in subjects {
            let to = names.enumerated().map { MailAddress(name: $1, address: "p\($0)@example.org") }
            let raw = try outgoing(to: to, subject: subject).rfc5322()
            for line in headerLines(raw) {
                #expect(line.utf8.count <= 78, "\(line)")
                #expect(!line.trimmingCharacters(in: .whitespaces).isEmpty)
                for word in line.matches(of: /=\?UTF-8\?[QB]\?[^?]*\?=/) { #expect(word.output.count <= 75) }
            }
            #expect(raw.prefix { $0 != 0x0D }.count <= 78)
            let parsed = ParsedMessage(raw: raw)
            #expect(parsed.subject == subject.split(separator: " ").joined(separator: " "))
            #expect(parsed.to.map(\.name) == names.map { $0.trimmingCharacters(in: .whitespaces) })
        }
    }

    @Test("A line break in a subject or name cannot start a header of its own")
    func headerInjection() throws {
        let message = outgoing(
            to: [MailAddress(name: "Bob\r\nBcc: eve@evil.example", address: "bob@example.net")],
            subject: "Hi\r\nBcc: eve@evil.example\nX-Injected: yes")
        let raw = try message.rfc5322()
        let lines = headerLines(raw)
        #expect(!lines.contains { $0.hasPrefix("Bcc") || $0.hasPrefix("X-Injected") })
        let parsed = ParsedMessage(raw: raw)
        #expect(parsed.bcc.isEmpty)
        #expect(parsed.subject == "Hi Bcc: eve@evil.example X-Injected: yes")
        #expect(parsed.to == [MailAddress(name: "Bob Bcc: eve@evil.example", address: "bob@example.net")])
    }

    @Test(
        "Addresses that could break the header are refused",
        arguments: [
            "bob", "@example.org", "bob@", "bob\r\nBcc: eve@x@example.org", "<bob@example.org>",
            "bob smith@example.org", "bob@exa mple.org", "bob@example.org,eve@evil.example",
            "bob;eve@evil.example", "bob(eve)@example.org", "Team: bob@example.org", "bob\u{7}@example.org",
            String(repeating: "a", count: 250) + "@x.org",
        ])
    func invalidAddresses(address: String) {
        #expect(throws: ComposeError.invalidAddress(address)) {
            try outgoing(to: [MailAddress(address: address)]).rfc5322()
        }
        #expect(throws: ComposeError.invalidAddress(address)) {
            try outgoing(from: MailAddress(address: address)).rfc5322()
        }
    }

    @Test("A quoted local part with a space and a non-ASCII address are written as given")
    func unusualButValidAddresses() throws {
        let to = [MailAddress(address: "\"john doe\"@example.org"), MailAddress(address: "jürgen@example.de")]
        let raw = try outgoing(to: to).rfc5322()
        #expect(headerLines(raw).contains("To: \"john doe\"@example.org, jürgen@example.de"))
        #expect(ParsedMessage(raw: raw).to.map(\.address) == to.map(\.address))
    }

    @Test("Bad message ids and a message without recipients are refused")
    func otherErrors() {
        #expect(throws: ComposeError.noRecipients) { try outgoing(to: []).rfc5322() }
        #expect(throws: ComposeError.invalidMessageID("<a b@x>")) { try outgoing(inReplyTo: "<a b@x>").rfc5322() }
        #expect(throws: ComposeError.invalidMessageID("")) { try outgoing(references: ["<a@x>", ""]).rfc5322() }
        var message = outgoing()
        message.messageID = "<x@y>\r\nBcc: eve@x"
        #expect(throws: ComposeError.invalidMessageID("<x@y>\r\nBcc: eve@x")) { try message.rfc5322() }
    }

    @Test("Error messages name the input without passing control characters through")
    func errorMessages() {
        let message = ComposeError.invalidAddress("bob\r\n\u{1B}[31m").localizedDescription
        #expect(message == "\"bob\\r\\n\\u{1B}[31m\" is not a mail address that can be sent to.")
        #expect(ComposeError.noRecipients.localizedDescription == "The message has no recipients.")
    }

    @Test("Long References fold between ids")
    func longReferences() throws {
        let references = (1...10).map { "<\(String(repeating: "r", count: 20))\($0)@example.org>" }
        let lines = headerLines(try outgoing(references: references).rfc5322())
        let start = try #require(lines.firstIndex { $0.hasPrefix("References:") })
        #expect(lines[start..<(start + 5)].allSatisfy { $0.utf8.count <= 78 })
        #expect(lines[start + 1].hasPrefix(" <"))
    }
}

@Suite struct MailDateFormatTests {
    @Test(
        "Writes RFC 5322 dates at the given offset",
        arguments: [
            (1_795_642_778.9, 3600, "Wed, 25 Nov 2026 22:39:38 +0100"),
            (1_795_642_778, -18000, "Wed, 25 Nov 2026 16:39:38 -0500"),
            (1_795_642_778, 19800, "Thu, 26 Nov 2026 03:09:38 +0530"),
            (1_795_642_778, 0, "Wed, 25 Nov 2026 21:39:38 +0000"),
            (-1, 0, "Wed, 31 Dec 1969 23:59:59 +0000"),
            (1_709_164_800, 0, "Thu, 29 Feb 2024 00:00:00 +0000"),
            (951_912_000, -59, "Wed, 1 Mar 2000 12:00:00 +0000"),
        ])
    func formats(seconds: Double, offset: Int, expected: String) {
        #expect(MailDate.format(Date(timeIntervalSince1970: seconds), secondsFromGMT: offset) == expected)
    }

    @Test("A time zone's offset at the instant is used, daylight saving time included")
    func timeZones() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        #expect(MailDate.format(Date(timeIntervalSince1970: 1_782_907_200), timeZone: berlin).hasSuffix("+0200"))
        #expect(MailDate.format(composeTestDate, timeZone: berlin) == "Wed, 25 Nov 2026 22:39:38 +0100")
    }

    @Test("What is written parses back to the same second")
    func roundTrip() {
        for step in stride(from: -2_000_000_000, through: 4_000_000_000, by: 7_654_321) {
            for offset in [-43200, -12600, 0, 20700, 50400] {
                let text = MailDate.format(Date(timeIntervalSince1970: Double(step)), secondsFromGMT: offset)
                #expect(MailDate.parse(text) == Int64(step) * 1000, "\(text)")
            }
        }
    }
}
