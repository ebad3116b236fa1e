import ChatmailStore
import Foundation
import TextFormatting

/// Renders a whole conversation as a CommonMark document for people to keep: YAML front matter, a
/// title, a heading per day, and a section per message with the author, the local time and a stable
/// anchor (the Gmail id).
///
/// The output is a pure function of the transcript and the options, so re-exporting unchanged data
/// gives byte-identical files. The export time is therefore only written when the caller passes
/// one (`chatmail export --stamp`). All email-derived text goes through ``MarkdownText`` or
/// ``YAMLScalar``.
public struct ConversationMarkdown: Sendable {
    public struct Options: Sendable {
        /// Also show the quoted text and signatures that were removed from each bubble.
        public var fullText: Bool
        /// The chatmail version written in the front matter.
        public var version: String
        /// When set, the front matter records this as the export time.
        public var exportedAtMs: Int64?

        public init(fullText: Bool = false, version: String, exportedAtMs: Int64? = nil) {
            self.fullText = fullText
            self.version = version
            self.exportedAtMs = exportedAtMs
        }
    }

    public var time: TimeFormatting
    public var options: Options

    public init(time: TimeFormatting, options: Options) {
        self.time = time
        self.options = options
    }

    /// - Parameter attachmentLinks: for attachments that were saved beside the export, their relative
    ///   paths by message and by position in ``TranscriptMessage/attachments``.
    public func render(_ transcript: Transcript, attachmentLinks: [MessageID: [Int: String]] = [:]) -> String {
        var lines = frontMatter(transcript)
        lines.append("")
        lines.append(
            "# "
                + MarkdownText.escapeLine(
                    Substring(oneLine(transcript.conversation.title)), atLineStart: false, headingContent: true))
        var previous: TranscriptMessage?
        for message in transcript.messages {
            if previous.map({ time.dayNumber($0.internalDateMs) != time.dayNumber(message.internalDateMs) }) ?? true {
                lines.append("")
                lines.append("## " + time.dayHeading(message.internalDateMs))
            }
            lines.append("")
            lines.append(contentsOf: section(for: message, after: previous, links: attachmentLinks[message.id] ?? [:]))
            previous = message
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func frontMatter(_ transcript: Transcript) -> [String] {
        let conversation = transcript.conversation
        var lines = ["---", "title: " + YAMLScalar.quoted(oneLine(conversation.title))]
        if conversation.participants.isEmpty {
            lines.append("participants: []")
        } else {
            lines.append("participants:")
            for person in conversation.participants {
                if let name = person.name.map(oneLine), !name.isEmpty {
                    lines.append("  - name: " + YAMLScalar.quoted(name))
                    lines.append("    address: " + YAMLScalar.quoted(oneLine(person.address)))
                } else {
                    lines.append("  - address: " + YAMLScalar.quoted(oneLine(person.address)))
                }
            }
        }
        if let first = transcript.messages.first, let last = transcript.messages.last {
            lines.append("firstMessageAt: " + YAMLScalar.quoted(time.iso8601(first.internalDateMs)))
            lines.append("lastMessageAt: " + YAMLScalar.quoted(time.iso8601(last.internalDateMs)))
        }
        lines.append("messageCount: \(transcript.messages.count)")
        if conversation.isNewsletter { lines.append("newsletter: true") }
        if let exported = options.exportedAtMs {
            lines.append("exportedAt: " + YAMLScalar.quoted(time.iso8601(exported)))
        }
        lines.append("chatmailVersion: " + YAMLScalar.quoted(options.version))
        lines.append("---")
        return lines
    }

    func section(for message: TranscriptMessage, after previous: TranscriptMessage?, links: [Int: String]) -> [String] {
        let author =
            oneLine(message.from.name ?? "").isEmpty ? oneLine(message.from.address) : oneLine(message.from.name ?? "")
        var lines = [
            "### " + MarkdownText.escapeLine(Substring(author), atLineStart: false, headingContent: true) + " · "
                + time.clockTime(message.internalDateMs)
                + " " + Self.anchor(message.gmailID)
        ]
        // The subject is written where the topic changes (the stored base, which the chat compares too).
        if !message.subject.isEmpty, message.subjectBase != previous?.subjectBase {
            lines.append("")
            lines.append(
                "**Subject:** " + MarkdownText.escapeLine(Substring(oneLine(message.subject)), atLineStart: false))
        }
        let body = MarkdownText.blocks(message.text)
        lines.append("")
        lines.append(contentsOf: body.isEmpty ? ["*(no text)*"] : body)
        if options.fullText, let original = message.originalText {
            let removed = Self.removedPart(text: message.text, original: original)
            let quoted = MarkdownText.blocks(removed)
            if !quoted.isEmpty {
                lines.append("")
                lines.append(contentsOf: quoted.map { $0.isEmpty ? ">" : "> " + $0 })
            }
        }
        if !message.attachments.isEmpty {
            lines.append("")
            for (index, attachment) in message.attachments.enumerated() {
                let filename = Substring(oneLine(attachment.filename.isEmpty ? "attachment" : attachment.filename))
                let label =
                    links[index].map {
                        "[" + MarkdownText.escapeLine(filename, atLineStart: false, inLinkText: true) + "]("
                            + MarkdownText.linkDestination(path: $0) + ")"
                    } ?? MarkdownText.escapeLine(filename, atLineStart: false)
                let details =
                    MarkdownText.escapeLine(Substring(oneLine(attachment.mimeType)), atLineStart: false) + ", "
                    + ByteCount.format(attachment.size)
                lines.append("- 📎 " + label + " (" + details + ")")
            }
        }
        return lines
    }

    /// The HTML anchor of a message: its Gmail id, limited to characters that are valid in an HTML id
    /// and need no escaping (Gmail ids are hexadecimal; imported ids are too).
    static func anchor(_ gmailID: String) -> String {
        let id = String(
            gmailID.unicodeScalars.map { scalar -> Character in
                let c = Character(scalar)
                return c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_") ? c : "-"
            })
        return "<a id=\"\(id.isEmpty ? "-" : id)\"></a>"
    }

    /// The text `--full` adds: what follows the bubble text in the original, or the whole original
    /// when the bubble is not a prefix of it (the pipeline also cuts quotes at the top). Whitespace is
    /// ignored while matching, because the bubble's lines may have been re-flowed.
    static func removedPart(text: String, original: String) -> String {
        var position = original.startIndex
        for character in text where !character.isWhitespace {
            while position < original.endIndex, original[position].isWhitespace {
                position = original.index(after: position)
            }
            guard position < original.endIndex, original[position] == character else { return original }
            position = original.index(after: position)
        }
        return String(original[position...])
    }

    private func oneLine(_ text: String) -> String { TerminalSafeText.singleLine(text) }
}
