import Foundation
import Testing
import TextFormatting

@testable import TerminalUI

@Suite struct TerminalSafeTextTests {
    /// Hostile inputs an email can carry in a name, subject, body or filename.
    static let vectors: [(String, String)] = [
        ("CSI colour", "red \u{1B}[31mALERT\u{1B}[0m"),
        ("CSI cursor movement and erase", "hi\u{1B}[2J\u{1B}[H\u{1B}[1A"),
        ("OSC 8 hyperlink", "\u{1B}]8;;https://evil.example\u{07}click me\u{1B}]8;;\u{07}"),
        ("OSC 52 clipboard write", "\u{1B}]52;c;cm0gLXJmIH4=\u{07}"),
        ("OSC 0 title set, ST-terminated", "\u{1B}]0;pwned\u{1B}\\"),
        ("C1 CSI (U+009B)", "\u{9B}31mred"),
        ("C1 OSC (U+009D) and ST (U+009C)", "\u{9D}0;title\u{9C}"),
        ("bidi override", "invoice\u{202E}fdp.exe"),
        ("bidi isolates", "\u{2066}abc\u{2069}\u{2067}def\u{2068}"),
        ("zero-width characters", "pay\u{200B}pal\u{2060}\u{FEFF}\u{00AD}"),
        ("NUL, BEL, backspace, DEL", "a\u{00}b\u{07}c\u{08}d\u{7F}"),
        ("bare CR overwrite", "safe text\rEVIL"),
        ("tag characters", "flag\u{E0041}\u{E007F}"),
    ]

    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200B, 0x2060, 0xFEFF, 0x00AD, 0xE0000...0xE007F: true
        case 0x0D: true
        default: false
        }
    }

    @Test("no forbidden scalar survives", arguments: vectors)
    func neutralizes(name: String, input: String) {
        let output = TerminalSafeText.sanitize(input)
        #expect(!output.unicodeScalars.contains(where: Self.isForbidden), "\(name): \(output.debugDescription)")
        let single = TerminalSafeText.singleLine(input)
        #expect(!single.unicodeScalars.contains(where: Self.isForbidden), "\(name)")
        #expect(!single.contains("\n"))
    }

    @Test("visible text is kept: only the control scalars go")
    func keepsText() {
        #expect(TerminalSafeText.sanitize("red \u{1B}[31mALERT") == "red [31mALERT")
        #expect(TerminalSafeText.sanitize("invoice\u{202E}fdp.exe") == "invoice\u{FFFD}fdp.exe")
        #expect(TerminalSafeText.sanitize("line one\r\nline two\ttab") == "line one\nline two\ttab")
        #expect(TerminalSafeText.sanitize("safe text\rEVIL") == "safe text\nEVIL")
        #expect(TerminalSafeText.sanitize("Grüße 👨‍👩‍👧 日本語 עברית") == "Grüße 👨‍👩‍👧 日本語 עברית")
    }

    @Test("singleLine folds whitespace")
    func singleLine() {
        #expect(TerminalSafeText.singleLine("  Re:\n\tLunch   tomorrow \r\n") == "Re: Lunch tomorrow")
        // The clean-ASCII fast path and the general path agree, spaces at either end included.
        for text in ["", "a", "Re: Lunch", " a", "a ", "a  b", "a\u{7F}b", "a\u{1B}b", "x y z", "é b"] {
            let general = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
                .unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(String.init).joined()
            #expect(TerminalSafeText.singleLine(text) == general, "\(text.debugDescription)")
        }
    }
}
