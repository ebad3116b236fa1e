import Foundation

/// File names made from email text (conversation titles, attachment names) that are safe to create.
///
/// A name is one path component of letters, digits and a few separators: it can never contain `/`,
/// `..`, NUL, control characters or a leading dot, never be a name Windows reserves (`CON`, `NUL`,
/// `COM1`…) or one the export itself uses (`index`), and it fits in ``maximumBytes`` UTF-8 bytes,
/// well under the 255-byte limit of common file systems even with a collision suffix.
public enum SafeFileName {
    /// Names longer than this (in UTF-8 bytes, extension included) are cut.
    public static let maximumBytes = 100

    /// Base names the export itself writes beside conversation files, or that Windows reserves (device
    /// names, with the digits 0–9 and the superscripts ¹ ² ³ Windows also accepts).
    static let reserved: Set<String> = {
        var names: Set<String> = ["index", "attachments", "con", "prn", "aux", "nul"]
        for number in ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³"] {
            names.insert("com" + number)
            names.insert("lpt" + number)
        }
        return names
    }()

    /// A lowercase slug of `title`: letters and digits of any script joined by single hyphens.
    /// "Alice Liddell" → `alice-liddell`, "Ärger & Co." → `ärger-co`, "../../etc" → `etc`.
    public static func slug(_ title: String, fallback: String = "conversation") -> String {
        var slug = ""
        var pendingHyphen = false
        for character in title.precomposedStringWithCanonicalMapping.lowercased() {
            if character.isLetter || character.isNumber, character.unicodeScalars.allSatisfy({ !isUnsafe($0) }) {
                if pendingHyphen && !slug.isEmpty { slug += "-" }
                pendingHyphen = false
                slug.append(character)
            } else {
                pendingHyphen = true
            }
        }
        slug = capped(slug, bytes: maximumBytes - 12)  // room for "-NNN" and ".md"
        while slug.hasSuffix("-") { slug.removeLast() }
        if slug.isEmpty { slug = fallback }
        if reserved.contains(slug) { slug += "-chat" }
        return slug
    }

    /// A safe version of an attachment's file name that keeps its extension:
    /// "Q3 report (final).PDF" → `Q3-report-final.PDF`, "../../.bashrc" → `bashrc`.
    public static func attachmentName(_ filename: String, fallback: String = "attachment") -> (
        base: String, extension: String
    ) {
        let normalized = filename.precomposedStringWithCanonicalMapping
        // Only the last path component counts, whichever separator the sender's system used.
        let lastComponent = normalized.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var base = lastComponent
        var ext = ""
        if let dot = lastComponent.lastIndex(of: "."), dot != lastComponent.startIndex {
            let candidate = String(lastComponent[lastComponent.index(after: dot)...])
            if (1...10).contains(candidate.count), candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            {
                ext = candidate
                base = String(lastComponent[..<dot])
            }
        }
        var cleaned = ""
        var pendingHyphen = false
        for character in base {
            let keep =
                (character.isLetter || character.isNumber || character == "_" || character == "." || character == "-")
                && character.unicodeScalars.allSatisfy { !isUnsafe($0) }
            if keep && character != "-" {
                if pendingHyphen && !cleaned.isEmpty { cleaned += "-" }
                pendingHyphen = false
                cleaned.append(character)
            } else {
                pendingHyphen = true
            }
        }
        // No leading dots (hidden files, `..`), no trailing dots (Windows drops them).
        while cleaned.hasPrefix(".") || cleaned.hasPrefix("-") { cleaned.removeFirst() }
        cleaned = capped(cleaned, bytes: maximumBytes - 12 - ext.utf8.count)
        while cleaned.hasSuffix(".") || cleaned.hasSuffix("-") { cleaned.removeLast() }
        if cleaned.isEmpty { cleaned = fallback }
        // Windows reserves a device name whatever extensions follow it: `CON.tar.gz` is `CON`.
        let device = cleaned.prefix { $0 != "." }
        if reserved.contains(device.lowercased()) { cleaned = device + "-file" + cleaned.dropFirst(device.count) }
        return (cleaned, ext)
    }

    /// `text` cut to at most `bytes` UTF-8 bytes, on a character boundary.
    static func capped(_ text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= bytes else { break }
            result.append(character)
            used += size
        }
        return result
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.isDefaultIgnorableCodePoint
            || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// Hands out unique names in one directory, case-insensitively (so the export also works on
    /// case-insensitive file systems): the first `alice` gets `alice.md`, the next `alice-2.md`.
    public struct Allocator: Sendable {
        private var taken: Set<String>

        /// - Parameter taken: names already in use, such as `index.md`.
        public init(taken: Set<String> = []) {
            self.taken = Set(taken.map(Self.folded))
        }

        public mutating func claim(base: String, extension ext: String) -> String {
            let suffix = ext.isEmpty ? "" : "." + ext
            var candidate = base + suffix
            var number = 2
            while taken.contains(Self.folded(candidate)) {
                candidate = "\(base)-\(number)\(suffix)"
                number += 1
            }
            taken.insert(Self.folded(candidate))
            return candidate
        }

        /// The name as case-insensitive file systems compare it, or a little more: upper-casing first
        /// folds what `lowercased()` keeps apart (`ς` and `σ`, `ß` and `SS`). Folding too much only costs
        /// a suffix; folding too little would let one file replace another.
        static func folded(_ name: String) -> String {
            name.uppercased().lowercased()
        }
    }
}
