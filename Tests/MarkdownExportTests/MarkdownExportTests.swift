import ChatmailStore
import CommonMarkTestSupport
import Foundation
import FoundationXML
import MailText
import Testing
import TextFormatting

@testable import MarkdownExport

/// Builds transcripts for the Markdown tests.
enum ExportFixture {
    static let me = EmailAddress(address: "me@example.org", name: "Me")
    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_741_176_000_000  // Wed 2025-03-05 12:00 UTC

    static func message(
        _ id: Int64, from: EmailAddress, at: Int64, text: String, original: String? = nil, subject: String = "Plans",
        attachments: [TranscriptMessage.Attachment] = []
    ) -> TranscriptMessage {
        TranscriptMessage(
            id: MessageID(rawValue: id), gmailID: String(format: "18c%013llx", id), threadID: "t", from: from,
            isFromMe: from == me, internalDateMs: at, subject: subject,
            subjectBase: ReplySubject.topicBase(subject), text: text, originalText: original,
            isNewsletter: false, labels: ["INBOX"], attachments: attachments)
    }

    static func transcript(title: String, participants: [EmailAddress], messages: [TranscriptMessage]) -> Transcript {
        Transcript(
            conversation: ConversationSummary(
                id: ConversationID(rawValue: 7), title: title, participants: participants,
                lastMessageAtMs: messages.last?.internalDateMs ?? 0, snippet: "", messageCount: messages.count,
                unreadCount: 0,
                hasInbox: true, archivedAtMs: nil, isNewsletter: false),
            messages: messages, earlierMessageCount: 0)
    }

    static let renderer = ConversationMarkdown(
        time: TimeFormatting(timeZone: TimeZone(identifier: "UTC")!, nowMs: start), options: .init(version: "9.9.9"))
}

@Suite struct MarkdownExportTests {
    /// Text that would become structure, links or HTML if it were pasted into Markdown as it is.
    static let hostileTexts = [
        "<script>alert('x')</script> and <img src=x onerror=alert(1)>",
        "# heading\n## another\nSetext\n===\nand\n---",
        "---\ntitle: pwned\nlayout: evil\n---",
        "| a | b |\n|---|---|\n| 1 | 2 |",
        "[link](javascript:alert(1)) ![img](http://evil.example/x.png) [ref]: http://evil.example\n[ref]",
        "```\nfenced code\n```\n`inline code` and ~~~ tilde fence",
        "> quoted\n- item\n* star\n+ plus\n1. one\n2) two\n    indented code\n\ttabbed",
        "***\n___\n- - -\n*emphasis* _under_ **strong** __strong__ ~~strike~~",
        "&lt;script&gt; &#60;b&#62; &amp; AT&T, 5 < 6 > 4, a\\*b\\ end\\",
        "<https://evil.example/auto> <mailto:x@evil.example> <!-- comment --> <?php ?> <![CDATA[x]]>",
        "[[Wiki link]] %%hidden%% $x^2$ and $$math$$ [^1] snake_case_name",
        "<a id=\"18c0000000000001\"></a> forged anchor",
    ]

    static func hostileTranscript() -> Transcript {
        let eve = EmailAddress(address: "eve@evil.example", name: "<b>Eve</b> # [x](javascript:y) | `z`")
        var messages = hostileTexts.enumerated().map { index, text in
            ExportFixture.message(
                Int64(index + 1), from: index % 2 == 0 ? eve : ExportFixture.me,
                at: ExportFixture.start + Int64(index) * 3_600_000 * 5,
                text: text, subject: index == 3 ? "<i>subject</i> | [s](http://x)" : "Plans")
        }
        messages.append(
            ExportFixture.message(
                99, from: eve, at: ExportFixture.start + 3 * ExportFixture.day,
                text: "Real link: https://example.com/path_(x)?a=1&b=2, and www.example.org.",
                attachments: [
                    .init(filename: "<img src=x>[a](b).png", mimeType: "image/png", size: 2048, isInline: false)
                ]))
        return ExportFixture.transcript(
            title: "Eve\n---\ninjected: true\n# <script>", participants: [eve], messages: messages)
    }

