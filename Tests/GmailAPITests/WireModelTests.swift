import Foundation
import GmailAPI
import GmailModel
import Testing

@Suite struct WireModelTests {
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    @Test("64-bit ids are read from strings beyond 2^53, and from numbers defensively")
    func wideIntegers() throws {
        let message = try decode(
            Message.self, #"{"id":"a","historyId":"18446744073709551615","internalDate":"1731488400000"}"#)
        #expect(message.historyID == UInt64.max)
        #expect(message.internalDateMs == 1_731_488_400_000)
        let numeric = try decode(
            Profile.self, #"{"emailAddress":"a@b","messagesTotal":3,"threadsTotal":2,"historyId":884211}"#)
        #expect(numeric.historyID == 884_211)
        #expect(throws: DecodingError.self) { try decode(Profile.self, #"{"emailAddress":"a@b","historyId":"12x"}"#) }
    }

    @Test("absent arrays decode as empty; unknown fields are ignored")
    func absentArrays() throws {
        let page = try decode(ListMessagesResponse.self, #"{"resultSizeEstimate":0}"#)
        #expect(page.messages.isEmpty && page.nextPageToken == nil)
        let message = try decode(Message.self, #"{"id":"a","threadId":"t","classificationLabelValues":[{"x":1}]}"#)
        #expect(message.labelIds.isEmpty && message.payload == nil)
        let history = try decode(ListHistoryResponse.self, #"{"historyId":"884301"}"#)
        #expect(history.history.isEmpty && history.historyID == 884_301)
        let labels = try decode(HistoryRecord.self, #"{"id":"5","labelsRemoved":[{"message":{"id":"m"}}]}"#)
        #expect(labels.labelsRemoved.first?.labelIds == [])
    }

    @Test("the contract's full-format example decodes into a MIME tree")
    func fullMessage() throws {
        let json = #"""
            {"id":"18c2a1f0e4b5d6a7","threadId":"18c2a1f0e4b5d6a0","labelIds":["UNREAD","INBOX"],"snippet":"Hi Ann, Lunch at 12?",
             "historyId":"884211","internalDate":"1731488400000","sizeEstimate":20480,
             "payload":{"partId":"","mimeType":"multipart/mixed","filename":"","headers":[{"name":"From","value":"Bob <bob@example.org>"},{"name":"Subject","value":"lunch"}],
               "body":{"size":0},
               "parts":[{"partId":"0","mimeType":"text/plain","filename":"","headers":[],"body":{"size":24,"data":"SGkgQW5uLA0KTHVuY2ggYXQgMTI_DQo="}},
                        {"partId":"1","mimeType":"application/pdf","filename":"menu.pdf","body":{"attachmentId":"ANGjdJ8","size":15872}}]}}
            """#
        let message = try decode(Message.self, json)
        #expect(message.labelIds == ["UNREAD", "INBOX"])
        #expect(message.payload?.header("subject") == "lunch")
        #expect(message.payload?.parts.count == 2)
        #expect(message.payload?.parts[1].body?.attachmentId == "ANGjdJ8")
        #expect(message.payload?.parts[0].parts.isEmpty == true)
    }

    @Test("history records carry typed lists with label hints")
    func historyPage() throws {
        let json = #"""
            {"history":[{"id":"884219","messages":[{"id":"m9","threadId":"t0"}],
                         "messagesAdded":[{"message":{"id":"m9","threadId":"t0","labelIds":["UNREAD","INBOX"]}}]},
                        {"id":"884240","labelsRemoved":[{"message":{"id":"m7","threadId":"t0","labelIds":["INBOX"]},"labelIds":["UNREAD"]}]}],
             "nextPageToken":"41907312","historyId":"884301"}
            """#
        let page = try decode(ListHistoryResponse.self, json)
        #expect(page.history.map(\.id) == [884_219, 884_240])
        #expect(page.history[0].messagesAdded.first?.message.labelIds == ["UNREAD", "INBOX"])
        #expect(page.history[1].labelsRemoved.first?.labelIds == ["UNREAD"])
        #expect(page.nextPageToken == "41907312")
    }

    @Test("encoding writes 64-bit values as strings and omits empty arrays, as Gmail does")
    func encodesLikeGmail() throws {
        let data = try JSONEncoder().encode(Message(id: "a", historyID: 7, internalDateMs: 9))
        let text = String(decoding: data, as: UTF8.self)
        #expect(
            text.contains(#""historyId":"7""#) && text.contains(#""internalDate":"9""#) && !text.contains("labelIds"))
    }

    @Test("labels and send-as decode with optional fields")
    func labelsAndSendAs() throws {
        let label = try decode(Label.self, #"{"id":"INBOX","name":"INBOX","type":"system"}"#)
        #expect(label.isSystem && label.messagesTotal == nil)
        let alias = try decode(
            SendAs.self, #"{"sendAsEmail":"me@x","treatAsAlias":true,"verificationStatus":"accepted"}"#)
        #expect(alias.isOwnAddress)
    }
}
