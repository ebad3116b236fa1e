/// What one line is, as far as unwrapping cares.
enum WrappedLineKind: Sendable {
    case blank, quote, listItem, code, url, structural, prose
}

/// A line measured and classified once, so ``Unwrapper`` decides joins without rescanning text.
struct WrappedLine: Sendable {
    let kind: WrappedLineKind
    /// Unicode scalars without trailing whitespace: close to columns for the scripts wrapped at 72.
    let length: Int
    let indent: Int
    let firstWordLength: Int
    let endsWithColon: Bool
    let hasInnerSpace: Bool
    /// Ends in ".", "!" or "?" (possibly before a closing quote or bracket).
    let endsSentence: Bool
    /// At most three words: "Thanks,", "Best regards,", "Ann".
    /// "Key: value" with a one-word key ("Reviewed-by: Ann", "Date: Monday"): a list of fields, not prose.
    let isField: Bool
    /// Starts a patch ("diff --git", "--- a/", "@@ -"): nothing after it is unwrapped.
    let startsPatch: Bool
    let isFewWords: Bool
    let endsWithComma: Bool

    init(_ line: Substring) {
        let body = line.trimmed
        indent = line.leadingIndent
        length = line.trimmedTrailing.unicodeScalars.count
        firstWordLength = body.unicodeScalars.prefix { $0 != " " && $0 != "\t" }.count
        let lastScalar = body.lastScalar
        endsWithColon = lastScalar == ":" || lastScalar == "："
        // Only asked about lines too long to be wrapped; skip the scan for the rest.
        hasInnerSpace = length > Unwrapper.maximumWrapWidth && body.utf8.contains(UInt8(ascii: " "))
        var end = body.unicodeScalars
        while let last = end.last, last == "\"" || last == ")" || last == "'" || last == "”" { end = end.dropLast() }
        endsSentence = end.last == "." || end.last == "!" || end.last == "?" || end.last == "。"
        let words = body.utf8.reduce(into: 1) { count, byte in if byte == UInt8(ascii: " ") { count += 1 } }
        isFewWords = words <= 3
        isField = Self.isFieldLine(body)
        startsPatch =
            body.startsWithBytes("diff --git ") || body.startsWithBytes("--- a/") || body.startsWithBytes("@@ -")
            || body.startsWithBytes("Index: ")
        endsWithComma = lastScalar == "," || lastScalar == "，"
        kind = Self.classify(line, body: body, indent: indent)
    }

    private static func classify(_ line: Substring, body: Substring, indent: Int) -> WrappedLineKind {
        guard let first = body.unicodeScalars.first else { return .blank }
        if first == ">" { return .quote }
        if first == "↪" { return .structural }
        if indent < 8 && isListItem(body) { return .listItem }
        if indent >= 4 || line.utf8.first == UInt8(ascii: "\t") { return .code }
        if isURL(body) { return .url }
        if isRule(body) { return .structural }
        if isCodeLike(body) { return .code }
        return .prose
    }

    /// A key of letters, digits and dashes up to 30 bytes, then ": ".
    static func isFieldLine(_ body: Substring) -> Bool {
        var length = 0
        var previous: UInt8 = 0
        for byte in body.utf8 {
            if byte == UInt8(ascii: " ") { return previous == UInt8(ascii: ":") && length > 1 }
            length += 1
            guard length <= 30 else { return false }
            let isKeyByte =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            guard isKeyByte || byte == UInt8(ascii: ":") else { return false }
            previous = byte
        }
        return false
    }

    /// "- ", "* ", "• ", "+ ", "1. ", "12) ", "a) ".
    static func isListItem(_ body: Substring) -> Bool {
        let bytes = Array(body.utf8.prefix(5))
        guard let first = bytes.first else { return false }
        if body.startsWithBytes("• ") { return true }
        if (first == UInt8(ascii: "-") || first == UInt8(ascii: "*") || first == UInt8(ascii: "+")) && bytes.count > 1 {
            return bytes[1] == UInt8(ascii: " ")
        }
        var digits = 0
        while digits < bytes.count && digits < 3 && bytes[digits] >= UInt8(ascii: "0")
            && bytes[digits] <= UInt8(ascii: "9")
        {
            digits += 1
        }
        if digits > 0 && digits + 1 < bytes.count {
            let mark = bytes[digits]
            return (mark == UInt8(ascii: ".") || mark == UInt8(ascii: ")")) && bytes[digits + 1] == UInt8(ascii: " ")
        }
        let isLetter =
            (first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z"))
            || (first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z"))
        return isLetter && bytes.count > 2 && bytes[1] == UInt8(ascii: ")") && bytes[2] == UInt8(ascii: " ")
    }

    /// A line that is only a link: "https://…", "www.…" or "<https://…>".
    static func isURL(_ body: Substring) -> Bool {
        var link = body
        if link.utf8.first == UInt8(ascii: "<") && link.utf8.last == UInt8(ascii: ">") {
            link = link.dropFirst().dropLast()
        }
        guard !link.utf8.contains(UInt8(ascii: " ")) else { return false }
        return link.startsWithBytes("http://") || link.startsWithBytes("https://") || link.startsWithBytes("www.")
            || link.startsWithBytes("mailto:")
    }

    /// "-----", "=====", "_____", "*****".
    static func isRule(_ body: Substring) -> Bool {
        guard body.utf8.count >= 3, let first = body.utf8.first else { return false }
        let ruleBytes: [UInt8] = [
            UInt8(ascii: "-"), UInt8(ascii: "="), UInt8(ascii: "_"), UInt8(ascii: "*"),
            UInt8(ascii: "~"), UInt8(ascii: "#"),
        ]
        return ruleBytes.contains(first) && body.utf8.allSatisfy { $0 == first }
    }

    /// Shell prompts, statements ending in `;`/`{`/`}`, tables, and lines dense with `{}();=<>[]|`.
    static func isCodeLike(_ body: Substring) -> Bool {
        if body.startsWithBytes("$ ") || body.startsWithBytes("# ") || body.startsWithBytes("% ")
            || body.startsWithBytes(">>> ")
        {
            return true
        }
        if let last = body.utf8.last,
            last == UInt8(ascii: ";") || last == UInt8(ascii: "{") || last == UInt8(ascii: "}")
        {
            return true
        }
        var symbols = 0
        var pipes = 0
        var visible = 0
        for byte in body.utf8 where byte != UInt8(ascii: " ") {
            visible += 1
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ";"),
                UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"):
                symbols += 1
            case UInt8(ascii: "|"):
                pipes += 1
            default:
                break
            }
        }
        if pipes >= 2 { return true }
        return symbols >= 3 && symbols * 10 >= visible
    }
}
