import CommonMarkTestSupport
import Foundation
import FoundationXML
import Testing
import TextFormatting

@testable import MarkdownExport

/// Random mixtures of Markdown syntax, parsed by the real cmark-gfm: whatever the mail says, the export
/// must read back as exactly that text, with no structure the exporter did not write.
@Suite struct MarkdownFuzzTests {
    /// Pieces of Markdown, HTML, YAML and Obsidian syntax, plus the characters around them that change
    /// how they parse (spaces, tabs, line breaks, digits, letters, punctuation, non-ASCII).
    static let fragments: [String] = [
        "<", ">", "#", "##", "-", "=", "*", "_", "__", "`", "```", "~", "~~~", "[", "]", "(", ")", "!", "|", ":", ";",
        "&", "&lt;", "&#60;", "&#x3C;", "&amp;", "&script;", "\\", "\\\n", " ", "  ", "    ", "\t", "\n", "\n\n",
        "\r\n", "\r",
        "1.", "2)", "123456789.", "---", "===", "***", "+ ", "- ", "* ", "> ", "1. ", "[^1]", "[x]: ", "[x]", "](",
        "![",
        "https://a.example/p_q", "http://b.example/(x)", "https://c.example/?a=1&b=2", "https://d.example/&amp;x",
        "HTTPS://E.EXAMPLE/", "www.f.example", "x@g.example", "mailto:h@i.example", "javascript:alert(1)",
        "<a href=\"x\">",
        "<img src=x onerror=alert(1)>", "<!--", "-->", "<script>", "</script>", "<?php", "<![CDATA[",
        "<https://j.example>",
        "a", "b", "7", "é", "张", "é", "\u{A0}", "\u{3000}", "\u{0}", "\u{1B}[31m", "\u{202E}", "\u{2028}", "\u{FFFE}",
        "$", "$$", "%%", "==", "^", "{", "}", "\"", "'", ".", ",", "snake_case", "*emph*", "_under_", "~~strike~~",
        "\\*",
    ]

