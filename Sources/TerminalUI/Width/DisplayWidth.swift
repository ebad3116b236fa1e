import CWidth

/// How many terminal columns text occupies.
///
/// Width is measured per grapheme cluster (`Character`), as terminals draw them:
/// - a cluster with VS16, ZWJ, a regional indicator or a skin-tone modifier is an emoji: 2 columns;
/// - otherwise the widest of its scalars by the C library's `wcwidth` (combining marks add nothing,
///   East Asian wide and fullwidth characters count 2);
/// - an emoji newer than the C library's Unicode tables (`wcwidth` answers -1) counts 2.
///
/// `wcwidth` only knows non-ASCII characters under a UTF-8 `LC_CTYPE`, so the first measurement
/// switches `LC_CTYPE` to `C.UTF-8`. Where that locale is missing, a built-in table of wide ranges
/// stands in, so widths stay right rather than collapsing to zero.
public enum DisplayWidth {
    /// Whether `wcwidth` can be trusted: set once, before the first non-ASCII measurement.
    static let hasUTF8CType: Bool = chatmail_use_utf8_ctype() == 1

    /// The width of `text` in columns. Newlines and tabs count as one column each; callers lay out
    /// lines one at a time.
    public static func of(_ text: some StringProtocol) -> Int {
        // Fast path: printable ASCII is one column per byte, and most mail is ASCII.
        var columns = 0
        for byte in text.utf8 {
            if byte >= 0x80 { return slowWidth(text) }
            if byte >= 0x20 && byte != 0x7F || byte == 0x09 || byte == 0x0A { columns += 1 }
        }
        return columns
    }

    static func slowWidth(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text {
            total += of(character)
        }
        return total
    }

    /// The width of one grapheme cluster: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        if let ascii = character.asciiValue {
            return ascii < 0x20 && ascii != 0x09 && ascii != 0x0A || ascii == 0x7F ? 0 : 1
        }
        var width = 0
        for scalar in character.unicodeScalars {
            if isEmojiSequenceMarker(scalar) { return 2 }
            width = max(width, scalarWidth(scalar))
        }
        return width
    }

    /// VS16, ZWJ, regional indicators and skin tones make their cluster an emoji, drawn 2 columns wide.
    static func isEmojiSequenceMarker(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xFE0F, 0x200D, 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF: return true
        default: return false
        }
    }

    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        if hasUTF8CType {
            let width = Int(chatmail_wcwidth(scalar.value))
            if width >= 0 { return width }
        }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .surrogate:
            return 0
        default:
            break
        }
        // Unknown to the C library: emoji newer than its tables, or no UTF-8 locale at all.
        if properties.isEmojiPresentation { return 2 }
        return isWideFallback(scalar.value) ? 2 : 1
    }

    /// East Asian wide and fullwidth ranges, for systems without a UTF-8 locale.
    static func isWideFallback(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `width` columns, ending with `ellipsis` when something was cut.
    public static func truncate(_ text: String, toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        let ellipsisWidth = of(ellipsis)
        guard width > ellipsisWidth else { return String(ellipsis.prefix(width)) }
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width - ellipsisWidth { break }
            result.append(character)
            used += w
        }
        return result + ellipsis
    }

    /// `text` padded with spaces to exactly `width` columns (truncated first when too wide).
    public static func pad(_ text: String, toWidth width: Int, ellipsis: String = "…") -> String {
        let fitted = truncate(text, toWidth: width, ellipsis: ellipsis)
        return fitted + String(repeating: " ", count: max(0, width - of(fitted)))
    }
}
