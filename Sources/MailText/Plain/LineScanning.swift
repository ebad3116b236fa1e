/// Small, allocation-free questions the plain-text scanners ask about one line.
///
/// Everything here looks at the UTF-8 view first because it runs on every line of every message; the
/// Character-based fallbacks only run past the first visible character.
extension Substring {
    /// True when the line holds nothing but whitespace (spaces, tabs, non-breaking spaces).
    var isBlankLine: Bool {
        allSatisfy(\.isWhitespace)
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
        var slice = self
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return slice
    }

    /// The line without trailing whitespace.
    var trimmedTrailing: Substring {
        var slice = self
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return slice
    }

    /// The line without leading whitespace.
    var trimmedLeading: Substring {
        var slice = self
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        return slice
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
func splitLines(_ text: String) -> [Substring] {
    text.split(separator: "\n", omittingEmptySubsequences: false)
}
