import Foundation
import MailText
import Testing

/// Builds a message from lines joined with CRLF, as on the wire.
func crlf(_ lines: String...) -> [UInt8] {
    Array(lines.joined(separator: "\r\n").utf8)
}

@Suite struct MIMEParserTests {
    @Test("a simple message: headers and a decoded body")
    func simple() {
        let part = MIMEParser.parse(
            crlf(
                "From: a@example.com", "Subject: hi", "Content-Type: text/plain; charset=utf-8",
                "Content-Transfer-Encoding: quoted-printable", "", "caf=C3=A9"))
        #expect(part.mediaType == "text/plain")
        #expect(part.text == "café")
        #expect(part.children.isEmpty)
    }

    @Test("no Content-Type means text/plain; LF-only line endings are fine")
    func defaults() {
        let part = MIMEParser.parse(Array("Subject: x\n\nbody\n".utf8))
        #expect(part.mediaType == "text/plain")
        #expect(part.text == "body\n")
    }

    @Test("multipart with preamble and epilogue, and the CRLF before a boundary belongs to the boundary")
    func preambleEpilogue() {
        let part = MIMEParser.parse(
            crlf(
                "Content-Type: multipart/mixed; boundary=\"XX\"", "",
                "This is a preamble.", "--XX", "Content-Type: text/plain", "", "first", "--XX",
                "Content-Type: text/html", "", "<p>second</p>", "--XX--", "This is an epilogue."))
        #expect(part.children.map(\.mediaType) == ["text/plain", "text/html"])
        #expect(part.children.map(\.text) == ["first", "<p>second</p>"])
        #expect(part.children.map(\.partID) == ["0", "1"])
    }

    @Test("a missing final boundary ends the last part at the end of the body")
    func missingFinalBoundary() {
        let part = MIMEParser.parse(
            crlf(
                "Content-Type: multipart/alternative; boundary=b1", "",
                "--b1", "Content-Type: text/plain", "", "plain text", "--b1", "Content-Type: text/html", "",
                "<b>html</b>"))
        #expect(part.children.count == 2)
        #expect(part.children[1].text == "<b>html</b>")
    }

    @Test("a boundary line with trailing whitespace still counts")
    func boundaryWhitespace() {
        let part = MIMEParser.parse(
            crlf(
                "Content-Type: multipart/mixed; boundary=zz", "", "--zz   ", "", "one", "--zz-- ", ""))
        #expect(part.children.map(\.text) == ["one"])
    }

    @Test("a wrong declared boundary: the real one is found in the body")
    func wrongBoundary() {
        let part = MIMEParser.parse(
            crlf(
                "Content-Type: multipart/mixed; boundary=\"declared\"", "",
                "--actual", "Content-Type: text/plain", "", "found me", "--actual--"))
        #expect(part.children.map(\.text) == ["found me"])
    }

    @Test("a multipart with no boundary anywhere keeps its body as text, never loses it")
    func noBoundary() {
        let part = MIMEParser.parse(crlf("Content-Type: multipart/mixed", "", "just some text"))
        #expect(part.mediaType == "text/plain")
        #expect(part.text == "just some text")
    }

    @Test("nested multipart and message/rfc822 parts get Gmail-style part ids")
    func nested() {
        let part = MIMEParser.parse(
            crlf(
                "Content-Type: multipart/mixed; boundary=outer", "",
                "--outer", "Content-Type: multipart/alternative; boundary=inner", "",
                "--inner", "Content-Type: text/plain", "", "plain", "--inner", "Content-Type: text/html", "",
                "<p>html</p>", "--inner--",
                "--outer", "Content-Type: message/rfc822", "",
                "Subject: forwarded", "From: x@example.com", "", "inner body",
                "--outer--"))
        #expect(part.children.count == 2)
        #expect(part.children[0].children.map(\.partID) == ["0.0", "0.1"])
        let embedded = part.children[1].children.first
        #expect(embedded?.partID == "1.0")
        #expect(embedded?.text == "inner body")
        #expect(embedded?.headers.first("Subject").map { String(decoding: $0, as: UTF8.self) } == "forwarded")
    }

