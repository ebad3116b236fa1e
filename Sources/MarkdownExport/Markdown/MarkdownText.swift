import TextFormatting

/// Turns email text into CommonMark that renders as exactly that text.
///
/// Email is hostile input: a body can hold `<script>`, `# heading`, `---`, `| table |`,
/// `[link](javascript:…)` or backticks. Every character that could open Markdown structure is
/// backslash-escaped (CommonMark lets any ASCII punctuation be escaped, and renders the escape as the
/// bare character), so the only structure in an export is the structure the exporter writes. The
/// rules, per line:
///
/// - always escaped: `\` `` ` `` `*` `[` `]` `<` `|` `~` `$` (no HTML, autolinks, links, images,
///   reference definitions, code spans or fences, emphasis, GFM tables or strikethrough, Obsidian
///   wikilinks or math);
/// - `_` unless it sits between two letters or digits (`snake_case` stays readable and cannot open
///   emphasis there); `&` before `#` or a letter (no entity references); `%` before `%` (Obsidian
///   comments), `=` before `=` (Obsidian highlights) and a `#` that starts a word (Obsidian tags, which
///   would fill a vault's tag list with whatever mail said);
/// - at the start of a line: `#` `>` `-` `+` `=` `:` and the `.`/`)` of `1.`/`1)` (no headings,
///   block quotes, lists, thematic breaks, setext underlines, front matter or table delimiter rows);
/// - leading spaces and tabs become no-break spaces, which keep the indentation visible without
///   starting an indented code block;
/// - `http://` and `https://` URLs become autolinks (`<https://…>`), and `www.` names links to
///   `http://…`, so real links stay clickable; the triggers of GFM's other extended autolinks
///   (`ftp://`, a scheme glued to a word) are escaped, since GFM would link them over the escapes.
///
/// Lines also go through ``TerminalSafeText``, the one terminal-safety function, so a file that is `cat` to a terminal is
/// as safe as chatmail's own output.
public enum MarkdownText {
    /// The text as paragraphs: lines of one paragraph end in a backslash hard break (email line breaks
    /// are meaningful), runs of blank lines become one paragraph break, trailing spaces are dropped.
    ///
    /// - Returns: the Markdown lines, with `""` between paragraphs; empty for text with no content.
    public static func blocks(_ text: String) -> [String] {
        var output: [String] = []
        var paragraph: [String] = []
        func endParagraph() {
            guard !paragraph.isEmpty else { return }
            if !output.isEmpty { output.append("") }
            for (index, line) in paragraph.enumerated() {
                output.append(index == paragraph.count - 1 ? line : line + "\\")
            }
            paragraph.removeAll()
        }
        for rawLine in TerminalSafeText.sanitize(text).split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = rawLine.trimmingTrailingWhitespace()
            if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) {
                endParagraph()
            } else {
                paragraph.append(
                    escapeNeutralized(Array(trimmed.unicodeScalars), atLineStart: true, headingContent: false))
            }
        }
        endParagraph()
        return output
    }

    /// One line of text made inert. Newlines must already be gone; see ``blocks(_:)`` for text.
    ///
    /// - Parameters:
    ///   - atLineStart: whether the text begins a line of the document; text placed after the exporter's
    ///     own prefix (`**Subject:** `, `### `, `- 📎 `) cannot open a block, so it needs fewer escapes.
    ///   - headingContent: also escape every `#`, so a trailing `#` is not taken for the closing sequence
    ///     of an ATX heading.
    ///   - inLinkText: the text goes between the `[` `]` of the exporter's own link, so URLs in it stay
    ///     text: a link inside a link is not CommonMark's to resolve (cmark nests them, which HTML forbids).
    public static func escapeLine(
        _ line: Substring, atLineStart: Bool = true, headingContent: Bool = false, inLinkText: Bool = false
    ) -> String {
        escapeNeutralized(
            Array(TerminalSafeText.sanitize(String(line)).unicodeScalars), atLineStart: atLineStart,
            headingContent: headingContent,
            autolinks: !inLinkText)
    }

    /// ``escapeLine(_:atLineStart:headingContent:)`` for scalars that already went through ``TerminalSafeText``.
    ///
    /// Works on Unicode scalars, as CommonMark itself does: an escape applies to one code point, whatever
    /// combining marks follow it.
    static func escapeNeutralized(
        _ scalars: [Unicode.Scalar], atLineStart: Bool, headingContent: Bool, autolinks: Bool = true
    ) -> String {
        var output = String.UnicodeScalarView()
        output.reserveCapacity(scalars.count + 8)
        var index = 0
        // Leading indentation: visible, but never an indented code block or a list continuation.
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" {
            output.append(
                contentsOf: scalars[index] == "\t"
                    ? "\u{00A0}\u{00A0}\u{00A0}\u{00A0}".unicodeScalars : "\u{00A0}".unicodeScalars)
            index += 1
        }
        let contentStart = index
        while index < scalars.count {
            let scalar = scalars[index]
            if autolinks, scalar == "h" || scalar == "H", let end = urlEnd(in: scalars, at: index) {
                output.append("<")
                output.append(
                    contentsOf: autolinkDestination(String(String.UnicodeScalarView(scalars[index..<end])))
                        .unicodeScalars)
                output.append(">")
                index = end
                continue
            }
            if autolinks, scalar == "w" || scalar == "W", let end = urlEnd(in: scalars, at: index, scheme: "www.") {
                // GFM links a bare `www.` name over the raw text, escapes and all, so chatmail writes the link
                // (and a `!` before it must not make it an image).
                if output.last == "!" {
                    output.removeLast()
                    output.append(contentsOf: "\\!".unicodeScalars)
                }
                output.append("[")
                output.append(
                    contentsOf: escapeNeutralized(
                        Array(scalars[index..<end]), atLineStart: false, headingContent: headingContent,
                        autolinks: false
                    ).unicodeScalars)
                output.append(contentsOf: "](<http://".unicodeScalars)
                output.append(
                    contentsOf: autolinkDestination(String(String.UnicodeScalarView(scalars[index..<end])))
                        .unicodeScalars)
                output.append(contentsOf: ">)".unicodeScalars)
                index = end
                continue
            }
            let atStart = atLineStart && index == contentStart
            let previous = index > 0 ? scalars[index - 1] : nil
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if needsEscape(scalar, previous: previous, next: next, atStart: atStart, headingContent: headingContent)
                || opensExtendedAutolink(scalars, at: index)
            {
                output.append("\\")
            }
            output.append(scalar)
            // `1.` / `12)` at the start of a line: escape the delimiter of an ordered-list marker.
            if atStart, scalar.isASCIIDigit {
                var end = index + 1
                while end < scalars.count, scalars[end].isASCIIDigit, end - index < 10 { end += 1 }
                if end < scalars.count, scalars[end] == "." || scalars[end] == ")" {
                    output.append(contentsOf: scalars[(index + 1)..<end])
                    output.append("\\")
                    output.append(scalars[end])
                    index = end + 1
                    continue
                }
            }
            index += 1
        }
        return String(output)
    }

    static func needsEscape(
        _ c: Unicode.Scalar, previous: Unicode.Scalar?, next: Unicode.Scalar?, atStart: Bool, headingContent: Bool
    ) -> Bool {
        switch c {
        case "\\", "`", "*", "[", "]", "<", "|", "~", "$":
            return true
        case "#":
            let startsTag =
                !(previous?.isWordCharacter ?? false) && next.map { !$0.properties.isWhitespace && $0 != "#" } ?? false
            return atStart || headingContent || startsTag
        case "=":
            return atStart || next == "="
        case ">", "-", "+", ":":
            return atStart
        case "_":
            return !(previous?.isWordCharacter ?? false) || !(next?.isWordCharacter ?? false)
        case "&":
            return next == "#" || (next?.isASCIILetter ?? false)
        case "%":
            return next == "%"
        default:
            return false
        }
    }

    /// Whether the scalar at `index` would let GFM's extended autolinks start a link over raw text (where
    /// the escapes around it would show): the `:` of `://` (`ftp://`, or `1https://`, which chatmail does
    /// not link) and the `.` of `www.`. Escaping it turns the trigger into plain text. (GFM links mail
    /// addresses after parsing, in plain text, so those links read exactly as the mail did.)
    static func opensExtendedAutolink(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        switch scalars[index] {
        case ":": return matches("://", scalars, at: index)
        case ".": return index >= 3 && matches("www.", scalars, at: index - 3)
        default: return false
        }
    }

    /// Where a URL starting at `index` with `scheme` (`http://` and `https://` by default) ends, GFM-style:
    /// it runs to whitespace or `<`, then loses trailing punctuation and unbalanced closing parentheses.
    /// `nil` when no URL starts there.
    static func urlEnd(in scalars: [Unicode.Scalar], at index: Int, scheme: String? = nil) -> Int? {
        if index > 0, scalars[index - 1].isWordCharacter { return nil }
        guard
            let scheme = (scheme.map { [$0] } ?? ["https://", "http://"]).first(where: {
                matches($0, scalars, at: index)
            })
        else {
            return nil
        }
        let start = index + scheme.unicodeScalars.count
        // `www.` must name a host; a URL scheme may be followed by anything that is not a space.
        if scheme == "www.", !(start < scalars.count && (scalars[start].isASCIILetter || scalars[start].isASCIIDigit)) {
            return nil
        }
        var end = start
        while end < scalars.count, !scalars[end].properties.isWhitespace, !"<>\"`".unicodeScalars.contains(scalars[end])
        {
            end += 1
        }
        // Trailing punctuation belongs to the sentence, and a `)` only to the URL when it closes a `(`.
        while end > start {
            let last = scalars[end - 1]
            if ".,:;!?'*_~".unicodeScalars.contains(last) {
                end -= 1
            } else if last == ")" {
                let slice = scalars[index..<end]
                if slice.filter({ $0 == ")" }).count > slice.filter({ $0 == "(" }).count { end -= 1 } else { break }
            } else {
                break
            }
        }
        return end > start ? end : nil
    }

    private static func matches(_ prefix: String, _ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var position = index
        for expected in prefix.unicodeScalars {
            guard position < scalars.count, scalars[position].properties.lowercaseMapping == String(expected) else {
                return false
            }
            position += 1
        }
        return true
    }

    /// The URL as an autolink destination. Backslash escapes do not work inside `<…>`, so the few
    /// characters that matter are percent-encoded: `|` (GFM splits table cells before inline parsing)
    /// and `\`; anything outside printable ASCII stays as it is (autolinks allow it). Parsers decode
    /// entity references in autolinks, so an `&` that begins one (`&amp;`, `&#60;`) is written `&amp;`:
    /// the link and its text then say what the mail said.
    static func autolinkDestination(_ url: String) -> String {
        let scalars = Array(url.unicodeScalars)
        var output = ""
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "|": output += "%7C"
            case "\\": output += "%5C"
            case "&" where beginsEntityReference(scalars, at: index): output += "&amp;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Whether the `&` at `index` could begin an entity or numeric character reference: `&name;`,
    /// `&#123;` or `&#x7B;` (generously: any letters and digits).
    static func beginsEntityReference(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var position = index + 1
        if position < scalars.count, scalars[position] == "#" {
            position += 1
            if position < scalars.count, scalars[position] == "x" || scalars[position] == "X" { position += 1 }
        }
        let start = position
        while position < scalars.count, position - start <= 32,
            scalars[position].isASCIIDigit || scalars[position].isASCIILetter
        {
            position += 1
        }
        return position > start && position < scalars.count && scalars[position] == ";"
    }

    /// A link destination for a relative path chatmail made itself (already safe characters), in
    /// pointy brackets with everything but unreserved characters and `/` percent-encoded.
    public static func linkDestination(path: String) -> String {
        var output = "<"
        for byte in path.utf8 {
            let isUnreserved =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x2F
            if isUnreserved {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output + ">"
    }
}

extension Unicode.Scalar {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    /// A letter or digit in any script: `_` between two of these cannot open or close emphasis.
    var isWordCharacter: Bool {
        if value < 0x80 { return isASCIIDigit || isASCIILetter }
        return properties.isAlphabetic || properties.numericType != nil
    }
}

extension Substring {
    func trimmingTrailingWhitespace() -> Substring {
        var end = endIndex
        while end > startIndex {
            let before = index(before: end)
            guard self[before] == " " || self[before] == "\t" else { break }
            end = before
        }
        return self[startIndex..<end]
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
