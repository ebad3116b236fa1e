import Foundation

/// How rule patterns and the text they are matched against are normalized.
///
/// Sender patterns are identity keys, so `John.Doe+x@GoogleMail.com` and `johndoe@gmail.com` are one
/// rule, exactly as they are one person. Domains are lowercased, without `@`, and Gmail's second domain
/// is `gmail.com`, where its addresses are stored. Subject and text patterns
/// are folded into *words*; see ``RuleWords``.
public enum RulePattern {
    /// The stored form of `pattern` for `field`.
    public static func normalize(_ pattern: String, for field: Rule.Field) throws -> String {
        let trimmed = pattern.trimmingCharacters(in: .whitespacesAndNewlines)
        switch field {
        case .sender:
            let key = EmailNormalizer.identityKey(for: trimmed)
            guard let at = key.lastIndex(of: "@"), at != key.startIndex,
                isDomain(key[key.index(after: at)...]), !key.contains(where: \.isWhitespace),
                // No real address holds a control character; refusing them keeps escapes out of the store.
                !key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw RuleError.notAnAddress(pattern) }
            return key
        case .domain:
            var domain = trimmed.lowercased()
            if domain.hasPrefix("@") { domain.removeFirst() }
            guard isDomain(Substring(domain)) else { throw RuleError.notADomain(pattern) }
            // Addresses at googlemail.com are stored under gmail.com, as one person: so is the rule.
            return EmailNormalizer.gmailDomains.contains(domain) ? "gmail.com" : domain
        case .subject, .text:
            let words = RuleWords(trimmed).joined
            guard !words.isEmpty else { throw RuleError.noWords(pattern) }
            return words
        }
    }

    /// Labels of letters, digits and hyphens, at least two of them, not starting or ending with a dot.
    static func isDomain(_ text: Substring) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, text.count <= 253 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy {
                    $0 == "-" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
                }
        }
    }

    /// The domain of a normalized address, or `nil` when it has none.
    static func domain(of address: String) -> Substring? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        return address[address.index(after: at)...]
    }

    /// Whether a domain rule's `pattern` covers `domain`: the same domain, or a subdomain of it.
    static func domain(_ domain: Substring, isCoveredBy pattern: String) -> Bool {
        guard domain.count >= pattern.count else { return false }
        if domain.count == pattern.count { return domain == pattern }
        return domain.hasSuffix(pattern) && domain.dropLast(pattern.count).last == "."
    }
}

/// Text folded into words, for whole-word matching in any script.
///
/// Case is folded (`lowercased()`, which is Unicode-aware), and the text is put in canonical composed
/// form, so `é` typed one way matches `é` written the other. A word is a run of letters, digits and
/// combining marks; everything else separates words. Scripts written without spaces between words
/// (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) have no word boundaries to find, so each of their
/// characters is a word of its own: a pattern in them matches wherever its characters appear in a row.
///
/// The folded form is the words joined by single spaces. A pattern matches a text when the pattern's
/// folded form appears in the text's folded form between word boundaries, which a search for
/// `" " + pattern + " "` in `" " + text + " "` finds in one pass over bytes.
public struct RuleWords: Sendable, Equatable {
    /// The words joined by single spaces, with no leading or trailing space.
    public let joined: String

    public init(_ text: String) {
        let (folded, needsComposition) = Self.fold(text)
        // Rare: a combining accent (or jamo) that a precomposed letter could have carried. Folding the
        // composed text instead makes `e` + U+0301 and `é` the same word.
        joined = needsComposition ? Self.fold(text.precomposedStringWithCanonicalMapping).joined : folded
    }