    /// A deterministic pseudo-random generator (SplitMix64), so a failure can be reproduced.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static func samples(count: Int, seed: UInt64) -> [String] {
        var random = Generator(state: seed)
        return (0..<count).map { _ in
            (0..<(1 + random.next(24))).map { _ in fragments[random.next(fragments.count)] }.joined()
        }
    }

    /// What ``MarkdownText/blocks(_:)`` promises a reader sees: the sanitized text, with trailing
    /// blanks dropped, leading indentation as no-break spaces, and runs of blank lines as one.
    static func expectedText(_ text: String) -> String {
        var paragraphs: [[String]] = [[]]
        for line in TerminalSafeText.sanitize(text).split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingTrailingWhitespace()
            if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) {
                if !(paragraphs.last?.isEmpty ?? true) { paragraphs.append([]) }
                continue
            }
            let indent = trimmed.prefix { $0 == " " || $0 == "\t" }
            let visibleIndent = indent.map { $0 == "\t" ? "\u{A0}\u{A0}\u{A0}\u{A0}" : "\u{A0}" }.joined()
            paragraphs[paragraphs.count - 1].append(visibleIndent + trimmed.dropFirst(indent.count))
        }
        // The parser's XML cannot carry U+FFFE, so the test reads it back as U+FFFD (see ParsedMarkdown.xmlSafe).
        return ParsedMarkdown.xmlSafe(
            paragraphs.filter { !$0.isEmpty }.map { $0.joined(separator: "\n") }.joined(separator: "\n\n"))
    }

    /// The text a reader sees in inline content, or a description of the first node that is not plain
    /// text, a line break or a web or mail link whose text is what the mail said.
    static func readBack(_ node: XMLNode, problems: inout [String]) -> String {
        var text = ""
        for child in node.children ?? [] {
            guard let element = child as? XMLElement else { continue }
            switch element.name {
            case "text": text += element.stringValue ?? ""
            case "linebreak": text += "\n"
            case "link":
                let destination = element.attribute(forName: "destination")?.stringValue ?? ""
                let scheme = destination.prefix { $0 != ":" }.lowercased()
                // GFM's extension links a mail address in plain text after parsing, so nothing can escape it;
                // before `mailto:` or `xmpp:` it takes the word in front as part of the scheme
                // (`b-mailto:h@i.example`): a link to exactly the text the mail shows, which no browser runs.
                let addressLink =
                    (scheme.hasSuffix("mailto") || scheme.hasSuffix("xmpp")) && destination == element.stringValue
                if !["http", "https", "mailto"].contains(scheme) && !addressLink {
                    problems.append("link to \(destination)")
                }
                if (element.children ?? []).contains(where: { $0.name != "text" }) {
                    problems.append("structure inside a link: \(element)")
                }
                // An autolink's text is its destination, in which chatmail percent-encodes `|` and `\`.
                func decoded(_ text: String) -> String {
                    text.replacingOccurrences(of: "%7C", with: "|").replacingOccurrences(of: "%5C", with: "\\")
                }
                let linkText = element.stringValue ?? ""
                // A web link goes where its text says: to the URL, or to http:// and the www. name.
                let expectedDestination = linkText.lowercased().hasPrefix("www.") ? "http://" + linkText : linkText
                if ["http", "https"].contains(scheme), decoded(destination) != decoded(expectedDestination) {
                    problems.append("link text \(linkText) goes to \(destination)")
                }
                text += decoded(linkText)
            default:
                problems.append("unexpected \(element.name ?? "?"): \(element.xmlString)")
            }
        }
        return text
    }

    @Test("random mixtures of Markdown syntax in a message body read back as exactly that text, as plain paragraphs")
    func bodies() async throws {
        try await checkBodies(Self.samples(count: 1500, seed: 0xC0FFEE), quoted: false)
    }

    @Test("the same in the block quote of --full: one quote of plain paragraphs per message")
    func quotedBodies() async throws {
        try await checkBodies(Self.samples(count: 800, seed: 0xF00D), quoted: true)
    }

    /// Renders each sample under a heading of its own (as ``ConversationMarkdown`` does, quoted for the
    /// text `--full` adds) and checks what cmark-gfm reads back.
    func checkBodies(_ samples: [String], quoted: Bool) async throws {
        var document = ""
        for (index, sample) in samples.enumerated() {
            let lines = MarkdownText.blocks(sample)
            document +=
                "### s\(index)\n\n"
                + (quoted ? lines.map { $0.isEmpty ? ">" : "> " + $0 } : lines).joined(separator: "\n") + "\n\n"
        }
        let parsed = try await ParsedMarkdown.parse(document)
        var current: Int?
        var problems: [Int: [String]] = [:]
        var texts: [Int: [String]] = [:]
        for case let element as XMLElement in parsed.root.children ?? [] {
            if element.name == "heading", element.attribute(forName: "level")?.stringValue == "3",
                let label = element.stringValue, label.hasPrefix("s"), let index = Int(label.dropFirst()),
                index == (current ?? -1) + 1
            {
                current = index
                continue
            }
            guard let index = current else {
                Issue.record("content before the first sample")
                continue
            }
            var paragraphs = [element]
            if quoted {
                if element.name != "block_quote" || texts[index] != nil {
                    problems[index, default: []].append("not one block quote: \(element.xmlString)")
                }
                paragraphs = (element.children ?? []).compactMap { $0 as? XMLElement }
                texts[index, default: []] += []
            }
            for paragraph in paragraphs {
                guard paragraph.name == "paragraph" else {
                    problems[index, default: []].append("block \(paragraph.name ?? "?"): \(paragraph.xmlString)")
                    continue
                }
                var found: [String] = []
                texts[index, default: []].append(Self.readBack(paragraph, problems: &found))
                problems[index, default: []] += found
            }
        }
        #expect(current == samples.count - 1, "a sample swallowed the headings after it")
        var failures = 0
        for (index, sample) in samples.enumerated() {
            let read = (texts[index] ?? []).joined(separator: "\n\n")
            let expected = Self.expectedText(sample)
            guard read != expected || !(problems[index] ?? []).isEmpty else { continue }
            failures += 1
            if failures <= 5 {
                Issue.record(
                    """
                    sample \(index) \(String(reflecting: sample))
                    markdown: \(String(reflecting: MarkdownText.blocks(sample).joined(separator: "\n")))
                    read:     \(String(reflecting: read))
                    expected: \(String(reflecting: expected))
                    problems: \(problems[index] ?? [])
                    """)
            }
        }
        #expect(failures == 0)
    }

    @Test("random one-line names and subjects stay text in a heading, after a label and inside link text")
    func inlineContexts() async throws {
        let samples = Self.samples(count: 800, seed: 0xBADC0DE).map { TerminalSafeText.singleLine($0) }.filter {
            !$0.isEmpty
        }
        var document = ""
        for (index, sample) in samples.enumerated() {
            document +=
                "### " + MarkdownText.escapeLine(Substring(sample), atLineStart: false, headingContent: true)
                + " · 12:00 <a id=\"m\(index)\"></a>\n\n"
            document += "**Subject:** " + MarkdownText.escapeLine(Substring(sample), atLineStart: false) + "\n\n"
            document +=
                "- 📎 [" + MarkdownText.escapeLine(Substring(sample), atLineStart: false, inLinkText: true)
                + "](" + MarkdownText.linkDestination(path: "attachments/x/f\(index).pdf") + ") (text/plain, 1 KB)\n\n"
        }
        let parsed = try await ParsedMarkdown.parse(document)
        let blocks = (parsed.root.children ?? []).compactMap { $0 as? XMLElement }
        try #require(blocks.count == samples.count * 3, "a sample changed the document's blocks")
        var failures = 0
        for (index, sample) in samples.enumerated() {
            var problems: [String] = []
            let heading = blocks[3 * index]
            let subject = blocks[3 * index + 1]
            let list = blocks[3 * index + 2]
            // The heading: the name, the time, and the exporter's anchor as the only raw HTML.
            var headingNodes = (heading.children ?? []).compactMap { $0 as? XMLElement }
            if heading.name != "heading" || headingNodes.suffix(2).map(\.name) != ["html_inline", "html_inline"] {
                problems.append("heading \(heading.xmlString)")
            } else {
                if headingNodes[headingNodes.count - 2].stringValue != "<a id=\"m\(index)\">" {
                    problems.append("anchor")
                }
                headingNodes.removeLast(2)
                let copy = XMLElement(name: "heading")
                for node in headingNodes {
                    node.detach()
                    copy.addChild(node)
                }
                let read = Self.readBack(copy, problems: &problems)
                if read != ParsedMarkdown.xmlSafe(sample) + " · 12:00 " {
                    problems.append("heading reads \(String(reflecting: read))")
                }
            }
            // The subject line: the exporter's bold label, then the text.
            let subjectNodes = (subject.children ?? []).compactMap { $0 as? XMLElement }
            if subject.name != "paragraph" || subjectNodes.first?.name != "strong"
                || subjectNodes.first?.stringValue != "Subject:"
            {
                problems.append("subject \(subject.xmlString)")
            } else {
                subjectNodes[0].detach()
                let read = Self.readBack(subject, problems: &problems)
                if read != " " + ParsedMarkdown.xmlSafe(sample) {
                    problems.append("subject reads \(String(reflecting: read))")
                }
            }
            // The attachment: one list item whose link goes to the saved file, with the name as plain text.
            let links = (try? list.nodes(forXPath: ".//link")) ?? []
            let paragraph = try? list.nodes(forXPath: "item/paragraph").first as? XMLElement
            if list.name != "list" || links.count != 1 || paragraph == nil {
                problems.append("attachment \(list.xmlString)")
            } else if let link = links.first as? XMLElement {
                if link.attribute(forName: "destination")?.stringValue != "attachments/x/f\(index).pdf" {
                    problems.append("attachment link")
                }
                if (link.children ?? []).contains(where: { $0.name != "text" }) {
                    problems.append("attachment name is not text")
                }
                if link.stringValue != ParsedMarkdown.xmlSafe(sample) {
                    problems.append("attachment name reads \(String(reflecting: link.stringValue))")
                }
            }
            guard !problems.isEmpty else { continue }
            failures += 1
            if failures <= 5 { Issue.record("sample \(index) \(String(reflecting: sample)): \(problems)") }
        }
        #expect(failures == 0)
    }
}
