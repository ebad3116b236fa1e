/// Cleanup shared by the header decoders: what may appear in decoded header text shown on a terminal.
enum HeaderText {
    /// Removes characters that must never reach the display from decoded header text.
    ///
    /// CR and LF become spaces (they were line breaks); tab stays; every other C0 control, DEL and the C1
    /// controls U+0080–U+009F are dropped, because a terminal would act on them (escape sequences, cursor moves).
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsCleanup) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0D, 0x0A: scalars.append(" ")
            case 0x09: scalars.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// `true` for scalars ``sanitized(_:)`` changes.
    private static func needsCleanup(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09) || (0x7F...0x9F).contains(value)
    }

    /// Collapses runs of whitespace into one space and trims both ends.
    static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }

    /// `true` for the bytes RFC 5322 calls WSP, plus CR and LF.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
