import ChatmailStore
import TextFormatting

extension JSONRenderer {
    /// `codes --json`: an array of `{code, service, from, receivedAt, gmailId}`, newest first.
    public func render(_ hits: [VerificationCodeHit]) throws -> String {
        try encode(
            hits.map {
                CodeJSON(
                    code: $0.code, service: $0.service, from: AddressJSON($0.from),
                    receivedAt: time.iso8601($0.receivedAtMs), gmailId: $0.gmailID)
            })
    }
}

struct CodeJSON: Encodable {
    var code: String
    var service: String?
    var from: AddressJSON
    var receivedAt: String
    var gmailId: String

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(service, forKey: .service)  // null, not absent
        try container.encode(from, forKey: .from)
        try container.encode(receivedAt, forKey: .receivedAt)
        try container.encode(gmailId, forKey: .gmailId)
    }

    enum CodingKeys: String, CodingKey { case code, service, from, receivedAt, gmailId }
}
