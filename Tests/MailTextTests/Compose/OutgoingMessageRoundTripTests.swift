import Foundation
import MailText
import Testing

/// Writes messages and reads them back with MailText's own parser: what was composed is what a reader gets.
@Suite struct OutgoingMessageRoundTripTests {
    /// One body and subject to send, and the transfer encoding expected for the body.
    struct Sample: Sendable, CustomStringConvertible {
        var description: String
        var subject: String
        var name: String
        var body: String
        var encoding: String
    }

    static let samples: [Sample] = [
        Sample(
            description: "ASCII", subject: "Lunch on Friday?", name: "Ann Smith",
            body: "Shall we meet at noon?\n\n-- \nAnn\n", encoding: "7bit"),
        Sample(
            description: "accented Latin", subject: "Réunion über Ärger à Paris", name: "Zoë Ødegård",
            body: "Ça marche très bien.\nÜbermorgen geht es auch.\n", encoding: "quoted-printable"),
        Sample(
            description: "CJK", subject: "会议记录和下周的计划", name: "山田 太郎",
            body: "来週の会議は火曜日です。\n資料を送ります。\n", encoding: "base64"),
        Sample(
            description: "emoji", subject: "Party 🎉🎂 tonight 👩‍👩‍👧‍👦", name: "Ann 🦊",
            body: "See you there, it starts at eight 🎉 bring snacks\n", encoding: "quoted-printable"),
        Sample(
            description: "a 5,000-character line", subject: String(repeating: "long", count: 30), name: "Ann",
            body: String(repeating: "x", count: 5000) + "\nend\n", encoding: "quoted-printable"),
        Sample(
            description: "lines starting with From and dots", subject: "From here", name: "Ann",
            body: "From the start\n.\n..\n.hidden\nFrom\nX From y\n", encoding: "quoted-printable"),
        Sample(
            description: "trailing spaces and tabs", subject: "Spaces", name: "Ann",
            body: "trailing space \ntrailing tab\t\n  \nend  ", encoding: "quoted-printable"),
        Sample(
            description: "mixed line endings", subject: "Endings", name: "Ann", body: "a\r\nb\nc\rd\r\n\r\ne",
            encoding: "7bit"),
        Sample(
            description: "equals signs", subject: "a = b", name: "Ann", body: "Total = 5 €\nx=3D\n",
            encoding: "quoted-printable"),
        Sample(
            description: "a line of equals signs, smaller in base64", subject: "Rule", name: "Ann",
            body: String(repeating: "=", count: 200) + "\n", encoding: "base64"),
        Sample(
            description: "Cyrillic", subject: "Отчёт за ноябрь", name: "Иван Петров",
            body: "Привет! Отчёт во вложении.\nСпасибо.\n", encoding: "base64"),
        Sample(
            description: "an empty body", subject: "", name: "Ann", body: "", encoding: "7bit"),
    ]

    @Test("Headers, names, subject and body read back as written", arguments: samples)
    func roundTrip(sample: Sample) throws {
        let from = MailAddress(name: sample.name, address: "ann@example.org")
        let to = [MailAddress(name: sample.name + " 2", address: "bob@example.net"), MailAddress(address: "c@x.org")]
        let cc = [MailAddress(name: "Dé, Ünal \"Q\"", address: "d@x.org")]
        let references = ["<r1@x>", "<r2@x>"]
        let message = OutgoingMessage(
            from: from, to: to, cc: cc, bcc: [MailAddress(address: "e@x.org")], subject: sample.subject,
            date: composeTestDate, timeZone: TimeZone(secondsFromGMT: -7 * 3600)!, messageID: "<m@example.org>",
            inReplyTo: "<r2@x>", references: references, body: sample.body)
        let raw = try message.rfc5322()

        let parsed = ParsedMessage(raw: raw)
        #expect(parsed.subject == sample.subject)
        #expect(parsed.from == [from])
        #expect(parsed.to == to)
        #expect(parsed.cc == cc)
        #expect(parsed.bcc == [MailAddress(address: "e@x.org")])
        #expect(parsed.messageID == "<m@example.org>")
        #expect(parsed.dateMs == 1_795_642_778_000)
        #expect(parsed.root.headers.first("In-Reply-To").map(ReplyReferences.parse) == ["<r2@x>"])
        #expect(parsed.root.headers.first("References").map(ReplyReferences.parse) == references)
        let part = try #require(parsed.plainPart)
        #expect(part.parameters["charset"] == "utf-8")
        #expect(
            part.headers.first("Content-Transfer-Encoding").map { String(decoding: $0, as: UTF8.self) }
                == sample.encoding)
        #expect(part.text == Self.canonical(sample.body))

        // Nothing in the message is longer than RFC 5322 allows; quoted-printable and base64 keep to 76.
        let lines = String(decoding: raw, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 78 })
        #expect(!raw.enumerated().contains { $1 == 0x0A && ($0 == 0 || raw[$0 - 1] != 0x0D) }, "bare LF")
        #expect(!raw.enumerated().contains { $1 == 0x0D && ($0 + 1 == raw.count || raw[$0 + 1] != 0x0A) }, "bare CR")
        if sample.encoding != "7bit" {
            let body = lines.drop { !$0.isEmpty }.dropFirst()
            #expect(body.allSatisfy { $0.utf8.count <= 76 && !$0.hasPrefix("From ") })
            #expect(body.allSatisfy { !$0.hasSuffix(" ") && !$0.hasSuffix("\t") })
        }
    }

    /// The body as it is sent: CRLF line breaks, and a final one unless empty.
    static func canonical(_ body: String) -> String {
        guard !body.isEmpty else { return "" }
        var text = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        if !text.hasSuffix("\n") { text += "\n" }
        return text.replacingOccurrences(of: "\n", with: "\r\n")
    }

    @Test("Quoted-printable soft breaks never split an escape, whatever the line length")
    func softBreaks() throws {
        for length in 70...160 {
            let body = String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 7) + " \n"
            let parsed = ParsedMessage(raw: try outgoing(body: body).rfc5322())
            #expect(parsed.plainPart?.text == Self.canonical(body))
        }
    }

    @Test("Soft breaks fall after a space, so words stay whole in the raw text")
    func softBreaksAtSpaces() throws {
        let body = "Très " + String(repeating: "bien ", count: 40) + "merci\n"
        let raw = try outgoing(body: body).rfc5322()
        let text = String(decoding: raw, as: UTF8.self)
        let bodyLines = text.components(separatedBy: "\r\n\r\n")[1].components(separatedBy: "\r\n").dropLast()
        #expect(bodyLines.count == 3)
        #expect(bodyLines.dropLast().allSatisfy { $0.hasSuffix(" =") && $0.utf8.count <= 76 })
        #expect(bodyLines.last?.hasSuffix("bien merci") == true)
        #expect(ParsedMessage(raw: raw).plainPart?.text == Self.canonical(body))
    }

    @Test("A `From ` that a soft break would put at the start of a line is escaped there")
    func fromAfterSoftBreak() throws {
        for padding in 60...90 {
            let body = "é" + String(repeating: "a", count: padding) + "From here\n"
            let raw = try outgoing(body: body).rfc5322()
            let lines = String(decoding: raw, as: UTF8.self).components(separatedBy: "\r\n")
            #expect(!lines.contains { $0.hasPrefix("From ") })
            #expect(ParsedMessage(raw: raw).plainPart?.text == Self.canonical(body))
        }
    }
}
