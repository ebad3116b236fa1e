import ArgumentParser
import ChatmailStore
import Foundation
import JSONOutput
import MailText
import RecordViews
import TerminalUI
import TextFormatting

/// `chatmail view`: renders any raw RFC 5322 message as a bubble; usable as a mail-client filter.
struct View: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render an email message (a .eml file or stdin) as a chat bubble.",
        discussion: "Exits 65 when the input is not an email message.")

    enum BodyKind: String, ExpressibleByArgument, CaseIterable {
        case html, text
    }

    @OptionGroup var output: OutputOptions

    @Argument(help: "The message file, or - for stdin.") var file: String = "-"
    @Option(help: "Treat the input as a bare body of this kind instead of a whole message: html or text.") var body:
        BodyKind?
    @Flag(help: "Show the whole text, with the quotes and signatures that were removed.") var full = false
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        let env = AppEnvironment(GlobalOptions(output: output))
        let bytes = try CommandInput.read(file)
        let pipeline = TextPipeline()
        let view: MessageView
        switch body {
        case .html?:
            let text = pipeline.text(ofHTML: try CommandInput.nonEmptyText(bytes, what: "HTML"))
            view = MessageView(body: text)
        case .text?:
            let text = pipeline.text(ofPlain: try CommandInput.nonEmptyText(bytes, what: "text"))
            view = MessageView(body: text)
        case nil:
            let parsed = ParsedMessage(raw: bytes)
            if let rejection = MessageValidation.rejection(of: parsed, bytes: bytes) {
                throw CommandError.notAMessage(CommandInput.name(file), rejection)
            }
            view = MessageView(pipeline.process(parsed))
        }
        try output(env) {
            try JSONRenderer(time: env.time).render(view, fullText: full)
        } text: {
            TranscriptRenderer(
                width: env.width, time: env.time, palette: env.palette, glyphs: env.glyphs, showFullText: full
            ).render(view.transcriptView(nowMs: env.time.nowMs))
        }
    }
}

extension MessageView {
    init(_ processed: ProcessedMessage) {
        let message = processed.message
        func address(_ mail: MailAddress) -> Person { Person(EmailAddress(address: mail.address, name: mail.name)) }
        self.init(
            from: message.sender.map(address), to: message.to.map(address), cc: message.cc.map(address),
            subject: message.subject, dateMs: message.dateMs, text: processed.text.text,
            originalText: processed.text.originalText, quotedTextRemoved: processed.text.quotedTextRemoved,
            isNewsletter: processed.newsletter.isNewsletter, newsletterReasons: processed.newsletter.reasons,
            attachments: message.attachments.map {
                Attachment(filename: $0.filename, mimeType: $0.mimeType, size: Int64($0.size))
            },
            sanitizedHTML: processed.text.sanitizedHTML)
    }

    /// A bare body (`--body html|text`): no headers, so no sender, date or attachments.
    init(body text: MessageText) {
        self.init(
            from: nil, to: [], cc: [], subject: "", dateMs: nil, text: text.text, originalText: text.originalText,
            quotedTextRemoved: text.quotedTextRemoved, isNewsletter: false, newsletterReasons: [], attachments: [],
            sanitizedHTML: text.sanitizedHTML)
    }
}
