import Foundation

/// A user's search text turned into an FTS5 query.
///
/// Plain words are the common case, and FTS5 reads many ordinary words as syntax: `don't`,
/// `e-mail`, `10:30`, `AT&T` or `C++` are syntax errors or column filters when passed through. So
/// plain text is split on whitespace and each word is quoted as a phrase (`"don't"`), joined with
/// AND: every word must appear. A word ending in `*` stays a prefix query (`meet*`).
///
/// A query that uses FTS5 operators on purpose — a double quote, parentheses, `AND`/`OR`/`NOT` in
/// capitals, `NEAR(`, a `^` or a `subject:`/`body_text:` column filter — is passed through as FTS5
/// syntax, and its syntax errors are reported as ``SearchError/badQuery(_:)``.
///
/// FTS5 looks every phrase up in the index and bm25 scores each one, so the cost grows with the number
/// of words: a word pasted two thousand times took 15 s. A plain word repeated (in any case) is the
/// same phrase to FTS5, so repeats are dropped; then at most ``maximumTermCount`` different words and
/// ``maximumLength`` characters are searched for, and a longer query is refused with a clear reason
/// rather than cut, since a cut query would silently find other messages.
public struct SearchQuery: Sendable, Equatable {
    /// The FTS5 MATCH expression.
    public let expression: String
    /// Whether the user wrote FTS5 syntax (rather than plain words).
    public let isAdvanced: Bool
    /// The phrases of a plain query, one per word, each an FTS5 expression of its own (bm25 weighs each
    /// by how many messages it is in); nil for FTS5 syntax, whose phrases are not enumerated.
    public let phrases: [String]?

    /// The most different words a query may have.
    public static let maximumTermCount = 32
    /// The most characters a query may have, once repeated plain words are dropped.
    public static let maximumLength = 1_000

    static let operators: Set<Substring> = ["AND", "OR", "NOT"]
    static let columns = ["subject:", "body_text:", "{"]

    /// - throws: ``SearchError/emptyQuery`` when there is nothing to search for,
    ///   ``SearchError/tooManyTerms(_:)`` or ``SearchError/tooLong`` when it asks too much.
    public init(_ text: String) throws(SearchError) {
        let words = text.split(whereSeparator: { $0.isWhitespace })
        guard !words.isEmpty else { throw .emptyQuery }
        let advanced =
            text.contains("\"") || text.contains("(") || text.contains(")") || text.contains("^")
            || words.contains { Self.operators.contains($0) || Self.columns.contains(where: $0.hasPrefix) }
        isAdvanced = advanced
        if advanced {
            // FTS5 syntax gives repeats meaning (a OR a, NEAR groups), so nothing is dropped; only counted.
            let terms = Set(
                text.split(whereSeparator: { $0.isWhitespace || "()\"^,".contains($0) })
                    .filter { !Self.operators.contains($0) && $0 != "NEAR" }
                    .map { $0.lowercased() })
            guard terms.count <= Self.maximumTermCount else { throw .tooManyTerms(terms.count) }
            guard text.count <= Self.maximumLength else { throw .tooLong }
            expression = text
            phrases = nil
        } else {
            // FTS5's tokenizer folds case, so "Word" and "word" are one phrase.
            var seen = Set<String>()
            let distinct = words.filter { seen.insert($0.lowercased()).inserted }
            guard distinct.count <= Self.maximumTermCount else { throw .tooManyTerms(distinct.count) }
            guard distinct.reduce(distinct.count - 1, { $0 + $1.count }) <= Self.maximumLength else { throw .tooLong }
            let quoted = distinct.map { word -> String in
                let isPrefix = word.count > 1 && word.hasSuffix("*")
                let term = isPrefix ? word.dropLast() : word
                return "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (isPrefix ? "*" : "")
            }
            expression = quoted.joined(separator: " ")
            phrases = quoted
        }
    }
}

/// Why a search could not run.
public enum SearchError: Error, Sendable, Equatable {
    case emptyQuery
    /// FTS5 rejected the query; the associated text is its reason, without SQL.
    case badQuery(String)
    /// The query has this many different words, more than ``SearchQuery/maximumTermCount``.
    case tooManyTerms(Int)
    /// The query is longer than ``SearchQuery/maximumLength`` characters.
    case tooLong
}

extension SearchError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .emptyQuery:
            "The search query is empty. Give one or more words to look for."
        case .badQuery(let reason):
            "The search query is not valid (\(reason)). Use plain words, or FTS5 syntax such as \"exact phrase\", "
                + "word*, a OR b, NOT c."
        case .tooManyTerms(let count):
            "The search query has too many different words (\(count); at most \(SearchQuery.maximumTermCount)). "
                + "Keep the few words that single out the messages you want."
        case .tooLong:
            "The search query is too long (at most \(SearchQuery.maximumLength) characters). "
                + "Keep the few words that single out the messages you want."
        }
    }
}
