import ChatmailStore
import TextFormatting
import TextSafety

extension JSONRenderer {
    /// The results as JSON: an array of `{conversation:{id,title}, open, messageId, gmailId, from,
    /// isFromMe, date, subject, snippet, highlights, score}`, best match first. `snippet` is plain text;
    /// `highlights` lists the matched words in order.
    public func render(_ hits: [SearchHit], openCommands: [ConversationID: String]) throws -> String {
        try encode(
            hits.map { hit in
                SearchHitJSON(
                    conversation: .init(id: hit.conversation.id.rawValue, title: hit.conversation.title),
                    open: openCommands[hit.conversation.id] ?? "", messageId: hit.messageID.rawValue,
                    gmailId: hit.gmailID,
                    from: AddressJSON(hit.from), isFromMe: hit.isFromMe, date: time.iso8601(hit.internalDateMs),
                    subject: hit.subject.plain, snippet: hit.snippet.plain,
                    highlights: (hit.subject.segments + hit.snippet.segments).filter(\.isMatch).map(\.text),
                    score: hit.score)
            })
    }
}

struct SearchHitJSON: Encodable {
    struct Conversation: Encodable {
        var id: Int64
        var title: String
    }

    var conversation: Conversation
    var open: String
    var messageId: Int64
    var gmailId: String
    var from: AddressJSON
    var isFromMe: Bool
    var date: String
    var subject: String
    var snippet: String
    var highlights: [String]
    var score: Double
}
