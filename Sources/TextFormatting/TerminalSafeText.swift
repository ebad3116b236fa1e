import TextSafety

/// The ONE place where text that came from an email (names, subjects, bodies, filenames, snippets)
/// is made safe to print to a terminal.
///
/// Every renderer passes email-derived text through ``sanitize(_:)`` before it reaches stdout, so a
/// hostile subject cannot move the cursor, set the window title, write the clipboard (OSC 52), forge
/// hyperlinks (OSC 8) or reorder what the user reads. The scalar policy itself lives in
/// `TextSafety.UnsafeScalars`, shared with the text pipeline, which applies it when mail is stored.
public enum TerminalSafeText {
    /// Returns `text` with every unsafe scalar removed or neutralized (see `UnsafeScalars`).
    public static func sanitize(_ text: String) -> String {
        UnsafeScalars.neutralize(text)
    }

    /// Sanitizes `text` and folds it onto one line: newlines and tabs become spaces and runs of
    /// whitespace collapse. For list rows, titles and headers.
    public static func singleLine(_ text: String) -> String {
        // Fast path: printable ASCII with single spaces between words is already one clean line.
        var previousWasSpace = true  // a leading space is not clean either
        var clean = true
        for byte in text.utf8 {
            if byte == 0x20 {
                if previousWasSpace {
                    clean = false
                    break
                }
                previousWasSpace = true
            } else if byte > 0x20 && byte < 0x7F {
                previousWasSpace = false
            } else {
                clean = false
                break
            }
        }
        if clean && (!previousWasSpace || text.isEmpty) { return text }
        var result = ""
        var pendingSpace = false
        for character in sanitize(text) {
            if character.isWhitespace {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(character)
            }
        }
        return result
    }
}
