import CWidth

/// Measures and cuts one styled line by terminal cells, keeping its SGR sequences.
///
/// `FrameDiff` needs both: a line wider than the screen would wrap (and on the last row scroll the whole
/// screen), and whether a line fills its row decides whether `ESC[K` may follow it. Widths come from
/// glibc's `wcwidth` per grapheme cluster, with emoji presentation and flags counted as two cells, as the
/// renderers that build the lines count them.
enum LineFitter {
    /// glibc's `wcwidth` knows only ASCII until `LC_CTYPE` is a UTF-8 locale.
    static let hasUTF8CType: Bool = chatmail_use_utf8_ctype() == 1

    /// Cells `line` takes on screen, escape sequences excluded.
    static func width(of line: String) -> Int {
        var total = 0
        walk(line) { piece in
            if case .text(_, let width) = piece { total += width }
            return true
        }
        return total
    }

    /// `line` cut to at most `columns` cells. SGR sequences (`ESC [ … m`) are kept; every other escape
    /// sequence and control character is removed, since it could move the cursor or change modes behind
    /// the diff's back. A wide character that would straddle the edge is left out.
    static func fit(_ line: String, columns: Int) -> String {
        var result = ""
        var used = 0
        walk(line) { piece in
            switch piece {
            case .style(let sequence):
                result += sequence
            case .text(let character, let width):
                guard used + width <= columns else { return false }
                used += width
                result.append(character)
            }
            return true
        }
        return result
    }

    enum Piece {
        case style(Substring)
        case text(Character, width: Int)
    }

    /// Calls `visit` with each SGR sequence and printable character of `line`, in order, until it returns
    /// `false`.
    private static func walk(_ line: String, _ visit: (Piece) -> Bool) {
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "\u{1B}" {
                let end = sequenceEnd(in: line, from: index)
                let sequence = line[index..<end]
                if sequence.count > 2, sequence.hasPrefix("\u{1B}["), sequence.last == "m", !visit(.style(sequence)) {
                    return
                }
                index = end
                continue
            }
            let width = cells(of: character)
            if width > 0 || !character.unicodeScalars.contains(where: isControl), !visit(.text(character, width: width))
            {
                return
            }
            index = line.index(after: index)
        }
    }

    /// The index after the escape sequence starting at `start`: a CSI sequence up to its final byte, or
    /// ESC and one more character.
    private static func sequenceEnd(in line: String, from start: String.Index) -> String.Index {
        let scalars = line.unicodeScalars
        var index = scalars.index(after: start)
        guard index < scalars.endIndex else { return index }
        guard scalars[index] == "[" else { return scalars.index(after: index) }
        index = scalars.index(after: index)
        while index < scalars.endIndex, (0x20...0x3F).contains(scalars[index].value) {
            index = scalars.index(after: index)
        }
        return index < scalars.endIndex ? scalars.index(after: index) : index
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Cells of one grapheme cluster: 2 for emoji presentation (VS16) and flags, else its widest scalar.
    static func cells(of character: Character) -> Int {
        if character.isASCII {
            return character.unicodeScalars.allSatisfy { !isControl($0) } ? 1 : 0
        }
        let scalars = character.unicodeScalars
        if scalars.contains(where: { $0.value == 0xFE0F || (0x1F1E6...0x1F1FF).contains($0.value) }) { return 2 }
        _ = hasUTF8CType
        var widest = 0
        for scalar in scalars where !isControl(scalar) {
            let width = Int(chatmail_wcwidth(scalar.value))
            // -1: unknown to glibc's tables, most often an emoji newer than them.
            widest = max(widest, width < 0 ? (scalar.properties.isEmojiPresentation ? 2 : 1) : width)
        }
        return widest
    }
}
