import Foundation
import GmailModel
import Testing

@Suite struct MessagePartTests {
    @Test("Gmail's keys decode, absent arrays are empty, absent strings nil")
    func decode() throws {
        let json = #"""
            {"partId":"","mimeType":"multipart/mixed","filename":"","headers":[{"name":"Subject","value":"lunch"}],
             "body":{"size":0},
             "parts":[{"partId":"0","mimeType":"text/plain","body":{"size":3,"data":"SGkh"}},
                      {"partId":"1","filename":"menu.pdf","body":{"attachmentId":"ANGjdJ8","size":15872}}]}
            """#
        let part = try JSONDecoder().decode(MessagePart.self, from: Data(json.utf8))
        #expect(part.header("SUBJECT") == "lunch")
        #expect(part.parts.map(\.partId) == ["0", "1"])
        #expect(part.parts[0].headers.isEmpty && part.parts[0].parts.isEmpty && part.parts[0].filename == nil)
        #expect(part.parts[0].body == MessagePartBody(size: 3, data: "SGkh"))
        #expect(part.parts[1].mimeType == nil)
        #expect(part.parts[1].body == MessagePartBody(size: 15_872, attachmentId: "ANGjdJ8"))
    }

    @Test("encoding omits what Gmail omits: absent strings and empty arrays")
    func encode() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let part = MessagePart(partId: "0", mimeType: "text/plain", body: MessagePartBody(size: 3, data: "SGkh"))
        let text = String(decoding: try encoder.encode(part), as: UTF8.self)
        #expect(text == #"{"body":{"data":"SGkh","size":3},"mimeType":"text\/plain","partId":"0"}"#)
        #expect(try JSONDecoder().decode(MessagePart.self, from: Data(text.utf8)) == part)
    }
}
