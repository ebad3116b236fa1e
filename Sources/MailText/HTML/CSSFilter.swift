import Foundation

/// One `property: value` pair from an inline `style` attribute.
struct CSSDeclaration: Equatable {
    /// The lowercased property name.
    var property: String
    /// The value as written, trimmed.
    var value: String
}

/// Parses and filters inline CSS (`style` attributes).
///
/// Only declarations whose property is allow-listed and whose value cannot fetch or run anything survive.
/// The text extractor uses the same parser to recognise hidden content (`display:none`, `font-size:0`, …).
enum CSSFilter {
    /// Properties kept by the sanitizer.
    ///
    /// `visibility`, `opacity`, `max-height` and `overflow` are not presentation the sender needs, but they keep
    /// hidden preheaders hidden once the sanitized HTML is rendered.
    static let allowedProperties: Set<String> = [
        "color", "background-color", "font-weight", "font-style", "font-size", "font-family", "text-align",
        "text-decoration", "width", "height", "display", "white-space", "line-height", "vertical-align",
        "visibility", "opacity", "max-height", "overflow",
    ]

    /// Property families kept by prefix (`margin-top`, `border-left-color`, …).
    static let allowedPropertyPrefixes: [String] = ["margin", "padding", "border"]

    /// Fragments that make a value dangerous wherever they appear (checked lowercased, whitespace removed).
    static let forbiddenValueFragments: [String] = [
        "url(", "expression(", "javascript:", "vbscript:", "behavior", "-moz-binding", "@import", "\\", "/*",
        "image-set(", "image(",
    ]

    /// Splits a `style` attribute into declarations, respecting quotes and parentheses.
    ///
    /// Works on UTF-8 bytes: CSS syntax is ASCII, and walking `Character`s (grapheme breaking, Unicode
    /// properties) made this half of the sanitizer's time. Non-ASCII text inside values passes through.
    static func parse(_ style: String) -> [CSSDeclaration] {
        var declarations: [CSSDeclaration] = []
        var utf8 = style
        utf8.withUTF8 { bytes in
            var start = 0
            var quote: UInt8 = 0
            var depth = 0
            func flush(_ end: Int) {
                defer { start = end + 1 }
                guard let colon = bytes[start..<end].firstIndex(of: UInt8(ascii: ":")) else { return }
                let property = trimmed(bytes[start..<colon])
                guard !property.isEmpty else { return }
                let name = String(decoding: property.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
                declarations.append(
                    CSSDeclaration(
                        property: name, value: String(decoding: trimmed(bytes[(colon + 1)..<end]), as: UTF8.self)))
            }
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == 0x22 || byte == 0x27 {  // " '
                    quote = byte
                } else if byte == 0x28 {  // (
                    depth += 1
                } else if byte == 0x29 {  // )
                    depth = max(0, depth - 1)
                } else if byte == 0x3B && depth == 0 {  // ;
                    flush(index)
                }
            }
            flush(bytes.count)
        }
        return declarations
    }

    static let forbiddenFragmentBytes: [[UInt8]] = forbiddenValueFragments.map { Array($0.utf8) }

    /// Trims ASCII whitespace and control bytes at both ends.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) -> ArraySlice<UInt8> {
        var lower = bytes.startIndex
        var upper = bytes.endIndex
        while lower < upper, bytes[lower] <= 0x20 || bytes[lower] == 0x7F { lower += 1 }
        while upper > lower, bytes[upper - 1] <= 0x20 || bytes[upper - 1] == 0x7F { upper -= 1 }
        return ArraySlice(bytes[lower..<upper])
    }

    /// The filtered `style` value, or `nil` when nothing survives (the caller then drops the attribute).
    static func sanitize(_ style: String) -> String? {
        var output: [UInt8] = []
        var scratch: [UInt8] = []
        var style = style
        style.withUTF8 { self.appendSanitized($0, to: &output, compactScratch: &scratch) }
        return output.isEmpty ? nil : String(decoding: output, as: UTF8.self)
    }

    /// Whether inline CSS hides its element: display:none, visibility:hidden, zero font size, zero max-height,
    /// `mso-hide:all` or zero opacity (the usual ways to hide a preheader).
    static func hidesContent(_ style: String) -> Bool {
        for declaration in self.parse(style) {
            let value = self.plainValue(declaration.value)
            switch declaration.property {
            case "display": if value == "none" { return true }
            case "visibility": if value == "hidden" || value == "collapse" { return true }
            case "font-size", "max-height": if self.isZeroLength(value) { return true }
            case "mso-hide": if value == "all" { return true }
            case "opacity": if let number = Double(value), number <= 0 { return true }
            default: continue  // any other property leaves content visible (a switch over strings, not our enum)
            }
        }
        return false
    }

    /// A value lowercased, without `!important`, trimmed: what the hidden-content and size checks compare.
    static func plainValue(_ value: String) -> String {
        var text = value.lowercased()
        // Most values have no "!" at all: only those pay for the search.
        if text.utf8.contains(UInt8(ascii: "!")), let range = text.range(of: "!important") {
            text.removeSubrange(range)
        }
        return text.trimmingCSSWhitespace()
    }

    /// A length of zero in any unit: `0`, `0px`, `0pt`, `0em`, `0.0%`.
    static func isZeroLength(_ value: String) -> Bool {
        let number = value.prefix(while: { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" })
        guard !number.isEmpty, let parsed = Double(number) else { return false }
        return parsed == 0
    }

    /// A CSS length in pixels (`1`, `1px`), for tracking-pixel detection; `nil` for other units or `auto`.
    static func pixels(_ value: String) -> Double? {
        var text = self.plainValue(value)
        if text.hasSuffix("px") { text.removeLast(2) }
        return Double(text.trimmingCSSWhitespace())
    }
}

extension StringProtocol {
    /// Trims spaces, tabs, newlines, form feeds and other control characters at both ends.
    func trimmingCSSWhitespace() -> String {
        // Fast path: printable ASCII at both ends needs no trimming (and no Unicode properties).
        let whole = String(self)
        if let first = whole.utf8.first, let last = whole.utf8.last, first > 0x20, first < 0x7F, last > 0x20,
            last < 0x7F
        {
            return whole
        }
        let isSpace: (Character) -> Bool = { $0.isWhitespace || $0.isASCIIControl }
        guard let first = self.firstIndex(where: { !isSpace($0) }),
            let last = self.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}

extension Character {
    /// C0 controls and DEL, which browsers and URL parsers strip or ignore in surprising places.
    var isASCIIControl: Bool {
        guard let scalar = self.unicodeScalars.first, self.unicodeScalars.count == 1 else { return false }
        return scalar.value < 0x20 || scalar.value == 0x7F
    }
}