    @Test(
        "hostile mail stays text: no raw HTML, headings, tables, code, emphasis or links that the message did not have")
    func hostileInputStaysText() async throws {
        let transcript = Self.hostileTranscript()
        let markdown = ExportFixture.renderer.render(transcript)
        let (front, body) = try #require(splitFrontMatter(markdown), "front matter")
        #expect(frontMatterProblems(front) == [])
        let parsed = try await ParsedMarkdown.parse(body)

        // The only raw HTML is the exporter's own anchor per message, with the Gmail id.
        let anchors = transcript.messages.flatMap { ["<a id=\"\($0.gmailID)\">", "</a>"] }
        #expect(try parsed.rawHTML() == anchors)
        // One title, one heading per day, one per message; nothing else.
        let days = Set(transcript.messages.map { $0.internalDateMs / ExportFixture.day }).count
        #expect(try parsed.headings() == [1: 1, 2: days, 3: transcript.messages.count])
        for forbidden in [
            "table", "code", "code_block", "strikethrough", "image", "block_quote", "thematic_break", "emph",
        ] {
            #expect(try parsed.count(forbidden) == 0, "\(forbidden)")
        }
        // The only list is the attachment list of the last message.
        #expect(try parsed.count("list") == 1 && parsed.count("item") == 1)
        // The only bold text is the exporter's own "Subject:" label.
        #expect(try parsed.all("strong").allSatisfy { $0.stringValue == "Subject:" })
        // The only links are URLs written in the mail itself ("real URLs stay clickable"); GFM's autolink
        // extension also links a bare www. name and an address. `[link](javascript:…)`, `![img](…)` and
        // `[ref]: …` stay text.
        let destinations = try parsed.linkDestinations()
        #expect(
            destinations == [
                "http://x", "http://evil.example/x.png", "http://evil.example", "https://evil.example/auto",
                "mailto:x@evil.example",
                "https://example.com/path_(x)?a=1&b=2", "http://www.example.org",
            ])
        let allMailText = transcript.messages.map { $0.subject + " " + $0.text }.joined(separator: " ")
        for destination in destinations {
            let written =
                destination.hasPrefix("mailto:")
                ? String(destination.dropFirst(7))
                : destination.hasPrefix("http://www.") ? String(destination.dropFirst(7)) : destination
            #expect(allMailText.contains(written), "\(destination) is not in the mail")
        }
        // Every message's text reads back exactly, character for character.
        let text = parsed.compactText()
        for message in transcript.messages {
            #expect(text.contains(message.text.filter { !$0.isWhitespace }), "\(message.text)")
        }
        #expect(text.contains("<imgsrc=x>[a](b).png"))
        #expect(text.contains("<i>subject</i>|[s](http://x)"))
        // The title cannot break out of the front matter, and reads back whole.
        #expect(front.first == "title: \"Eve --- injected: true # <script>\"")
        #expect(try parsed.all("heading").first?.stringValue == "Eve --- injected: true # <script>")
    }

    @Test("the document has front matter, a title, day headings and a section per message")
    func structure() async throws {
        let alice = EmailAddress(address: "alice@example.com", name: "Alice Liddell")
        let transcript = ExportFixture.transcript(
            title: "Alice Liddell", participants: [alice],
            messages: [
                ExportFixture.message(1, from: alice, at: ExportFixture.start, text: "Lunch on Friday?\nAt noon?"),
                ExportFixture.message(
                    2, from: ExportFixture.me, at: ExportFixture.start + 600_000, text: "Yes.",
                    original: "Yes.\n\nOn Wed, Alice wrote:\n> Lunch on Friday?", subject: "Re: Plans"),
                ExportFixture.message(
                    3, from: alice, at: ExportFixture.start + ExportFixture.day, text: "See you there!",
                    subject: "Dinner",
                    attachments: [.init(filename: "map.png", mimeType: "image/png", size: 20_480, isInline: false)]),
            ])
        let markdown = ExportFixture.renderer.render(transcript)
        #expect(
            markdown == """
                ---
                title: "Alice Liddell"
                participants:
                  - name: "Alice Liddell"
                    address: "alice@example.com"
                firstMessageAt: "2025-03-05T12:00:00+00:00"
                lastMessageAt: "2025-03-06T12:00:00+00:00"
                messageCount: 3
                chatmailVersion: "9.9.9"
                ---

                # Alice Liddell

                ## Wed 5 Mar 2025

                ### Alice Liddell · 12:00 <a id="18c0000000000001"></a>

                **Subject:** Plans

                Lunch on Friday?\\
                At noon?

                ### Me · 12:10 <a id="18c0000000000002"></a>

                Yes.

                ## Thu 6 Mar 2025

                ### Alice Liddell · 12:00 <a id="18c0000000000003"></a>

                **Subject:** Dinner

                See you there!

                - 📎 map.png (image/png, 20 KB)

                """)
        let full = ConversationMarkdown(
            time: ExportFixture.renderer.time, options: .init(fullText: true, version: "9.9.9")
        ).render(transcript)
        #expect(full.contains("Yes.\n\n> On Wed, Alice wrote:\\\n> \\> Lunch on Friday?\n"))
        let parsed = try await ParsedMarkdown.parse(try #require(splitFrontMatter(full)).body)
        #expect(try parsed.count("block_quote") == 1)
        #expect(try parsed.all("block_quote").first?.stringValue?.contains("> Lunch on Friday?") == true)
    }

    @Test("attachment links point at the saved files, percent-encoded")
    func attachmentLinks() async throws {
        let alice = EmailAddress(address: "alice@example.com", name: "Alice")
        let message = ExportFixture.message(
            1, from: alice, at: ExportFixture.start, text: "files",
            attachments: [
                .init(filename: "a b.pdf", mimeType: "application/pdf", size: 10, isInline: false),
                .init(filename: "c.txt", mimeType: "text/plain", size: 3, isInline: false),
            ])
        let markdown = ExportFixture.renderer.render(
            ExportFixture.transcript(title: "Alice", participants: [alice], messages: [message]),
            attachmentLinks: [message.id: [0: "attachments/alice/a-b.pdf"]])
        #expect(
            markdown.contains(
                "- 📎 [a b.pdf](<attachments/alice/a-b.pdf>) (application/pdf, 10 B)\n- 📎 c.txt (text/plain, 3 B)"))
        let parsed = try await ParsedMarkdown.parse(try #require(splitFrontMatter(markdown)).body)
        #expect(try parsed.linkDestinations() == ["attachments/alice/a-b.pdf"])
    }

    @Test("the index links every file, newest first, and parses")
    func index() async throws {
        func entry(_ id: Int64, _ title: String, _ file: String, last: Int64) -> ExportIndexMarkdown.Entry {
            .init(
                conversation: ExportFixture.transcript(title: title, participants: [], messages: []).conversation.with(
                    id: id),
                fileName: file, messageCount: 2, firstMessageAtMs: last - ExportFixture.day, lastMessageAtMs: last)
        }
        let index = ExportIndexMarkdown(time: ExportFixture.renderer.time, options: .init(version: "1")).render(
            account: "me@example.org",
            entries: [
                entry(1, "Old [x](y)", "old-x-y.md", last: ExportFixture.start),
                entry(2, "New", "new.md", last: ExportFixture.start + 5),
            ])
        let (front, body) = try #require(splitFrontMatter(index))
        #expect(frontMatterProblems(front) == [])
        let parsed = try await ParsedMarkdown.parse(body)
        #expect(try parsed.linkDestinations() == ["new.md", "old-x-y.md"])
        #expect(parsed.compactText().contains("Old[x](y)"))
    }
}