    /// One pass over the UTF-8 bytes: ASCII (most mail) is lowercased and copied byte by byte, and only
    /// other scalars are decoded and looked up. Every text of every incoming message goes through here
    /// when a subject or text rule exists, so it must cost little more than a copy.
    private static func fold(_ text: String) -> (joined: String, needsComposition: Bool) {
        var folder = Folder()
        var text = text
        text.withUTF8 { bytes in
            folder.out.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                let lead = bytes[index]
                if lead < 0x80 {
                    folder.ascii(lead >= 0x41 && lead <= 0x5A ? lead + 0x20 : lead)
                    index += 1
                    continue
                }
                // A String's bytes are valid UTF-8, so the lead byte gives the length.
                let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
                var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for offset in 1..<min(length, bytes.count - index) {
                    value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
                }
                index += length
                folder.scalar(Unicode.Scalar(value) ?? "\u{FFFD}")
            }
        }
        return (String(decoding: folder.out, as: UTF8.self), folder.needsComposition)
    }

    /// The state of one fold: the words so far, and whether a space is owed before the next one. A
    /// struct with mutating methods, not a closure over local variables, so that the compiler checks
    /// exclusive access statically instead of at every byte.
    private struct Folder {
        var out: [UInt8] = []
        var pendingSpace = false
        var needsComposition = false

        /// A lowercased ASCII byte.
        mutating func ascii(_ byte: UInt8) {
            if (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
                if pendingSpace && !out.isEmpty { out.append(0x20) }
                pendingSpace = false
                out.append(byte)
            } else {
                pendingSpace = true
            }
        }

        mutating func scalar(_ scalar: Unicode.Scalar) {
            if isComposableMark(scalar) { needsComposition = true }
            // Capital dotted I lowercases to `i` and a combining dot above, which no typed `i` carries:
            // in any case, Turkish İSTANBUL is the word istanbul.
            if scalar == "\u{130}" { return word("i") }
            if scalar.properties.changesWhenLowercased {
                for lowered in scalar.properties.lowercaseMapping.unicodeScalars { word(lowered) }
            } else {
                word(scalar)
            }
        }

        private mutating func word(_ folded: Unicode.Scalar) {
            // Lowercasing keeps Greek final sigma apart from sigma, which capitals cannot tell apart.
            let scalar: Unicode.Scalar = folded == "\u{3C2}" ? "\u{3C3}" : folded
            if isUnspacedScript(scalar) {
                if !out.isEmpty { out.append(0x20) }
                append(scalar)
                pendingSpace = true
            } else if isWordScalar(scalar) {
                if pendingSpace && !out.isEmpty { out.append(0x20) }
                pendingSpace = false
                append(scalar)
            } else {
                pendingSpace = true
            }
        }

        private mutating func append(_ scalar: Unicode.Scalar) {
            for byte in UTF8.encode(scalar) ?? UTF8.EncodedScalar() { out.append(byte) }
        }
    }

    /// Scalars that may compose with what precedes them: combining marks (accents, the Japanese voicing
    /// marks, ...) and Hangul vowel and final jamo.
    private static func isComposableMark(_ scalar: Unicode.Scalar) -> Bool {
        (0x1161...0x11C2).contains(scalar.value) || scalar.properties.canonicalCombiningClass != .notReordered
    }

    /// Whether the folded `pattern` (a ``joined`` form) occurs here as whole words.
    public func contains(_ pattern: String) -> Bool {
        guard !pattern.isEmpty else { return false }
        var text = joined
        var word = pattern
        return text.withUTF8 { text in word.withUTF8 { word in Self.find(word, in: text) } }
    }

    /// A byte search whose match must start at the text's start or after a space, and end at its end or
    /// before a space: whole words, without building space-padded copies of either string.
    private static func find(_ word: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let needle = word.baseAddress, let haystack = text.baseAddress, word.count > 0,
            word.count <= text.count
        else { return false }
        let space = UInt8(ascii: " ")
        var start = 0
        let last = text.count - word.count
        // memchr (vectorized in glibc) jumps to each occurrence of the first byte; memcmp and the word
        // boundaries decide there.
        while start <= last, let found = memchr(haystack + start, Int32(word[0]), last - start + 1) {
            let offset = haystack.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let end = offset + word.count
            if (offset == 0 || text[offset - 1] == space) && (end == text.count || text[end] == space)
                && memcmp(haystack + offset, needle, word.count) == 0
            {
                return true
            }
            start = offset + 1
        }
        return false
    }

    /// Letters, digits and combining marks make words.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            true
        default:
            false
        }
    }

    /// Scripts written without spaces between words, whose every character is a word.
    static func isUnspacedScript(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0EFF,  // Thai, Lao
            0x1000...0x109F,  // Myanmar
            0x1780...0x17FF,  // Khmer
            0x3040...0x30FF, 0x31F0...0x31FF,  // Hiragana, Katakana
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F,  // Han
            0xFF66...0xFF9F:  // half-width Katakana
            true
        default:
            false
        }
    }
}
