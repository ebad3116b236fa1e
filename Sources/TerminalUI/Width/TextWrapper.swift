import Foundation

/// Greedy word wrapping by display width.
///
/// Lines break at spaces; a word wider than the line (a long URL) is broken across lines, so no
/// output line is ever wider than `width`.
public enum TextWrapper {
    /// The lines of `text` wrapped to `width` columns. Existing line breaks are kept; empty lines stay.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(contentsOf: wrapLine(paragraph.replacingTabs(), width: width))
        }
        return lines
    }

    static func wrapLine(_ line: String, width: Int) -> [String] {
        guard DisplayWidth.of(line) > width else { return [line] }
        var lines: [String] = []
        var current = "", currentWidth = 0
        for word in line.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            var wordWidth = DisplayWidth.of(word)
            if currentWidth > 0 && currentWidth + 1 + wordWidth <= width {
                current += " " + word
                currentWidth += 1 + wordWidth
                continue
            }
            if currentWidth > 0 {
                lines.append(current)
                current = ""
                currentWidth = 0
            }
            while wordWidth > width {
                let (head, rest) = split(word, atWidth: width)
                lines.append(head)
                word = rest
                wordWidth = DisplayWidth.of(word)
            }
            current = word
            currentWidth = wordWidth
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// The longest prefix of `word` that fits in `width` columns (at least one character), and the rest.
    static func split(_ word: String, atWidth width: Int) -> (String, String) {
        var used = 0
        var index = word.startIndex
        while index < word.endIndex {
            let w = DisplayWidth.of(word[index])
            if used + w > width && used > 0 { break }
            used += w
            index = word.index(after: index)
        }
        return (String(word[..<index]), String(word[index...]))
    }
}

extension Substring {
    func replacingTabs() -> String {
        contains("\t") ? replacingOccurrences(of: "\t", with: "    ") : String(self)
    }
}
