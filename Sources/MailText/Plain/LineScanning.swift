/// Small, allocation-free questions the plain-text scanners ask about one line.
///
/// Everything here looks at the UTF-8 view first because it runs on every line of every message; the
/// Character-based fallbacks only run past the first visible character.
extension Substring {
    /// True when the line holds nothing but whitespace (spaces, tabs, non-breaking spaces).
    var isBlankLine: Bool {
        for byte in utf8 {
            if isASCIISpace(byte) { continue }
            if byte < 0x80 { return false }
            return allSatisfy(\.isWhitespace)  // non-ASCII: NBSP, ideographic space… (rare, so slow path)
        }
        return true
    }

    /// True when the first visible character is `>`: the line belongs to a quoted reply.
    var isQuotedLine: Bool {
        for byte in utf8 {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { continue }
            return byte == UInt8(ascii: ">")
        }
        return false
    }

    /// Columns of leading indentation; a tab counts as four, the usual code indent.
    var leadingIndent: Int {
        var columns = 0
        for byte in utf8 {
            if byte == UInt8(ascii: " ") {
                columns += 1
            } else if byte == UInt8(ascii: "\t") {
                columns += 4
            } else {
                break
            }
        }
        return columns
    }

    /// The line without leading and trailing whitespace.
    var trimmed: Substring {
        trimmedLeading.trimmedTrailing
    }

    /// The line without trailing whitespace.
    var trimmedTrailing: Substring {
        let bytes = utf8
        var end = bytes.endIndex
        while end > bytes.startIndex {
            let before = bytes.index(before: end)
            let byte = bytes[before]
            if isASCIISpace(byte) {
                end = before
            } else if byte >= 0x80 {
                // Maybe a non-ASCII space: finish Character by Character.
                var slice = self[..<end]
                while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
                return slice
            } else {
                break
            }
        }
        return self[..<end]
    }

    /// The line without leading whitespace.
    var trimmedLeading: Substring {
        let bytes = utf8
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let byte = bytes[start]
            if isASCIISpace(byte) {
                bytes.formIndex(after: &start)
            } else if byte >= 0x80 {
                var slice = self[start...]
                while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
                return slice
            } else {
                break
            }
        }
        return self[start...]
    }

    /// `hasPrefix` on the UTF-8 bytes: the generic `hasPrefix` on `Substring` walks Characters and was the single
    /// biggest cost of classifying lines.
    @inline(__always)
    func startsWithBytes(_ prefix: String) -> Bool {
        utf8.starts(with: prefix.utf8)
    }

    /// The last Unicode scalar, found without grapheme breaking.
    var lastScalar: Unicode.Scalar? {
        unicodeScalars.last
    }

    /// The line with one level of `>` quoting removed (and the single space after it), for forwarded bodies.
    var removingOneQuoteLevel: Substring {
        let body = trimmedLeading
        guard body.first == ">" else { return self }
        let rest = body.dropFirst()
        return rest.first == " " ? rest.dropFirst() : rest
    }
}

extension Collection where Element == Substring {
    /// True when at least one line has visible text.
    var hasVisibleText: Bool {
        contains { !$0.isBlankLine }
    }
}

/// Splits text into lines on "\n", keeping empty lines (the caller has already normalized CRLF).
/// Splits on the "\n" byte rather than on Characters: a grapheme-aware split costs more than the rest of the
/// pipeline put together.
func splitLines(_ text: String) -> [Substring] {
    var lines: [Substring] = []
    let bytes = text.utf8
    var start = bytes.startIndex
    while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(text[start..<newline])
        start = bytes.index(after: newline)
    }
    lines.append(text[start...])
    return lines
}

/// Space, tab, carriage return, form feed, vertical tab.
@inline(__always)
func isASCIISpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0C || byte == 0x0B
}
