/// Neutralizes the Unicode scalars that can act on a terminal or hide text, in text that came from an
/// email. It is the single policy shared by the text pipeline (MailText) and every renderer (TerminalUI).
///
/// - C0 controls are removed, except newline and tab (which layout handles); that includes ESC.
/// - DEL and C1 controls (U+0080–U+009F, among them U+009B, the 8-bit CSI) are removed.
/// - Bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) become U+FFFD, so hidden reordering
///   becomes visible instead of silently rearranging the line.
/// - Invisible characters that can hide text (zero-width spaces, word joiners, BOMs, soft hyphens,
///   invisible operators, tag characters) are dropped. ZWJ (U+200D) stays: emoji sequences need it.
/// - CR and CRLF become a newline (a bare CR would let text overwrite the start of its line).
/// - The line and paragraph separators U+2028 and U+2029 become a newline: terminals disagree on them (some
///   move the cursor, some draw nothing), and layout only knows "\n". Single-line contexts then fold that
///   newline into a space like any other.
public enum UnsafeScalars {
    /// Returns `text` with every unsafe scalar removed or neutralized.
    public static func neutralize(_ text: String) -> String {
        // Fast path: plain printable ASCII (and newline/tab) is already safe.
        if text.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }) { return text }
        // Most non-ASCII text is safe too, so runs of scalars that stay as they are (a newline stays one
        // unless it follows a CR) are copied as slices instead of being appended scalar by scalar.
        let scalars = text.unicodeScalars
        var output = ""
        var runStart = scalars.startIndex
        var index = scalars.startIndex
        var previousWasCR = false
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            let action: Disposition = scalar == "\n" && !previousWasCR ? .keep : disposition(of: scalar)
            previousWasCR = scalar == "\r"
            guard action != .keep else {
                index = next
                continue
            }
            output += String(scalars[runStart..<index])
            switch action {
            case .keep, .drop, .newlineUnlessAfterCR:
                break  // a newline right after a CR: the CR already became one
            case .replace(let replacement):
                output.unicodeScalars.append(replacement)
            case .newline:
                output += "\n"
            }
            runStart = next
            index = next
        }
        if runStart == scalars.startIndex { return text }
        output += String(scalars[runStart...])
        return output
    }

    /// What happens to one scalar.
    public enum Disposition: Equatable, Sendable {
        case keep, drop, newline, newlineUnlessAfterCR
        case replace(Unicode.Scalar)
    }

    public static func disposition(of scalar: Unicode.Scalar) -> Disposition {
        switch scalar.value {
        case 0x0A: return .newlineUnlessAfterCR  // CRLF is one line break
        case 0x0D, 0x2028, 0x2029: return .newline
        case 0x09: return .keep
        case 0x00...0x1F, 0x7F...0x9F: return .drop  // C0 (incl. ESC), DEL, C1 (incl. U+009B CSI)
        case 0x202A...0x202E, 0x2066...0x2069: return .replace("\u{FFFD}")  // bidi embeddings, overrides, isolates
        case 0x200B, 0x200C, 0x200E, 0x200F, 0x2060...0x2064, 0xFEFF, 0x00AD, 0x061C, 0x180E, 0x034F:
            return .drop  // zero-width and invisible formatting characters, implicit marks
        case 0x206A...0x206F, 0xFFF9...0xFFFB, 0xE0000...0xE007F: return .drop  // deprecated format, interlinear, tags
        default: return .keep
        }
    }
}
