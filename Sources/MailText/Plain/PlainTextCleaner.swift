/// The text of one plain-text message as a chat bubble shows it, and what was taken out to get there.
public struct PlainTextCleaning: Sendable, Equatable {
    /// The cleaned text: no quotes, no signature, paragraphs on one line each.
    public var text: String
    /// True when a quoted reply, attribution, header block or "Original Message" tail was removed.
    public var removedQuote: Bool
    /// True when a signature or mobile footer was removed.
    public var removedSignature: Bool
    /// True when the message forwards another one (shown, with a "↪ Forwarded message" marker line).
    public var forwarded: Bool

    public init(text: String, removedQuote: Bool, removedSignature: Bool, forwarded: Bool) {
        self.text = text
        self.removedQuote = removedQuote
        self.removedSignature = removedSignature
        self.forwarded = forwarded
    }
}

/// Turns a text/plain body into bubble text.
///
/// The order is the point: quotes and signatures are found on the raw lines, and only what remains is unwrapped.
/// Unwrapping first would glue `>` lines, attribution lines and header blocks into the prose around them, and the
/// detectors would no longer see them.
public enum PlainTextCleaner {
    /// Cleans one body.
    ///
    /// Steps, in order: (a) ``FormatFlowed/decode(_:delSp:)`` when `isFlowed`; (b) ``QuoteStripper``;
    /// (c) ``SignatureStripper``; (d) ``Unwrapper`` unless `isFlowed` (flowed text is already unwrapped);
    /// (e) tidy: trailing spaces trimmed per line, runs of blank lines collapsed to one, blank lines at both ends
    /// removed.
    ///
    /// Never returns blank text for input with visible text: each stripper keeps its part when removing it would
    /// empty the message.
    /// - Parameters:
    ///   - text: the decoded body with "\n" line endings.
    ///   - isFlowed: the `Content-Type` has `format=flowed`.
    ///   - delSp: the `Content-Type` has `delsp=yes`.
    ///   - isForward: the subject marks a forward (see ``QuoteStripper/strip(_:isForward:)``).
    public static func clean(_ text: String, isFlowed: Bool = false, delSp: Bool = false, isForward: Bool = false)
        -> PlainTextCleaning
    {
        let decoded = isFlowed ? FormatFlowed.decode(text, delSp: delSp) : text
        let quotes = QuoteStripper.strip(splitLines(decoded), isForward: isForward)
        let signature = SignatureStripper.strip(quotes.kept)
        let body = isFlowed ? signature.kept : Unwrapper.unwrapLines(signature.kept)
        var cleaned = tidy(body)
        if cleaned.isEmpty && splitLines(text).hasVisibleText {
            cleaned = tidy(splitLines(decoded))  // defensive: the strippers already refuse to empty a message
        }
        return PlainTextCleaning(
            text: cleaned,
            removedQuote: quotes.removed,
            removedSignature: signature.removed,
            forwarded: quotes.forwarded
        )
    }

    /// Trims trailing whitespace on each line, collapses runs of blank lines into one, and drops blank lines at
    /// the start and end.
    static func tidy(_ lines: [Substring]) -> String {
        var output: [Substring] = []
        output.reserveCapacity(lines.count)
        var pendingBlank = false
        for line in lines {
            let trimmed = line.trimmedTrailing
            if trimmed.isBlankLine {
                pendingBlank = !output.isEmpty
                continue
            }
            if pendingBlank { output.append("") }
            pendingBlank = false
            output.append(trimmed)
        }
        return output.joined(separator: "\n")
    }
}
