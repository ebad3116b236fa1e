import Foundation

/// How the store narrows the messages a new subject or text rule must be checked against, before
/// ``RuleWords`` decides: a search can only help when it never misses a message the rule matches.
///
/// The full-text index is no such search: its tokens glue a Latin word to the Chinese, Japanese or Thai
/// letters around it (`Amazonからの`), where ``RuleWords`` sees a word of its own, and it does not yet
/// hold the messages stored earlier in the same transaction.
enum RuleCandidates {
    enum Prefilter: Equatable {
        /// An ASCII pattern: messages whose column contains its longest word in any ASCII case (SQLite's
        /// LIKE), which every whole-word match does, with `i` and `k` standing for anything (`İ` and the
        /// Kelvin sign fold to them).
        case asciiWord(String)
        /// Scripts without case or spaces (Chinese, Japanese, Thai): messages with one character of the
        /// pattern, the first that has no canonical decomposition. Not the whole run: a line break inside
        /// it would hide a match from a search for it. Not a character like `が`: mail may write it as
        /// `か` and a combining mark, which ``RuleWords`` composes but a search for `が` would not find.
        case character(String)
        /// Anything else is checked against every incoming message.
        case none
    }

    /// The prefilter for a folded pattern (a ``RuleWords/joined`` form).
    static func prefilter(for pattern: String) -> Prefilter {
        if pattern.utf8.allSatisfy({ $0 < 0x80 }),
            let longest = pattern.split(separator: " ").max(by: { $0.count < $1.count })
        {
            return .asciiWord(String(longest))
        }
        let scalars = pattern.unicodeScalars.filter { $0 != " " }
        if !scalars.isEmpty, scalars.allSatisfy(RuleWords.isUnspacedScript),
            let stable = scalars.first(where: { scalar in
                String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual([scalar])
            })
        {
            return .character(String(stable))
        }
        return .none
    }
}
