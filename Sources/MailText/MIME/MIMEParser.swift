/// Parses raw RFC 5322 messages into a ``MIMEPart`` tree, working on bytes throughout: the charset of
/// a part is only known once its headers are read, so nothing is decoded as a String first.
///
/// Tolerated damage: missing final boundary, preamble and epilogue, boundaries with trailing
/// whitespace, a declared boundary that never appears (the real one is guessed from the body), bare LF
/// line endings, and nesting deeper than ``maximumDepth`` (deeper parts become opaque leaves).
public enum MIMEParser {
    /// Parts nested deeper than this are kept as unparsed leaves: bounded work for hostile input.
    public static let maximumDepth = 32

    /// Parses a whole message.
    public static func parse(_ bytes: [UInt8]) -> MIMEPart {
        parsePart(bytes[...], partID: "", depth: 0, defaultType: "text/plain")
    }

    static func parsePart(_ bytes: ArraySlice<UInt8>, partID: String, depth: Int, defaultType: String) -> MIMEPart {
        let (headers, bodyStart) = HeaderBlock.parse(bytes)
        let body = bytes[bodyStart...]
        let contentType = headers.first("Content-Type").map(HeaderParameters.parse)
        var mediaType = contentType?.value ?? ""
        if mediaType.isEmpty || !mediaType.contains("/") { mediaType = defaultType }
        let disposition = headers.first("Content-Disposition").map(HeaderParameters.parse)
        var part = MIMEPart(
            headers: headers, mediaType: mediaType, parameters: contentType?.parameters ?? [:],
            disposition: disposition.map(\.value).flatMap { $0.isEmpty ? nil : $0 },
            dispositionParameters: disposition?.parameters ?? [:], partID: partID)
        let encoding = TransferDecoding.Encoding(
            headerValue: headers.first("Content-Transfer-Encoding").map { String(decoding: $0, as: UTF8.self) })

        if part.isMultipart && depth < maximumDepth {
            let boundary =
                part.parameters["boundary"].flatMap { $0.isEmpty ? nil : $0 }
                ?? MultipartSplitter.guessBoundary(in: body)
            if let boundary {
                let childDefault = mediaType == "multipart/digest" ? "message/rfc822" : "text/plain"
                let sections =
                    MultipartSplitter.split(body, boundary: Array(boundary.utf8))
                    ?? MultipartSplitter.guessBoundary(in: body).flatMap {
                        MultipartSplitter.split(body, boundary: Array($0.utf8))
                    }
                if let sections, !sections.isEmpty {
                    part.children = sections.enumerated().map { index, section in
                        parsePart(section, partID: childID(partID, index), depth: depth + 1, defaultType: childDefault)
                    }
                    return part
                }
            }
            // No usable boundary: the body is all we have; show it as text rather than lose it.
            part.mediaType = "text/plain"
            part.body = TransferDecoding.decode(body, encoding)
            return part
        }
        if mediaType == "message/rfc822" && depth < maximumDepth {
            // The embedded message may itself be transfer-encoded (base64 forwards exist in the wild).
            let inner = TransferDecoding.decode(body, encoding)
            part.children = [
                parsePart(inner[...], partID: childID(partID, 0), depth: depth + 1, defaultType: "text/plain")
            ]
            return part
        }
        part.body = TransferDecoding.decode(body, encoding)
        return part
    }

    static func childID(_ parent: String, _ index: Int) -> String {
        parent.isEmpty ? String(index) : "\(parent).\(index)"
    }
}

/// Splits a multipart body at its boundary lines (RFC 2046 §5.1.1).
enum MultipartSplitter {
    /// The body sections between boundary lines, without preamble or epilogue; `nil` when the boundary
    /// never appears. A missing close delimiter ends the last section at the end of the body.
    static func split(_ body: ArraySlice<UInt8>, boundary: [UInt8]) -> [ArraySlice<UInt8>]? {
        var sections: [ArraySlice<UInt8>] = []
        var sectionStart: Int?
        var lineStart = body.startIndex
        while lineStart < body.endIndex {
            var lineEnd = lineStart
            while lineEnd < body.endIndex && body[lineEnd] != 0x0A { lineEnd += 1 }
            let next = lineEnd < body.endIndex ? lineEnd + 1 : lineEnd
            if let kind = boundaryKind(body[lineStart..<lineEnd], boundary: boundary) {
                if let start = sectionStart {
                    sections.append(body[start..<trimmingLineBreak(before: lineStart, in: body, from: start)])
                }
                if kind == .close { return sections }
                sectionStart = next
            }
            lineStart = next
        }
        guard let start = sectionStart else { return nil }
        if start < body.endIndex { sections.append(body[start..<body.endIndex]) }
        return sections
    }

    enum BoundaryKind { case open, close }

    /// Whether a line is `--boundary` or `--boundary--`, allowing trailing whitespace and CR.
    static func boundaryKind(_ line: ArraySlice<UInt8>, boundary: [UInt8]) -> BoundaryKind? {
        guard line.count >= boundary.count + 2, line.first == 0x2D, line[line.startIndex + 1] == 0x2D else {
            return nil
        }
        let nameStart = line.startIndex + 2
        guard line[nameStart..<(nameStart + boundary.count)].elementsEqual(boundary) else { return nil }
        var rest = line[(nameStart + boundary.count)...]
        while let last = rest.last, last == 0x0D || last == 0x20 || last == 0x09 { rest = rest.dropLast() }
        if rest.isEmpty { return .open }
        if rest.elementsEqual([0x2D, 0x2D]) { return .close }
        return nil
    }

    /// The line break before a boundary belongs to the boundary (RFC 2046), not to the section.
    static func trimmingLineBreak(before index: Int, in body: ArraySlice<UInt8>, from start: Int) -> Int {
        var end = index
        if end > start, body[end - 1] == 0x0A { end -= 1 }
        if end > start, body[end - 1] == 0x0D { end -= 1 }
        return end
    }

    /// A boundary guessed from the body: the first line that starts with `--`, is not a close
    /// delimiter, and appears again. Used when the declared boundary is missing or wrong.
    static func guessBoundary(in body: ArraySlice<UInt8>) -> String? {
        var lineStart = body.startIndex
        var candidates = 0
        while lineStart < body.endIndex && candidates < 50 {
            var lineEnd = lineStart
            while lineEnd < body.endIndex && body[lineEnd] != 0x0A { lineEnd += 1 }
            var line = body[lineStart..<lineEnd]
            while let last = line.last, last == 0x0D || last == 0x20 { line = line.dropLast() }
            if line.count > 3, line.first == 0x2D, line[line.startIndex + 1] == 0x2D {
                candidates += 1
                let name = Array(line.dropFirst(2))
                if name.count <= 200, !name.contains(0x20), split(body, boundary: name).map({ $0.count >= 1 }) == true,
                    occurrences(of: line, in: body) >= 2
                {
                    return String(decoding: name, as: UTF8.self)
                }
            }
            lineStart = lineEnd < body.endIndex ? lineEnd + 1 : lineEnd
        }
        return nil
    }

    private static func occurrences(of line: ArraySlice<UInt8>, in body: ArraySlice<UInt8>) -> Int {
        var count = 0
        var lineStart = body.startIndex
        while lineStart < body.endIndex && count < 2 {
            var lineEnd = lineStart
            while lineEnd < body.endIndex && body[lineEnd] != 0x0A { lineEnd += 1 }
            if body[lineStart..<lineEnd].starts(with: line) { count += 1 }
            lineStart = lineEnd < body.endIndex ? lineEnd + 1 : lineEnd
        }
        return count
    }
}
