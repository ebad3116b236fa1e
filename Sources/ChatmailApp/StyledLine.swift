import TerminalUI

/// Cutting and padding lines that already hold SGR sequences, for placing rendered text in a pane.
///
/// The renderers' lines carry the palette's escape sequences, which take no columns; measuring them
/// with ``DisplayWidth`` directly would count the sequences' bytes. These functions step over them.
enum StyledLine {
    /// `line` cut to at most `width` columns and padded with spaces to exactly `width`. A style open at
    /// the cut is closed, so it cannot bleed into the next pane; a wide character that would straddle
    /// the edge is left out and its column padded.
    static func fit(_ line: String, width: Int) -> String {
        guard width > 0 else { return "" }
        var output = ""
        var used = 0
        var styled = false
        var cut = false
        var index = line.startIndex
        while index < line.endIndex {
            if let end = sequenceEnd(in: line, at: index) {
                let sequence = line[index..<end]
                output += sequence
                styled = sequence != "\u{1B}[0m"
                index = end
                continue
            }
            let character = line[index]
            let columns = DisplayWidth.of(character)
            if used + columns > width {
                cut = true
                break
            }
            output.append(character)
            used += columns
            index = line.index(after: index)
        }
        if cut && styled { output += "\u{1B}[0m" }
        return output + String(repeating: " ", count: width - used)
    }

    /// The columns `line` takes, its SGR sequences aside.
    static func width(of line: String) -> Int {
        DisplayWidth.of(stripped(line))
    }

    /// `line` without its SGR sequences.
    static func stripped(_ line: String) -> String {
        var output = ""
        var index = line.startIndex
        while index < line.endIndex {
            if let end = sequenceEnd(in: line, at: index) {
                index = end
                continue
            }
            output.append(line[index])
            index = line.index(after: index)
        }
        return output
    }

    /// Where the SGR sequence starting at `index` ends (`ESC [` digits and semicolons `m`), or `nil` when
    /// none starts there. The palette emits only these.
    private static func sequenceEnd(in line: String, at index: String.Index) -> String.Index? {
        guard line[index] == "\u{1B}" else { return nil }
        var cursor = line.index(after: index)
        guard cursor < line.endIndex, line[cursor] == "[" else { return nil }
        cursor = line.index(after: cursor)
        while cursor < line.endIndex {
            let character = line[cursor]
            if character == "m" { return line.index(after: cursor) }
            guard character.isASCII, character.isNumber || character == ";" else { return nil }
            cursor = line.index(after: cursor)
        }
        return nil
    }
}
