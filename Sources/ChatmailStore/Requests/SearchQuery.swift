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
public struct SearchQuery: Sendable, Equatable {
    /// The FTS5 MATCH expression.
    public let expression: String
    /// Whether the user wrote FTS5 syntax (rather than plain words).
    public let isAdvanced: Bool
    /// The phrases of a plain query, one per word, each an FTS5 expression of its own (bm25 weighs each
    /// by how many messages it is in); nil for FTS5 syntax, whose phrases are not enumerated.
    public let phrases: [String]?

    static let operators: Set<Substring> = ["AND", "OR", "NOT"]
    static let columns = ["subject:", "body_text:", "{"]

    /// - throws: ``SearchError/emptyQuery`` when there is nothing to search for.
    public init(_ text: String) throws(SearchError) {
        let words = text.split(whereSeparator: { $0.isWhitespace })
        guard !words.isEmpty else { throw .emptyQuery }
        let advanced = text.contains("\"") || text.contains("(") || text.contains(")") || text.contains("^")
            || words.contains { Self.operators.contains($0) || Self.columns.contains(where: $0.hasPrefix) }
        isAdvanced = advanced
        if advanced {
            expression = text
            phrases = nil
        } else {
            let quoted = words.map { word -> String in
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
}

extension SearchError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .emptyQuery:
            "The search query is empty. Give one or more words to look for."
        case .badQuery(let reason):
            "The search query is not valid (\(reason)). Use plain words, or FTS5 syntax such as \"exact phrase\", "
                + "word*, a OR b, NOT c."
        }
    }
}
