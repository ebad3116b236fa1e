import Foundation

/// `POST /batch/gmail/v1` and `POST /batch`: splits a multipart/mixed body into inner
/// HTTP requests, runs each through the Gmail router, and answers one `application/http` part per
/// call in request order with `Content-ID: <response-...>`.
struct BatchHandler: Sendable {
    let router: GmailRouter
    static let limit = 100

    func handle(_ request: EmulatorRequest) async -> (EmulatorResponse, [(String, Int)]) {
        guard let contentType = request.headers["content-type"], contentType.lowercased().hasPrefix("multipart/"),
            let boundary = BatchHandler.boundary(contentType)
        else {
            return (.error(.badRequest("Batch requests must be multipart/mixed with a boundary.")), [])
        }
        let parts = BatchHandler.split(request.body, boundary: boundary)
        guard parts.count <= BatchHandler.limit else { return (.error(.batchTooLarge(parts.count)), []) }
        let outerAuth = request.headers["authorization"]
        var out: [UInt8] = []
        var log: [(String, Int)] = []
        let responseBoundary = "batch_emu\(parts.count)x\(request.body.count)"
        for part in parts {
            let (partHeaders, http) = BatchHandler.headers(part)
            let contentID = partHeaders["content-id"].map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "<> "))
            }
            var response: EmulatorResponse
            if var inner = BatchHandler.parseInner(http) {
                if inner.headers["authorization"] == nil, let outerAuth { inner.headers["authorization"] = outerAuth }
                (response, _) = await router.handle(inner)
                if response.dropConnection || response.resetConnection { response = .error(.unavailable) }
                let query = inner.query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
                log.append((inner.method + " " + inner.path + (query.isEmpty ? "" : "?" + query), response.status))
            } else {
                response = .error(.badRequest("Invalid inner HTTP request."))
            }
            out += Array("--\(responseBoundary)\r\nContent-Type: application/http\r\n".utf8)
            if let contentID { out += Array("Content-ID: <response-\(contentID)>\r\n".utf8) }
            out += Array("\r\nHTTP/1.1 \(response.status) \(EmulatorResponse.reasonPhrase(response.status))\r\n".utf8)
            for (name, value) in response.headers { out += Array("\(name): \(value)\r\n".utf8) }
            out += Array("Content-Length: \(response.body.count)\r\n\r\n".utf8)
            out += response.body
            out += Array("\r\n".utf8)
        }
        out += Array("--\(responseBoundary)--\r\n".utf8)
        return (
            EmulatorResponse(
                status: 200, headers: [("Content-Type", "multipart/mixed; boundary=\(responseBoundary)")], body: out),
            log
        )
    }

    static func boundary(_ contentType: String) -> String? {
        for piece in contentType.split(separator: ";") {
            let kv = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.count == 2, kv[0].lowercased() == "boundary" {
                return kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    /// Splits on `--boundary` lines, tolerating CRLF or bare LF and a leading CRLF.
    static func split(_ body: [UInt8], boundary: String) -> [[UInt8]] {
        let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        var sections = text.components(separatedBy: "--" + boundary)
        guard sections.count > 1 else { return [] }
        sections.removeFirst()  // preamble
        var parts: [[UInt8]] = []
        for section in sections {
            if section.hasPrefix("--") { break }
            var trimmed = Substring(section)
            if trimmed.hasPrefix("\n") { trimmed = trimmed.dropFirst() }
            if trimmed.hasSuffix("\n") { trimmed = trimmed.dropLast() }
            parts.append(Array(trimmed.utf8))
        }
        return parts
    }

    /// Header block (lowercased names) and the rest, from LF-normalised text.
    static func headers(_ bytes: [UInt8]) -> ([String: String], String) {
        let text = String(decoding: bytes, as: UTF8.self)
        let pieces = text.components(separatedBy: "\n\n")
        let head = pieces.first ?? ""
        var fields: [String: String] = [:]
        for line in head.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (fields, pieces.dropFirst().joined(separator: "\n\n"))
    }

    /// Parses `GET /path?query HTTP/1.1`, headers and body. Full URLs are refused, as Google refuses them.
    static func parseInner(_ http: String) -> EmulatorRequest? {
        let trimmed = http.drop { $0 == "\n" }
        guard let lineEnd = trimmed.firstIndex(of: "\n").map({ $0 }) ?? Optional(trimmed.endIndex) else { return nil }
        let requestLine = trimmed[..<lineEnd].split(separator: " ")
        guard requestLine.count >= 2, requestLine[1].hasPrefix("/") else { return nil }
        let remainder = lineEnd < trimmed.endIndex ? String(trimmed[trimmed.index(after: lineEnd)...]) : ""
        let (headers, body) =
            remainder.hasPrefix("\n")
            ? ([:], String(remainder.dropFirst())) : BatchHandler.headers(Array(remainder.utf8))
        return EmulatorRequest(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
            body: Array(body.trimmingCharacters(in: .whitespacesAndNewlines).utf8))
    }
}