    @Test("hostile nesting depth is bounded, not recursed without end")
    func depthBound() {
        var lines = [String]()
        for level in 0..<200 {
            lines += ["Content-Type: multipart/mixed; boundary=b\(level)", "", "--b\(level)"]
        }
        lines += ["Content-Type: text/plain", "", "deep"]
        let part = MIMEParser.parse(Array(lines.joined(separator: "\r\n").utf8))
        var depth = 0
        var node = part
        while let child = node.children.first {
            node = child
            depth += 1
        }
        #expect(depth <= MIMEParser.maximumDepth)
    }

    @Test("base64 bodies with garbage decode, and 8bit bodies pass through")
    func transferEncodings() {
        let part = MIMEParser.parse(
            crlf(
                "Content-Type: multipart/mixed; boundary=q", "",
                "--q", "Content-Transfer-Encoding: base64", "", "SGVs bG8", "--q",
                "Content-Transfer-Encoding: 8bit", "Content-Type: text/plain; charset=utf-8", "", "naïve", "--q--"))
        #expect(part.children.map(\.text) == ["Hello", "naïve"])
    }
}

@Suite struct BodyChoiceTests {
    @Test("alternative keeps both twins; attachments are never the body")
    func alternative() {
        let message = ParsedMessage(
            raw: crlf(
                "From: a@example.com", "Content-Type: multipart/mixed; boundary=m", "",
                "--m", "Content-Type: text/plain; name=notes.txt",
                "Content-Disposition: attachment; filename=notes.txt", "", "attached notes",
                "--m", "Content-Type: multipart/alternative; boundary=a", "",
                "--a", "Content-Type: text/plain", "", "the text", "--a", "Content-Type: text/html", "",
                "<p>the text</p>", "--a--",
                "--m", "Content-Type: image/png", "Content-ID: <logo@x>", "Content-Disposition: inline",
                "Content-Transfer-Encoding: base64", "", "iVBORw0KGgo=",
                "--m--"))
        #expect(message.plainPart?.text == "the text")
        #expect(message.htmlPart?.text == "<p>the text</p>")
        #expect(message.attachments.map(\.filename) == ["notes.txt", ""])
        #expect(message.attachments.map(\.isInline) == [false, true])
        #expect(message.attachments[1].contentID == "logo@x")
        #expect(message.attachments[1].size == 8)
        #expect(message.attachments[0].mimeType == "text/plain")
    }

    @Test("an unnamed non-text part is still an attachment; an extra text part is not")
    func unnamedParts() {
        let message = ParsedMessage(
            raw: crlf(
                "Content-Type: multipart/mixed; boundary=u", "",
                "--u", "Content-Type: text/plain", "", "body", "--u", "Content-Type: application/pdf", "", "%PDF",
                "--u", "Content-Type: text/plain", "", "list footer", "--u--"))
        #expect(message.plainPart?.text == "body")
        #expect(message.attachments.map(\.mimeType) == ["application/pdf"])
    }

    @Test("related uses its root part, not the images")
    func related() {
        let message = ParsedMessage(
            raw: crlf(
                "Content-Type: multipart/related; boundary=r", "",
                "--r", "Content-Type: text/html", "", "<p>hi</p>", "--r", "Content-Type: image/gif", "Content-ID: <a>",
                "", "GIF", "--r--"))
        #expect(message.htmlPart?.text == "<p>hi</p>")
        #expect(message.plainPart == nil)
    }

    @Test("signed messages use their first part, and the signature is not an attachment")
    func signed() {
        let message = ParsedMessage(
            raw: crlf(
                "Content-Type: multipart/signed; boundary=s; protocol=\"application/pgp-signature\"", "",
                "--s", "Content-Type: text/plain", "", "signed text", "--s", "Content-Type: application/pgp-signature",
                "", "SIG", "--s--"))
        #expect(message.plainPart?.text == "signed text")
        #expect(message.attachments.isEmpty)
    }
}
