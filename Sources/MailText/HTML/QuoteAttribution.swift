import CLibXML2

/// Finds and removes the attribution ("On Mon, Bob <bob@x.org> wrote:", "… написал(а):", or a date, name and
/// address ending in a colon) on the lines just above a quote.
///
/// Only the last line of text before the quote is tried, then that line with the one or two lines above it (a
/// long attribution wraps, and Gmail breaks it before "wrote:"); a line ending a sentence stops the search.
/// Only the attribution's own nodes are removed, never the block of reply text it may share a `div` with.
enum QuoteAttribution {
    /// Endings that make a line an attribution when a quote follows it, beyond `AttributionPatterns`.
    static let endings: [String] = [
        "wrote:", "schrieb:", "a écrit :", "a écrit:", "escribió:", "scrisse:", "schreef:", "skrev:", "napisał(a):",
        "написал(а):", "написала:", "написал:", "пишет:",
    ]

    /// One line of text before a quote.
    struct Line {
        /// The nodes the line is made of, in document order.
        var nodes: [xmlNodePtr]
        /// The `br`s and blank nodes between the line and what follows it.
        var gap: [xmlNodePtr]
        /// The line's text, whitespace collapsed.
        var text: String
    }

    /// Removes the attribution above `quote`, if there is one.
    static func remove(before quote: xmlNodePtr, within root: xmlNodePtr) {
        var lines: [Line] = []
        var anchor = quote
        for _ in 0..<3 {
            guard let line = self.line(before: anchor, within: root), let first = line.nodes.first else { return }
            if !lines.isEmpty && self.endsSentence(line.text) { return }
            lines.insert(line, at: 0)
            if self.isAttribution(lines.map(\.text).joined(separator: " ")) {
                self.removeLines(lines, within: root)
                return
            }
            anchor = first
        }
    }

    /// Whether `text` (one line, whitespace collapsed) introduces a quote.
    static func isAttribution(_ text: String) -> Bool {
        guard !text.isEmpty, text.unicodeScalars.count <= 320 else { return false }
        if AttributionPatterns.match([Substring(text)][...]) != nil { return true }
        let lowered = text.lowercased()
        if self.endings.contains(where: { lowered.hasSuffix($0) }) { return true }
        // Date, name and address, then a colon: "03.06.2024, 10:15, "Ivan" <ivan@yandex.ru>:" (Yandex, mail.ru).
        return text.unicodeScalars.count <= 200 && (text.hasSuffix(":") || text.hasSuffix("："))
            && text.contains("@") && text.contains(where: \.isNumber)
    }

    /// The last line of text before `node` in document order, within `root`.
    static func line(before node: xmlNodePtr, within root: xmlNodePtr) -> Line? {
        var nodes: [xmlNodePtr] = []
        var gap: [xmlNodePtr] = []
        var pieces: [String] = []
        var length = 0
        var candidate = node.pointee.prev
        var parent = node.pointee.parent
        scan: while true {
            guard let current = candidate else {
                // The start of `parent`: a block's start ends the line; an inline element's does not.
                guard let container = parent, container != root else { break scan }
                if !nodes.isEmpty && self.breaksLine(container) { break scan }
                candidate = container.pointee.prev
                parent = container.pointee.parent
                continue
            }
            candidate = current.pointee.prev
            switch current.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                let text = current.textContent
                if text.allSatisfy(\.isWhitespace) {
                    if nodes.isEmpty { gap.append(current) } else { nodes.insert(current, at: 0) }
                    continue
                }
                nodes.insert(current, at: 0)
                pieces.insert(text, at: 0)
                length += text.utf8.count
            case XML_ELEMENT_NODE:
                let visible = QuoteLines.hasVisibleContent(current)
                if current.elementName == "br" || (!visible && self.breaksLine(current)) {
                    if !nodes.isEmpty { break scan }
                    gap.append(current)
                    continue
                }
                if self.breaksLine(current) || self.containsLineBreak(current) {
                    if !nodes.isEmpty { break scan }
                    // The line is the last one inside this block: look for it from the block's end.
                    candidate = current.pointee.last
                    parent = current
                    continue
                }
                if !visible {
                    if nodes.isEmpty { gap.append(current) } else { nodes.insert(current, at: 0) }
                    continue
                }
                nodes.insert(current, at: 0)
                let text = QuoteLines.text(of: current)
                pieces.insert(text, at: 0)
                length += text.utf8.count
            default:
                continue  // comments and processing instructions (libxml2's C enum, not ours)
            }
            if length > 1000 { return nil }  // prose, not an attribution
        }
        guard !nodes.isEmpty else { return nil }
        let text = pieces.joined().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return Line(nodes: nodes, gap: gap, text: text)
    }

    /// Removes the lines' nodes and the gaps after them, then every ancestor left without visible content.
    ///
    /// Ancestors are pruned deepest first, so a node is never touched after an ancestor of it was freed.
    private static func removeLines(_ lines: [Line], within root: xmlNodePtr) {
        var ancestors: [(node: xmlNodePtr, depth: Int)] = []
        var seen = Set<xmlNodePtr>()
        for line in lines {
            for node in line.nodes + line.gap {
                var chain: [xmlNodePtr] = []
                var parent = node.pointee.parent
                while let current = parent, current != root {
                    chain.append(current)
                    parent = current.pointee.parent
                }
                for (offset, ancestor) in chain.enumerated() where seen.insert(ancestor).inserted {
                    ancestors.append((ancestor, chain.count - offset))
                }
                node.removeFromTree()
            }
        }
        for (ancestor, _) in ancestors.sorted(by: { $0.depth > $1.depth }) where !QuoteLines.hasVisibleContent(ancestor)
        {
            ancestor.removeFromTree()
        }
    }

    private static func breaksLine(_ node: xmlNodePtr) -> Bool {
        guard let name = node.elementName else { return false }
        return QuoteLines.lineBreakingElements.contains(name)
    }

    /// Whether an inline element holds a `br` or a block somewhere inside, so it spans several lines.
    private static func containsLineBreak(_ node: xmlNodePtr) -> Bool {
        var next = node.pointee.children
        while let current = next {
            if self.breaksLine(current) { return true }
            next = current.pointee.children ?? current.following(within: node)
        }
        return false
    }

    private static func endsSentence(_ text: String) -> Bool {
        guard let last = text.last else { return false }
        return last == "." || last == "!" || last == "?" || last == "。"
    }
}
