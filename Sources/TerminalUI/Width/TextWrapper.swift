import Foundation

/// Greedy line wrapping by display width.
///
/// Lines break at spaces, and between characters of CJK text, which has no spaces. Line-breaking
/// rules for CJK punctuation (kinsoku) keep "。" or "」" from starting a line and "「" from ending one.
/// A word wider than the line (a long URL) is broken across lines, so no output line is ever wider
/// than `width`.
public enum TextWrapper {
    /// The lines of `text` wrapped to `width` columns. Existing line breaks are kept; empty lines stay.
    /// Runs of spaces collapse to one; tabs become four spaces first.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        // Split on the newline byte: UTF-8 never uses 0x0A inside a multi-byte scalar, and scanning
        // bytes is many times cheaper than comparing grapheme clusters.
        for paragraph in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            wrapLine(Substring(paragraph).replacingTabs(), width: width, into: &lines)
        }
        return lines
    }

    static func wrapLine(_ line: String, width: Int, into lines: inout [String]) {
        if DisplayWidth.of(line) <= width {
            lines.append(line)
            return
        }
        if line.utf8.allSatisfy({ $0 < 0x80 }) {
            wrapASCII(Array(line.utf8), width: width, into: &lines)
            return
        }
        var current = ""
        var currentWidth = 0
        for wordBytes in line.utf8.split(separator: 0x20, omittingEmptySubsequences: true) {
            for (index, segment) in segments(of: Substring(wordBytes)).enumerated() {
                var piece = String(segment)
                var pieceWidth = DisplayWidth.of(piece)
                // Words are separated by one space; the CJK segments of one word join directly.
                let separator = index == 0 && currentWidth > 0 ? 1 : 0
                if currentWidth + separator + pieceWidth <= width {
                    if separator == 1 { current += " " }
                    current += piece
                    currentWidth += separator + pieceWidth
                    continue
                }
                if currentWidth > 0 {
                    lines.append(current)
                    current = ""
                    currentWidth = 0
                }
                while pieceWidth > width {
                    let (head, rest) = split(piece, atWidth: width)
                    lines.append(head)
                    piece = rest
                    pieceWidth = DisplayWidth.of(piece)
                }
                current = piece
                currentWidth = pieceWidth
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
    }

    /// The same greedy algorithm on ASCII bytes, where one byte is one column (controls are gone by
    /// now): no grapheme breaking and no string per word, which is most of the wrapping work in mail.
    static func wrapASCII(_ bytes: [UInt8], width: Int, into lines: inout [String]) {
        var current: [UInt8] = []
        current.reserveCapacity(width)
        var index = 0
        let count = bytes.count
        while index < count {
            while index < count && bytes[index] == 0x20 { index += 1 }  // runs of spaces collapse
            guard index < count else { break }
            var end = index
            while end < count && bytes[end] != 0x20 { end += 1 }
            var word = bytes[index..<end]
            index = end
            if !current.isEmpty && current.count + 1 + word.count <= width {
                current.append(0x20)
                current.append(contentsOf: word)
                continue
            }
            if !current.isEmpty {
                lines.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
            while word.count > width {  // a word wider than the line is cut
                lines.append(String(decoding: word.prefix(width), as: UTF8.self))
                word = word.dropFirst(width)
            }
            current.append(contentsOf: word)
        }
        if !current.isEmpty || lines.isEmpty { lines.append(String(decoding: current, as: UTF8.self)) }
    }

    /// A space-free word cut where a line may break inside it: before and after each CJK character,
    /// except where kinsoku forbids it. Latin words come back whole.
    static func segments(of word: Substring) -> [Substring] {
        // Fast path: without multi-byte scalars there is no CJK.
        guard word.utf8.contains(where: { $0 >= 0x80 }) else { return [word] }
        var result: [Substring] = []
        var start = word.startIndex
        var previous: Character?
        var index = word.startIndex
        while index < word.endIndex {
            let character = word[index]
            if let before = previous, mayBreak(between: before, and: character) {
                result.append(word[start..<index])
                start = index
            }
            previous = character
            index = word.index(after: index)
        }
        result.append(word[start...])
        return result
    }

    static func mayBreak(between before: Character, and after: Character) -> Bool {
        guard isIdeographic(before) || isIdeographic(after) else { return false }
        return !noLineStart.contains(after) && !noLineEnd.contains(before)
    }

    /// CJK characters: wide, and not emoji (an emoji sticks to the word it is in).
    static func isIdeographic(_ character: Character) -> Bool {
        guard DisplayWidth.of(character) == 2, let scalar = character.unicodeScalars.first else { return false }
        return !scalar.properties.isEmojiPresentation
            && !character.unicodeScalars.contains(where: DisplayWidth.isEmojiSequenceMarker)
    }

    /// Closing punctuation and small kana: never the first character of a line.
    static let noLineStart: Set<Character> = Set("、。，．・：；？！ー）」』】〉》〕］｝”’〜ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ,.!?:;)]}")
    /// Opening punctuation: never the last character of a line.
    static let noLineEnd: Set<Character> = Set("（「『【〈《〔［｛“‘([{")

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
        utf8.contains(0x09) ? replacingOccurrences(of: "\t", with: "    ") : String(self)
    }
}
