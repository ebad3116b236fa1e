import Foundation
import GmailModel
import MailText
import Testing

@Suite struct GmailPayloadTests {
    /// The API contract's example of a `format=full` message, verbatim.
    static let contractExample = """
        {"partId": "", "mimeType": "multipart/mixed", "filename": "",
         "headers": [{"name": "From", "value": "Bob Example <bob@example.org>"}, {"name": "To", "value": "ann@example.com"},
                     {"name": "Subject", "value": "lunch"}, {"name": "Date", "value": "Wed, 13 Nov 2024 09:00:00 +0000"},
                     {"name": "Message-ID", "value": "<lunch-1@example.org>"}],
         "body": {"size": 0},
         "parts": [
           {"partId": "0", "mimeType": "multipart/alternative", "filename": "",
            "headers": [{"name": "Content-Type", "value": "multipart/alternative; boundary=\\"alt\\""}], "body": {"size": 0},
            "parts": [
              {"partId": "0.0", "mimeType": "text/plain", "filename": "",
               "headers": [{"name": "Content-Type", "value": "text/plain; charset=\\"UTF-8\\""}],
               "body": {"size": 24, "data": "SGkgQW5uLA0KTHVuY2ggYXQgMTI_DQo="}},
              {"partId": "0.1", "mimeType": "text/html", "filename": "",
               "headers": [{"name": "Content-Type", "value": "text/html; charset=\\"UTF-8\\""}],
               "body": {"size": 33, "data": "PHA-SGkgQW5uLDxicj5MdW5jaCBhdCAxMj88L3A-DQo="}}]},
           {"partId": "1", "mimeType": "application/pdf", "filename": "menu.pdf",
            "headers": [{"name": "Content-Type", "value": "application/pdf; name=\\"menu.pdf\\""},
                        {"name": "Content-Disposition", "value": "attachment; filename=\\"menu.pdf\\""}],
            "body": {"attachmentId": "ANGjdJ8-EXAMPLE-ONLY", "size": 15872}}]}
        """

    @Test("the contract's full payload becomes the same model as a raw parse")
    func contractExample() throws {
        let payload = try JSONDecoder().decode(MessagePart.self, from: Data(Self.contractExample.utf8))
        let message = GmailPayloadAdapter.parse(payload)
        #expect(message.subject == "lunch")
        #expect(message.plainPart?.text == "Hi Ann,\r\nLunch at 12?\r\n")
        #expect(message.htmlPart?.text == "<p>Hi Ann,<br>Lunch at 12?</p>\r\n")
        #expect(
            message.attachments == [
                MailAttachment(
                    partID: "1", filename: "menu.pdf", mimeType: "application/pdf", size: 15_872, contentID: nil,
                    isInline: false, gmailAttachmentID: "ANGjdJ8-EXAMPLE-ONLY")
            ])

        // The raw door: the same message on the wire.
        let raw = ParsedMessage(
            raw: crlf(
                "From: Bob Example <bob@example.org>", "To: ann@example.com", "Subject: lunch",
                "Date: Wed, 13 Nov 2024 09:00:00 +0000", "Message-ID: <lunch-1@example.org>",
                "Content-Type: multipart/mixed; boundary=mixed", "",
                "--mixed", "Content-Type: multipart/alternative; boundary=\"alt\"", "",
                "--alt", "Content-Type: text/plain; charset=\"UTF-8\"", "", "Hi Ann,", "Lunch at 12?", "",
                "--alt", "Content-Type: text/html; charset=\"UTF-8\"", "", "<p>Hi Ann,<br>Lunch at 12?</p>", "",
                "--alt--", "--mixed",
                "Content-Type: application/pdf; name=\"menu.pdf\"",
                "Content-Disposition: attachment; filename=\"menu.pdf\"",
                "Content-Transfer-Encoding: base64", "", "JVBERi0=", "--mixed--"))
        #expect(raw.subject == message.subject)
        #expect(raw.from == message.from)
        #expect(raw.plainPart?.text == message.plainPart?.text)
        #expect(raw.htmlPart?.text == message.htmlPart?.text)
        #expect(raw.attachments.map(\.filename) == message.attachments.map(\.filename))
        #expect(raw.plainPart?.partID == "0.0" && message.plainPart?.partID == "0.0")
    }

    @Test("absent arrays and fields decode as empty")
    func sparse() throws {
        let payload = try JSONDecoder().decode(MessagePart.self, from: Data(#"{"mimeType": "text/plain"}"#.utf8))
        #expect(payload.parts.isEmpty && payload.headers.isEmpty && payload.partId == nil)
        #expect(GmailPayloadAdapter.makeRoot(payload).body.isEmpty)
    }

    @Test("body data is NOT transfer-decoded again: a quoted-printable header does not corrupt '=' in data")
    func noDoubleDecoding() throws {
        // "a=3Db" as literal text; Gmail already undid the transfer encoding.
        let json =
            #"{"mimeType": "text/plain", "headers": [{"name": "Content-Transfer-Encoding", "value": "quoted-printable"}], "body": {"size": 5, "data": "YT0zRGI="}}"#
        let payload = try JSONDecoder().decode(MessagePart.self, from: Data(json.utf8))
        #expect(GmailPayloadAdapter.makeRoot(payload).text == "a=3Db")
    }
}
