import CLibXML2

/// Turns a libxml2 DOM subtree into plain text the way a browser would lay it out, line by line.
///
/// Block elements break lines (including `</div>`, `</li>` and `</tr>`: Gmail's HTML is div-based),
/// paragraphs and headings are separated by a blank line, lists get bullets or numbers, table rows become lines
/// with cells joined by " | ", `pre` keeps its whitespace, hidden content is skipped and whitespace collapses as
/// in a browser. The walk is iterative, so 400-level reply chains cost no stack.
struct TextExtractor {
    /// Elements whose content never shows as text: the ones the sanitizer removes with their content, so
    /// that raw and sanitized HTML read the same (form controls, `noscript` and plugin fallbacks do show).
    static let invisibleElements: Set<String> = AllowList.removedWithContent

    /// Elements that end the current line.
    static let lineBlocks: Set<String> = [
        "div", "blockquote", "table", "dl", "dt", "dd", "hr", "section", "article", "header", "footer", "center",
        "address", "figure", "figcaption", "main", "nav", "aside", "details", "summary", "caption", "fieldset",
        "form", "tbody", "thead", "tfoot", "body", "html",
    ]

    /// Elements set apart by a blank line.
    static let paragraphBlocks: Set<String> = ["p", "h1", "h2", "h3", "h4", "h5", "h6"]

    /// Scalars that take no room and only pad preheaders (zero-width space/joiners, BOM, soft hyphen, CGJ).
    static let invisibleScalars: Set<Unicode.Scalar> = ["\u{200B}", "\u{200C}", "\u{FEFF}", "\u{00AD}", "\u{034F}"]

    private struct ListState {
        var isOrdered: Bool
        var nextNumber: Int
    }

    private struct LinkState {
        var href: String?
        var startOffset: Int
    }

    private var output = ""
    private var pendingNewlines = 0
    private var pendingSpace = false
    private var pendingSeparator = false
    private var pendingMarker: String? = nil
    private var preDepth = 0
    private var lists: [ListState] = []
    private var rowHasContent: [Bool] = []
    private var links: [LinkState] = []
    /// Inside a `div` or `p` that has shown nothing yet, and whether it held a non-breaking space: a block of
    /// only `&nbsp;` is a blank line in a browser (Yandex, mail.ru and Outlook space paragraphs with them).
    private var blockIsBlank = false
    private var blockHasNonBreakingSpace = false

    /// The text of everything under `root` (not including `root`'s own tag).
    static func text(under root: xmlNodePtr) -> String {
        var extractor = TextExtractor()
        extractor.walk(root)
        return extractor.finish()
    }

    private mutating func walk(_ root: xmlNodePtr) {
        var next = root.pointee.children
        while let node = next {
            let descended = self.enter(node)
            if descended, let child = node.pointee.children {
                next = child
                continue
            }
            if descended { self.leave(node) }
            // `node` is finished: climb until a sibling is found, leaving every ancestor on the way.
            var current = node
            next = nil
            while true {
                if let sibling = current.pointee.next {
                    next = sibling
                    break
                }
                guard let parent = current.pointee.parent, parent != root else { break }
                self.leave(parent)
                current = parent
            }
        }
    }

    private static func isSkipped(_ element: xmlNodePtr, named name: String) -> Bool {
        if Self.invisibleElements.contains(name) || element.hasAttribute("hidden") { return true }
        if let style = element.attribute("style"), CSSFilter.hidesContent(style) { return true }
        return false
    }

