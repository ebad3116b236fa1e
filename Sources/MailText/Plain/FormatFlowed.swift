/// Decodes `format=flowed` plain text (RFC 3676) into one line per paragraph.
///
/// Flowed text marks soft line breaks with a trailing space, so unlike hard-wrapped text it can be unwrapped
/// exactly, without guessing from line lengths. ``PlainTextCleaner`` therefore skips ``Unwrapper`` for it.
public enum FormatFlowed {
    /// Joins soft-broken lines of a `format=flowed` body.
    ///
    /// Rules, from RFC 3676 §4:
    /// - the quote depth is the number of leading `>`; after them one space of stuffing is removed (§4.4);
    /// - a line ending in a space is flowed and joins the next line, but only when both have the same quote
    ///   depth (§4.5); with `delSp` (the `DelSp=yes` parameter) that one trailing space is deleted first (§4.2);
    /// - the signature separator `-- ` is never flowed (§4.3);
    /// - a flowed line never swallows a following empty line: generators are not meant to emit that, and joining
    ///   would merge two paragraphs.
    ///
    /// Quoted lines come out as `>` repeated depth times, a space, and the joined text, so the `>` rules
    /// downstream still see them.
    /// - Parameters:
    ///   - text: the body with "\n" line endings.
    ///   - delSp: the `DelSp` parameter of the `Content-Type`.
    /// - Returns: the text with each flowed paragraph on one line.
    public static func decode(_ text: String, delSp: Bool) -> String {
        var output: [String] = []
        var paragraph = ""
        var paragraphDepth = -1  // -1: no open paragraph

        func close() {
            guard paragraphDepth >= 0 else { return }
            output.append(render(depth: paragraphDepth, text: paragraph))
            paragraph = ""
            paragraphDepth = -1
        }

        for raw in splitLines(text) {
            let (depth, content) = split(raw)
            let isSignatureSeparator = content == "-- "
            if paragraphDepth >= 0 && (depth != paragraphDepth || content.isEmpty || isSignatureSeparator) {
                close()  // §4.5: different depth ends the paragraph; an empty line is a paragraph break
            }
            let isFlowed = !isSignatureSeparator && content.last == " "
            if paragraphDepth < 0 { paragraphDepth = depth }
            if isFlowed {
                paragraph += delSp ? content.dropLast() : content
            } else {
                paragraph += content
                close()
            }
        }
        close()
        return output.joined(separator: "\n")
    }

    /// The quote depth and the content after quote markers and space-stuffing.
    private static func split(_ line: Substring) -> (depth: Int, content: Substring) {
        var depth = 0
        var rest = line
        while rest.first == ">" {
            depth += 1
            rest = rest.dropFirst()
        }
        if rest.first == " " { rest = rest.dropFirst() }  // §4.4 space-stuffing (or the space after `>`)
        return (depth, rest)
    }

    private static func render(depth: Int, text: String) -> String {
        depth == 0 ? text : String(repeating: ">", count: depth) + " " + text
    }
}
