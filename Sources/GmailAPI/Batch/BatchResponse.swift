import Foundation

/// One inner response of a batch: its own status, headers and body.
public struct BatchResponsePart: Sendable, Equatable {
    /// The Content-ID with `<>` and the `response-` prefix removed, i.e. the request's id.
    public var contentID: String?
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data

    public init(contentID: String?, status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
        self.contentID = contentID
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Parses a `multipart/mixed` batch response, leniently: a preamble or leading CRLF before the first
/// boundary, bare LF line breaks, and parts without a body (204) are all accepted.
public enum BatchResponseParser {
    /// - Throws: `.giveUp(.decoding)` when there is no boundary or a part has no HTTP status line.
    public static func parse(body: Data, contentType: String?) throws -> [BatchResponsePart] {
        guard let contentType, let boundary = boundaryParameter(contentType) else {
            throw GmailAPIError.giveUp(.decoding(description: "batch response without a multipart boundary"))
        }
        // JSON bodies never contain raw line breaks, so normalising CRLF to LF loses nothing.
        let text = "\n" + String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        var segments = text.components(separatedBy: "\n--" + boundary)
        guard segments.count >= 2 else {
            throw GmailAPIError.giveUp(.decoding(description: "batch response without parts"))
        }
        segments.removeFirst()  // preamble
        var parts: [BatchResponsePart] = []
        for segment in segments {
            if segment.hasPrefix("--") { break }  // closing delimiter
            parts.append(try parsePart(segment))
        }
        return parts
    }

    static func boundaryParameter(_ contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else {
                continue
            }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    private static func parsePart(_ segment: String) throws -> BatchResponsePart {
        // Skip the rest of the delimiter line (transport padding), then split part headers from the inner message.
        var rest = Substring(segment)
        if let newline = rest.firstIndex(of: "\n") { rest = rest[rest.index(after: newline)...] }
        let (partHeaders, inner) = splitHead(rest)
        var contentID = partHeaders["Content-ID"]?.trimmingCharacters(in: CharacterSet(charactersIn: "<> "))
        if let id = contentID, id.hasPrefix("response-") { contentID = String(id.dropFirst("response-".count)) }
        let innerTrimmed = inner.drop { $0 == "\n" }
        let (statusAndHeaders, body) = splitHead(innerTrimmed, firstLineIsStatus: true)
        guard let status = statusAndHeaders.status else {
            throw GmailAPIError.giveUp(.decoding(description: "batch part without an HTTP status line"))
        }
        let bodyText = body.trimmingCharacters(in: .whitespacesAndNewlines)
        return BatchResponsePart(
            contentID: contentID, status: status, headers: statusAndHeaders.headers, body: Data(bodyText.utf8))
    }

    private struct Head {
        var status: Int?
        var headers = HTTPHeaders()
        subscript(name: String) -> String? { headers[name] }
    }

    /// Splits `text` at the first blank line into parsed header lines and the remainder.
    private static func splitHead(_ text: Substring, firstLineIsStatus: Bool = false) -> (Head, Substring) {
        var head = Head()
        var index = text.startIndex
        var isFirst = true
        while index < text.endIndex {
            let lineEnd = text[index...].firstIndex(of: "\n") ?? text.endIndex
            let line = text[index..<lineEnd]
            index = lineEnd < text.endIndex ? text.index(after: lineEnd) : lineEnd
            if line.isEmpty { break }
            if isFirst && firstLineIsStatus {
                // "HTTP/1.1 404 Not Found"
                let fields = line.split(separator: " ", maxSplits: 2)
                if fields.count >= 2, fields[0].hasPrefix("HTTP/") { head.status = Int(fields[1]) }
            } else if let colon = line.firstIndex(of: ":") {
                head.headers.add(
                    String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
            }
            isFirst = false
        }
        return (head, text[index...])
    }
}