    /// Handles the start of a node; returns whether its children should be visited.
    private mutating func enter(_ node: xmlNodePtr) -> Bool {
        let type = node.pointee.type
        if type == XML_TEXT_NODE || type == XML_CDATA_SECTION_NODE {
            self.appendText(node.textContent)
            return false
        }
        guard let name = node.elementName else { return false }  // comments, processing instructions
        if Self.isSkipped(node, named: name) { return false }
        switch name {
        case "br":
            if !self.output.isEmpty { self.pendingNewlines += 1 }
            self.blockIsBlank = false
            return false
        case "img":
            if !TrackerList.isTrackingPixel(node), let alt = node.attribute("alt"),
                !alt.trimmingCSSWhitespace().isEmpty
            {
                self.appendText("[image: \(alt)]")
            }
            return false
        case "ul", "ol", "menu":
            let start = name == "ol" ? node.attribute("start").flatMap { Int($0.trimmingCSSWhitespace()) } : nil
            self.lists.append(ListState(isOrdered: name == "ol", nextNumber: start ?? 1))
            self.requestBreak(1)
        case "li":
            self.requestBreak(1)
            if self.lists.isEmpty { self.lists.append(ListState(isOrdered: false, nextNumber: 1)) }
            let index = self.lists.count - 1
            if self.lists[index].isOrdered {
                self.pendingMarker = "\(self.lists[index].nextNumber). "
                self.lists[index].nextNumber += 1
            } else {
                self.pendingMarker = "• "
            }
        case "tr":
            self.requestBreak(1)
            self.rowHasContent.append(false)
            self.pendingSeparator = false
        case "td", "th":
            if self.rowHasContent.last == true { self.pendingSeparator = true }
        case "pre":
            self.requestBreak(1)
            self.preDepth += 1
        case "a":
            self.links.append(LinkState(href: node.attribute("href"), startOffset: self.output.utf8.count))
        default:
            if Self.paragraphBlocks.contains(name) && !node.isNestedParagraph {
                self.requestBreak(2)
            } else if Self.lineBlocks.contains(name) {
                self.requestBreak(1)
            }
            if name == "div" || name == "p" {
                self.blockIsBlank = true
                self.blockHasNonBreakingSpace = false
            }
        }
        return true
    }

    /// Handles the end of an element that `enter` descended into.
    private mutating func leave(_ element: xmlNodePtr) {
        guard let name = element.elementName else { return }
        switch name {
        case "ul", "ol", "menu":
            if !self.lists.isEmpty { self.lists.removeLast() }
            self.requestBreak(1)
        case "li":
            self.pendingMarker = nil
            self.requestBreak(1)
        case "tr":
            if !self.rowHasContent.isEmpty { self.rowHasContent.removeLast() }
            self.pendingSeparator = false
            self.requestBreak(1)
        case "pre":
            self.preDepth = max(0, self.preDepth - 1)
            self.requestBreak(1)
        case "a":
            guard let link = self.links.popLast() else { return }
            self.appendLinkTarget(link)
        default:
            if Self.paragraphBlocks.contains(name) && !element.isNestedParagraph {
                self.requestBreak(2)
            } else if Self.lineBlocks.contains(name) {
                self.requestBreak(1)
            }
            if (name == "div" || name == "p") && self.blockIsBlank && self.blockHasNonBreakingSpace
                && !self.output.isEmpty
            {
                self.pendingNewlines += 1
            }
            self.blockIsBlank = false
            self.blockHasNonBreakingSpace = false
        }
    }

    private mutating func requestBreak(_ newlines: Int) {
        self.pendingNewlines = max(self.pendingNewlines, newlines)
    }

    /// Appends " (url)" after a link's text unless the text already says where it goes.
    private mutating func appendLinkTarget(_ link: LinkState) {
        guard let href = link.href, case .keep(let url, true) = URLPolicy.link(href) else { return }
        let utf8 = self.output.utf8
        guard link.startOffset <= utf8.count else { return }
        let start = utf8.index(utf8.startIndex, offsetBy: link.startOffset)
        let visible = String(self.output[start...]).trimmingCSSWhitespace()
        guard !visible.isEmpty else { return }
        let shown: String
        if URLPolicy.scheme(of: url) == "mailto" {
            let address = String(url.dropFirst("mailto:".count).prefix(while: { $0 != "?" }))
            guard Self.comparable(address) != Self.comparable(visible) else { return }
            shown = address.isEmpty ? url : address
        } else {
            guard Self.comparable(url) != Self.comparable(visible) else { return }
            shown = url
        }
        self.pendingSpace = true
        self.appendText("(\(shown))", collapsing: false)
    }

