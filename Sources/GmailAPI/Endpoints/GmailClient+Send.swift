import Foundation
import GmailModel

/// `users.messages.send`: the one call that must not run twice.
///
/// Small messages go as JSON (`{"raw": base64url, "threadId": ...}`); larger ones through the media
/// upload path as `multipart/related` (JSON metadata, then the `message/rfc822` bytes), because base64
/// grows a message by a third and the JSON path is refused from about 5 MB on. A send is never retried
/// once its request may have reached Gmail: a reset, a timeout or a 5xx surfaces at once as
/// `.retryLater(.outcomeUnknown)`. Rate limits (429, rate-limit 403) and a rejected token (401) are
/// answered before Gmail processes a request, so those are retried as for any call, as is a connection
/// that was never made.
extension GmailClient {
    /// Messages larger than this (1 MiB) are sent through the upload path: about 1.4 MB of base64 is
    /// well inside what the JSON path accepts.
    public static let sendUploadThreshold = 1 << 20
    /// The largest message Gmail sends: `messages.send`'s `maxSize` in Google's discovery document.
    public static let sendSizeLimit = 36_700_160

    /// Sends an RFC 5322 message (cost 100). Gmail sends it to its To, Cc and Bcc addresses, files it
    /// with SENT, and replaces its Message-ID (read it back with `getMessage(id:format: .metadata(...))`).
    /// - Parameters:
    ///   - raw: the complete message, CRLF line endings.
    ///   - threadId: the thread to join; Gmail honours it only when In-Reply-To or References names a
    ///     message of that thread and the subjects match, otherwise the message starts a new thread.
    /// - Returns: the sent message's `id`, `threadId` and `labelIds`.
    /// - Throws: `.giveUp(.messageTooLarge)` over 35 MB, before any request;
    ///   `.retryLater(.outcomeUnknown)` when the message may or may not have gone out;
    ///   `.badRequest` (e.g. `Recipient address required`) and `.giveUp(.notFound(resource: "thread"))`
    ///   (unknown `threadId`) when Gmail refused it, sending nothing; `.retryLater(.rateLimited)` or
    ///   `.retryLater(.transport)` after retries that sent nothing.
    public func send(raw: [UInt8], threadId: String? = nil) async throws -> Message {
        guard raw.count <= Self.sendSizeLimit else { throw GmailAPIError.giveUp(.messageTooLarge(bytes: raw.count)) }
        let call = raw.count <= Self.sendUploadThreshold ? try jsonSend(raw, threadId) : try uploadSend(raw, threadId)
        let response: HTTPResponse
        do {
            response = try await execute(call)
        } catch GmailAPIError.giveUp(.unexpectedStatus(413)) {
            throw GmailAPIError.giveUp(.messageTooLarge(bytes: raw.count))
        }
        do {
            return try decode(Message.self, from: response)
        } catch GmailAPIError.giveUp(.decoding(let description)) {
            // Gmail answered 2xx, so the message went out, but which message it became is unknown.
            throw GmailAPIError.retryLater(.outcomeUnknown(cause: "unreadable answer: \(description)"))
        }
    }

    private func metadata(_ threadId: String?, raw: [UInt8]?) throws -> Data {
        var object: [String: String] = [:]
        if let raw { object["raw"] = Base64URL.encode(raw, padded: false) }
        if let threadId { object["threadId"] = threadId }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(object)
    }

    private func jsonSend(_ raw: [UInt8], _ threadId: String?) throws -> Call {
        Call(
            endpoint: .sendMessage, method: "POST", path: userPath("/messages/send"),
            body: try metadata(threadId, raw: raw), contentType: "application/json")
    }

    private func uploadSend(_ raw: [UInt8], _ threadId: String?) throws -> Call {
        let message = Data(raw)
        var boundary = "chatmail-send-" + UUID().uuidString
        while message.range(of: Data(boundary.utf8)) != nil { boundary = "chatmail-send-" + UUID().uuidString }
        var body = Data("--\(boundary)\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n".utf8)
        body += try metadata(threadId, raw: nil)
        body += Data("\r\n--\(boundary)\r\nContent-Type: message/rfc822\r\n\r\n".utf8)
        body += message
        body += Data("\r\n--\(boundary)--\r\n".utf8)
        return Call(
            endpoint: .sendMessage, method: "POST", path: "/upload" + userPath("/messages/send"),
            query: [("uploadType", "multipart")], body: body, contentType: "multipart/related; boundary=\(boundary)")
    }
}
