import Foundation
import GmailModel

/// `messages.send` on its two paths: JSON `{raw, threadId}` on `/gmail/v1/...`, and the media upload on
/// `/upload/gmail/v1/...` (`uploadType=multipart`: JSON metadata, then the `message/rfc822` part;
/// `uploadType=media`: the body is the message).
extension GmailRouter {
    /// The largest JSON request body accepted: 5 MiB. Gmail publishes no number for it; real clients
    /// report that sends through the JSON path fail from about 5 MB on and must use the upload path,
    /// whose limit is documented.
    static let jsonBodyLimit = 5 * 1024 * 1024
    /// The largest message the upload path accepts: the discovery document's `maxSize` for
    /// `messages.send` and `drafts.*` (35 MiB).
    static let uploadLimit = 36_700_160

    static var nowMs: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    func sendJSON(_ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        guard request.body.count <= Self.jsonBodyLimit else { throw .payloadTooLarge(limit: Self.jsonBodyLimit) }
        let (raw, threadId) = try Self.messageResource(JSONValue.parse(request.body))
        return minimal(try await mailbox.send(raw: raw, threadId: threadId, nowMs: Self.nowMs))
    }

    func sendUpload(_ request: EmulatorRequest) async throws(GmailError) -> EmulatorResponse {
        var raw: [UInt8]
        var threadId: String?
        switch request.param("uploadType") {
        case "media":
            raw = request.body
        case "multipart":
            guard let contentType = request.headers["content-type"],
                contentType.lowercased().hasPrefix("multipart/related"),
                let boundary = BatchHandler.boundary(contentType),
                let parts = Self.parts(of: request.body, boundary: boundary), parts.count == 2
            else {
                throw .badRequest("Multipart upload needs multipart/related with a metadata part and a media part.")
            }
            guard let metadata = JSONValue.parse(parts[0].body.isEmpty ? Array("{}".utf8) : parts[0].body),
                case .object = metadata
            else { throw .badRequest("Invalid JSON payload received.") }
            threadId = metadata["threadId"]?.stringValue
            raw = parts[1].body
        default:
            throw .badRequest("Upload requests must name an uploadType of media or multipart.")
        }
        guard raw.count <= Self.uploadLimit else { throw .payloadTooLarge(limit: Self.uploadLimit) }
        guard !raw.isEmpty else { throw .badRequest("Media upload has no content.") }
        return minimal(try await mailbox.send(raw: raw, threadId: threadId, nowMs: Self.nowMs))
    }

    /// `raw` (base64url, padded or not) and `threadId` of a Message resource in JSON.
    static func messageResource(_ value: JSONValue?) throws(GmailError) -> (raw: [UInt8], threadId: String?) {
        guard let value, case .object = value else { throw .badRequest("Invalid JSON payload received.") }
        guard let text = value["raw"]?.stringValue, !text.isEmpty else {
            throw .badRequest("'raw' RFC822 payload message string or uploading message via /upload/* URL required")
        }
        guard let raw = Base64URL.decode(text), !raw.isEmpty else {
            throw .badRequest(
                "Invalid value at 'message.raw' (TYPE_BYTES), Base64 decoding failed", reason: "invalidArgument")
        }
        return (raw, value["threadId"]?.stringValue)
    }

    /// The parts of a multipart body, byte for byte (a message part must keep its CRLFs), each with its
    /// lowercased header fields; `nil` when the body has no closing delimiter.
    static func parts(of body: [UInt8], boundary: String) -> [(headers: [String: String], body: [UInt8])]? {
        let delimiter = Array("--\(boundary)".utf8)
        var starts: [Int] = []
        var from = 0
        while let found = find(delimiter, in: body, from: from) {
            if found == 0 || body[found - 1] == 10 { starts.append(found) }
            from = found + delimiter.count
        }
        var parts: [(headers: [String: String], body: [UInt8])] = []
        for (index, start) in starts.enumerated() {
            let afterDelimiter = start + delimiter.count
            if body[afterDelimiter...].starts(with: "--".utf8) { return parts }
            guard index + 1 < starts.count, let lineEnd = body[afterDelimiter...].firstIndex(of: 10) else { break }
            var end = starts[index + 1] - 1  // the LF before the next delimiter belongs to it
            if end > lineEnd, body[end - 1] == 13 { end -= 1 }
            let content = Array(body[(lineEnd + 1)..<max(end, lineEnd + 1)])
            let (headers, headerEnd) = Self.partHeaders(content)
            parts.append((headers, Array(content[headerEnd...])))
        }
        return nil
    }

    /// Header fields of a part and where its body starts (after the first empty line).
    private static func partHeaders(_ content: [UInt8]) -> ([String: String], Int) {
        var headers: [String: String] = [:]
        var lineStart = 0
        while lineStart < content.count {
            let lineEnd = content[lineStart...].firstIndex(of: 10) ?? content.count
            var line = content[lineStart..<lineEnd]
            if line.last == 13 { line = line.dropLast() }
            if line.isEmpty { return (headers, min(lineEnd + 1, content.count)) }
            let text = String(decoding: line, as: UTF8.self)
            if let colon = text.firstIndex(of: ":") {
                headers[text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                    text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            lineStart = lineEnd + 1
        }
        return (headers, content.count)
    }

    /// The first index of `needle` in `haystack` at or after `from`: memchr for the first byte, then
    /// memcmp, so a 35 MB upload is scanned at memory speed.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard let first = needle.first, from < haystack.count else { return nil }
        return haystack.withUnsafeBufferPointer { hay -> Int? in
            needle.withUnsafeBufferPointer { pin -> Int? in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return nil }
                var position = from
                while position + needle.count <= hay.count {
                    guard let hit = memchr(base + position, Int32(first), hay.count - position) else { return nil }
                    let offset = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if offset + needle.count > hay.count { return nil }
                    if memcmp(base + offset, pinBase, needle.count) == 0 { return offset }
                    position = offset + 1
                }
                return nil
            }
        }
    }
}