    /// A URL or link text reduced for comparison: no scheme, no `www.`, no trailing slash, lowercased.
    private static func comparable(_ text: String) -> String {
        var value = Substring(text.lowercased())
        for prefix in ["https://", "http://", "mailto:"] where value.hasPrefix(prefix) {
            value = value.dropFirst(prefix.count)
        }
        if value.hasPrefix("www.") { value = value.dropFirst(4) }
        while value.hasSuffix("/") { value = value.dropLast() }
        return String(value)
    }

    /// Appends text, collapsing whitespace as a browser does (kept as-is inside `pre`).
    private mutating func appendText(_ text: String, collapsing: Bool = true) {
        let preformatted = self.preDepth > 0
        for scalar in text.unicodeScalars {
            if preformatted {
                // U+2028 and U+2029 break lines too; written as they are they could act on a terminal.
                if scalar == "\n" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    self.pendingNewlines += 1
                    self.pendingSpace = false
                } else if scalar != "\r" {
                    self.beginContent(preformatted: true)
                    self.output.unicodeScalars.append(scalar == "\u{00A0}" ? " " : scalar)
                }
            } else if Self.invisibleScalars.contains(scalar) {
                continue
            } else if (collapsing && scalar.isWhitespace) || scalar == "\u{2028}" || scalar == "\u{2029}" {
                self.pendingSpace = true
                if scalar == "\u{00A0}" { self.blockHasNonBreakingSpace = true }
            } else {
                self.beginContent(preformatted: false)
                self.output.unicodeScalars.append(scalar)
            }
        }
    }

    /// Writes whatever line breaks, space, separator, indentation and list marker must precede new content.
    private mutating func beginContent(preformatted: Bool) {
        // Fast path for the middle of a word: nothing is pending, and the output never ends in "\n" here
        // because newlines are only written right before content.
        if !self.output.isEmpty && self.pendingNewlines == 0 && !self.pendingSpace && !self.pendingSeparator
            && self.pendingMarker == nil
        {
            if self.rowHasContent.last == false { self.rowHasContent[self.rowHasContent.count - 1] = true }
            self.blockIsBlank = false
            return
        }
        var atLineStart = self.output.isEmpty || self.output.hasSuffix("\n")
        if !self.output.isEmpty {
            if self.pendingNewlines > 0 {
                let count = preformatted ? self.pendingNewlines : min(self.pendingNewlines, 2)
                self.output.append(String(repeating: "\n", count: count))
                atLineStart = true
            } else if self.pendingSeparator && !atLineStart {
                self.output.append(" | ")
            } else if self.pendingSpace && !atLineStart {
                self.output.append(" ")
            }
        }
        self.pendingNewlines = 0
        self.pendingSpace = false
        self.pendingSeparator = false
        self.blockIsBlank = false
        if !self.rowHasContent.isEmpty { self.rowHasContent[self.rowHasContent.count - 1] = true }
        if atLineStart && !self.lists.isEmpty {
            self.output.append(String(repeating: "  ", count: self.lists.count - 1))
            self.output.append(self.pendingMarker ?? "  ")
        }
        self.pendingMarker = nil
    }

    /// The finished text: no trailing spaces, trimmed. Blank lines were already limited to one in a row by
    /// `beginContent`, except inside `pre`, whose blank lines are kept exactly.
    private func finish() -> String {
        var lines: [Substring] = []
        for line in self.output.split(separator: "\n", omittingEmptySubsequences: false) {
            var trimmed = line
            while let last = trimmed.last, last == " " || last == "\t" { trimmed = trimmed.dropLast() }
            lines.append(trimmed)
        }
        return lines.joined(separator: "\n").trimmingCSSWhitespace()
    }
}
