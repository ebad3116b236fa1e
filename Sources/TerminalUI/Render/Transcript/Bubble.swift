/// One line inside a bubble: text that is already terminal-safe and fits the bubble, and its style.
struct BubbleLine: Sendable, Equatable {
    var text: String
    var style: Palette.Style?
    /// Display width of `text`, measured once.
    var width: Int

    init(_ text: String, style: Palette.Style? = nil) {
        self.text = text
        self.style = style
        self.width = DisplayWidth.of(text)
    }
}

/// Draws a box around lines and places it against the left or the right edge.
///
/// ```
/// ╭─ newsletter ──────╮
/// │ text, padded      │
/// ╰───────────────────╯
/// ```
///
/// Invariant: every line returned is exactly ``outerWidth(contentWidth:tag:)`` columns wide before the
/// indent, and never wider than `lineWidth` in total.
struct Bubble {
    var glyphs: Glyphs
    var palette: Palette

    /// Columns the border and its inner padding take: "│ " and " │".
    static let frameWidth = 4

    /// The content width a bubble of `lines` needs, leaving room for a tag in the top border.
    static func contentWidth(of lines: [BubbleLine], tag: String?) -> Int {
        let widest = lines.lazy.map(\.width).max() ?? 0
        return max(widest, tag.map { DisplayWidth.of($0) + 2 } ?? 0, 1)
    }

    func draw(
        _ lines: [BubbleLine], tag: String?, border: Palette.Style, alignRight: Bool, lineWidth: Int
    ) -> [String] {
        let content = Self.contentWidth(of: lines, tag: tag)
        let outer = content + Self.frameWidth
        let indent = alignRight ? String(repeating: " ", count: max(0, lineWidth - outer)) : ""
        let vertical = palette.paint(glyphs.vertical, border)
        var drawn: [String] = []
        drawn.reserveCapacity(lines.count + 2)

        // Top border, with the tag set into it: "╭─ tag ───╮".
        var top = glyphs.topLeft + glyphs.horizontal
        var used = 1
        if let tag {
            top += " " + tag + " "
            used += DisplayWidth.of(tag) + 2
        }
        top += String(repeating: glyphs.horizontal, count: max(0, content + 2 - used)) + glyphs.topRight
        drawn.append(indent + palette.paint(top, border))

        for line in lines {
            let text = line.style.map { palette.paint(line.text, $0) } ?? line.text
            let padding = String(repeating: " ", count: max(0, content - line.width))
            drawn.append(indent + vertical + " " + text + padding + " " + vertical)
        }

        let bottom = glyphs.bottomLeft + String(repeating: glyphs.horizontal, count: content + 2) + glyphs.bottomRight
        drawn.append(indent + palette.paint(bottom, border))
        return drawn
    }
}
