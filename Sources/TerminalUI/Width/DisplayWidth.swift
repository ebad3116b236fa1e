/// How many terminal columns text occupies.
///
/// Width is measured per grapheme cluster (`Character`): combining marks and other zero-width scalars
/// add nothing, East Asian wide and fullwidth characters count 2, and emoji presentation sequences
/// (VS16, ZWJ sequences, flags, skin tones) count 2.
public enum DisplayWidth {
    /// The width of `text` in columns. Newlines and tabs count as one column each; callers lay out
    /// lines one at a time.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for character in text {
            total += of(character)
        }
        return total
    }

    /// The width of one grapheme cluster: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first, only.value < 0x7F { return only.value < 0x20 ? 0 : 1 }
        var width = 0
        for scalar in scalars {
            switch scalar.value {
            case 0xFE0F, 0x200D, 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF:
                return 2  // VS16, ZWJ, regional indicators, skin tones: an emoji cluster
            default:
                width = max(width, scalarWidth(scalar))
            }
        }
        return width
    }

    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` cut to at most `width` columns, ending with "…" when something was cut.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// `text` padded with spaces to exactly `width` columns (truncated first when too wide).
    public static func pad(_ text: String, toWidth width: Int) -> String {
        let fitted = truncate(text, toWidth: width)
        return fitted + String(repeating: " ", count: max(0, width - of(fitted)))
    }
}
