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
/// Invariant: every line drawn is exactly the content width plus ``frameWidth`` columns wide before
/// the indent, and never wider than `lineWidth` in total.
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

    /// Appends the bubble's lines, each ending in a newline, to `output`. Appending to one buffer
    /// avoids building a string per line, which mattered for 2,000-message transcripts.
    func draw(
        _ lines: [BubbleLine], tag: String?, border: Palette.Style, alignRight: Bool, lineWidth: Int,
        into output: inout String
    ) {
        let content = Self.contentWidth(of: lines, tag: tag)
        let outer = content + Self.frameWidth
        let indent = alignRight ? String(repeating: " ", count: max(0, lineWidth - outer)) : ""
        let vertical = palette.paint(glyphs.vertical, border)

        // Top border, with the tag set into it: "╭─ tag ───╮".
        var top = glyphs.topLeft + glyphs.horizontal
        var used = 1
        if let tag {
            top += " " + tag + " "
            used += DisplayWidth.of(tag) + 2
        }
        top += String(repeating: glyphs.horizontal, count: max(0, content + 2 - used)) + glyphs.topRight
        output += indent
        output += palette.paint(top, border)
        output += "\n"

        for line in lines {
            output += indent
            output += vertical
            output += " "
            if let style = line.style { output += palette.paint(line.text, style) } else { output += line.text }
            for _ in 0..<max(0, content - line.width) { output += " " }
            output += " "
            output += vertical
            output += "\n"
        }

        output += indent
        output += palette.paint(
            glyphs.bottomLeft + String(repeating: glyphs.horizontal, count: content + 2) + glyphs.bottomRight, border)
        output += "\n"
    }
}
