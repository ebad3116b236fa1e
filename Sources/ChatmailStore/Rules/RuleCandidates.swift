/// How the store narrows the messages a new subject or text rule must be checked against, before
/// ``RuleWords`` decides: an index can only help when it can never miss a message the rule matches.
enum RuleCandidates {
    enum Prefilter: Equatable {
        /// The full-text index: its tokenizer (unicode61, diacritics removed) splits and folds the
        /// pattern's letters as ``RuleWords`` does, or more loosely, so a phrase query finds a superset.
        case fullText
        /// Scripts without case or spaces (Chinese, Japanese, Thai): messages with the pattern's first
        /// character. Not the whole run: a line break inside it would hide a match from a search for it.
        case character(String)
        /// Anything else is checked against every incoming message.
        case none
    }

    /// The prefilter for a folded pattern (a ``RuleWords/joined`` form).
    static func prefilter(for pattern: String) -> Prefilter {
        let scalars = pattern.unicodeScalars.filter { $0 != " " }
        if scalars.allSatisfy(isFullTextLetter) { return .fullText }
        if let first = scalars.first, scalars.allSatisfy(RuleWords.isUnspacedScript) {
            return .character(String(first))
        }
        return .none
    }

    /// ASCII letters and digits, and the letters of the Latin, Greek and Cyrillic blocks, which
    /// unicode61 has folded (case and accents) since SQLite first shipped it.
    private static func isFullTextLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x61...0x7A: true
        case 0xC0...0x24F, 0x370...0x3FF, 0x400...0x4FF, 0x1E00...0x1FFF: scalar.properties.isAlphabetic
        default: false
        }
    }
}
