import Foundation

/// A `multipart/mixed` batch body: one `application/http` part per inner call.
public struct BatchRequest: Sendable {
    /// One inner call. The request line carries the path only; full URLs are not allowed.
    public struct Part: Sendable, Equatable {
        /// Sent as `Content-ID: <contentID>`; Gmail answers with `<response-contentID>`.
        public var contentID: String
        public var method: String
        /// `/gmail/v1/users/me/messages/ID?format=minimal`.
        public var pathAndQuery: String

        public init(contentID: String, method: String = "GET", pathAndQuery: String) {
            self.contentID = contentID
            self.method = method
            self.pathAndQuery = pathAndQuery
        }
    }

    public let boundary: String
    public var parts: [Part]

    public init(boundary: String, parts: [Part]) {
        self.boundary = boundary
        self.parts = parts
    }

    /// A boundary that cannot occur in JSON bodies by accident.
    public static func makeBoundary(random: any RandomSource) -> String {
        "chatmail_" + String(random.next(), radix: 16) + String(random.next(), radix: 16)
    }

    /// The outer request's `Content-Type`.
    public var contentType: String { "multipart/mixed; boundary=\(boundary)" }

    /// The body, CRLF line breaks throughout.
    public func encode() -> Data {
        var text = ""
        for part in parts {
            text += "--\(boundary)\r\n"
            text += "Content-Type: application/http\r\n"
            text += "Content-Transfer-Encoding: binary\r\n"
            text += "Content-ID: <\(part.contentID)>\r\n"
            text += "\r\n"
            text += "\(part.method) \(part.pathAndQuery) HTTP/1.1\r\n"
            text += "\r\n"
        }
        text += "--\(boundary)--\r\n"
        return Data(text.utf8)
    }
}
