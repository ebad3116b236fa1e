import TextFormatting

/// What goes inside one message's bubble, wrapped to the bubble's width: the subject when the topic
/// changes, the bubble text (or the original with `--full`), a marker where quoted text was removed,
/// and the attachments. A newsletter becomes a compact card of its first lines.
///
/// All email-derived text passes through ``TerminalSafeText`` here, before it is measured or drawn.
struct BubbleContent {
    var maxWidth: Int
    var glyphs: Glyphs
    var showFullText: Bool

    /// Lines of body text a newsletter card shows.
    static let cardLineCount = 4

    /// What the bubble of a message with an empty body shows instead of text.
    static let noText = "(no text)"

    func lines(for message: BubbleMessage, showSubject: Bool) -> [BubbleLine] {
        var lines: [BubbleLine] = []
        let subject = TerminalSafeText.singleLine(message.subject)
        if (showSubject || message.isNewsletter) && !subject.isEmpty {
            lines += wrapped(subject, style: .bold)
        }
        let text = showFullText ? (message.originalText ?? message.text) : message.text
        var body = wrapped(TerminalSafeText.sanitize(Self.trimmingBlankLines(text)), style: nil)
        if message.isNewsletter && !showFullText {
            body.removeAll { $0.text.isEmpty }
            if body.count > Self.cardLineCount {
                body = Array(body.prefix(Self.cardLineCount)) + [BubbleLine(glyphs.ellipsis, style: .dim)]
            }
        }
        // An empty body is a valid message (a subject-only note, a bare attachment): say so rather than
        // leave a bubble that looks cut off. The Markdown export writes the same words.
        if body.allSatisfy({ $0.text.isEmpty }) {
            body = [BubbleLine(Self.noText, style: .dim)]
        }
        lines += body
        if !showFullText && message.originalText != nil {
            lines.append(BubbleLine(glyphs.removedText, style: .dim))
        }
        for attachment in message.attachments {
            lines += wrapped(attachmentLabel(attachment), style: nil)
        }
        return lines
    }

    /// "📎 name.pdf (240 KB)" on one line: a name too long for the bubble loses the middle of its stem,
    /// keeping its start and its extension, which are what people recognise.
    func attachmentLabel(_ attachment: BubbleMessage.Attachment) -> String {
        let safe = TerminalSafeText.singleLine(attachment.filename)
        let name = safe.isEmpty ? "attachment" : safe
        let prefix = glyphs.attachment + " "
        let suffix = " (" + ByteCount.format(attachment.size) + ")"
        let room = maxWidth - DisplayWidth.of(prefix) - DisplayWidth.of(suffix)
        guard DisplayWidth.of(name) > room, room >= 8 else { return prefix + name + suffix }
        var stem = Substring(name)
        var ext = Substring("")
        if let dot = name.lastIndex(of: "."), dot > name.startIndex, name.distance(from: dot, to: name.endIndex) <= 8 {
            stem = name[..<dot]
            ext = name[dot...]
        }
        let shortened =
            DisplayWidth.truncate(String(stem), toWidth: room - DisplayWidth.of(ext), ellipsis: glyphs.ellipsis) + ext
        return prefix + shortened + suffix
    }

    private func wrapped(_ text: String, style: Palette.Style?) -> [BubbleLine] {
        TextWrapper.wrap(text, width: maxWidth).map { BubbleLine($0, style: style) }
    }

    /// Drops blank lines at both ends, which would only make the bubble taller.
    static func trimmingBlankLines(_ text: String) -> String {
        // Fast path: most texts neither start nor end with whitespace.
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 }
        guard let first = text.utf8.first, let last = text.utf8.last, isBlank(first) || isBlank(last) else {
            return text
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
        while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