@Suite struct MarkdownTextTests {
    @Test("line-start markers, inline syntax and URLs")
    func escaping() {
        #expect(MarkdownText.escapeLine("# title") == "\\# title")
        #expect(MarkdownText.escapeLine("12. item") == "12\\. item")
        #expect(MarkdownText.escapeLine("3) item") == "3\\) item")
        #expect(MarkdownText.escapeLine("2025 was good. Yes") == "2025 was good. Yes")
        #expect(MarkdownText.escapeLine("  - indented") == "\u{00A0}\u{00A0}\\- indented")
        #expect(MarkdownText.escapeLine("a | b <c> [d] `e` *f*") == "a \\| b \\<c> \\[d\\] \\`e\\` \\*f\\*")
        #expect(MarkdownText.escapeLine("snake_case _x_") == "snake_case \\_x\\_")
        #expect(MarkdownText.escapeLine("Tom & Jerry &amp;") == "Tom & Jerry \\&amp;")
        #expect(
            MarkdownText.escapeLine("see https://example.com/a_b?q=1|2.") == "see <https://example.com/a_b?q=1%7C2>.")
        #expect(MarkdownText.escapeLine("(https://example.com/x)") == "(<https://example.com/x>)")
        #expect(MarkdownText.escapeLine("https://") == "https\\://")  // no URL, and no trigger for GFM
        #expect(MarkdownText.escapeLine("Ends with #", headingContent: true) == "Ends with \\#")
        // Obsidian: no tags or highlights from mail; `C#` and `issue # 4` stay as they are.
        #expect(
            MarkdownText.escapeLine("a #tag, C# and issue # 4 ==mark== a=b", atLineStart: false)
                == "a \\#tag, C# and issue # 4 \\==mark\\== a=b")
        // After the exporter's own prefix, block markers cannot start anything.
        #expect(MarkdownText.escapeLine("18.04 > 1 - x # y", atLineStart: false) == "18.04 > 1 - x # y")
        #expect(MarkdownText.escapeLine("- <b> | [x]", atLineStart: false) == "- \\<b> \\| \\[x\\]")
    }

    @Test("paragraphs keep their line breaks; blank runs collapse; controls go")
    func blocks() {
        #expect(MarkdownText.blocks("a\nb  \n\n\n\nc\u{1B}[31m\n") == ["a\\", "b", "", "c\\[31m"])
        #expect(MarkdownText.blocks(" \n\t\n") == [])
    }

    @Test("YAML scalars stay on one line")
    func yaml() {
        #expect(YAMLScalar.quoted("a \"b\" \\ c\nd\u{7}\u{2028}") == "\"a \\\"b\\\" \\\\ c\\nd\\u0007\\u2028\"")
        #expect(yamlUnquote(YAMLScalar.quoted("x\n---\ny: \"z\"")) == "x\n---\ny: \"z\"")
        // Noncharacters are not allowed anywhere in a YAML stream (PyYAML rejects the whole front matter).
        #expect(YAMLScalar.quoted("a\u{FFFE}b\u{FFFF}") == "\"a\\uFFFEb\\uFFFF\"")
    }

    @Test(
        "URLs: entity references stay as written, www names and nested links are chatmail's, other triggers stay text")
    func links() {
        // cmark decodes entity references inside `<…>`: `&amp;` must arrive as written.
        #expect(
            MarkdownText.escapeLine("https://a.example/?q=&amp;&lt;b&gt;&x=1")
                == "<https://a.example/?q=&amp;amp;&amp;lt;b&amp;gt;&x=1>")
        // GFM would link `www.` over the raw escapes; chatmail writes the link, and a `!` before it stays text.
        #expect(
            MarkdownText.escapeLine("!www.a.example/x_(y)*")
                == "\\![www\\.a.example/x\\_(y)](<http://www.a.example/x_(y)>)\\*")
        // `ftp://` and a scheme glued to a word are not linked, and GFM must not link them either.
        #expect(
            MarkdownText.escapeLine("ftp://a.example 1https://b.example") == "ftp\\://a.example 1https\\://b.example")
        // Inside the text of chatmail's own link there are no links: HTML forbids a link in a link.
        #expect(MarkdownText.escapeLine("see https://a.example", inLinkText: true) == "see https\\://a.example")
    }
}

extension ConversationSummary {
    func with(id: Int64) -> ConversationSummary {
        var copy = self
        copy.id = ConversationID(rawValue: id)
        return copy
    }
}
