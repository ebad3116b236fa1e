import Foundation

/// One evaluation case: a whole message and the bubble text it should produce.
public struct QualityCase: Sendable {
    /// The path under the cases folder without extension, e.g. `mobile-footers/iphone-french`.
    public var name: String
    /// The first folder under the cases folder.
    public var category: String
    /// The `<name>.eml` file.
    public var message: URL
    /// The `<name>.expected.txt` file beside it: the text the bubble should show.
    public var expected: URL
}

/// Finds the cases of an evaluation set: every `<name>.eml` with its `<name>.expected.txt` beside it.
public enum QualityCaseLoader {
    /// A set that cannot be scored as it is: unreadable, empty, or with half-written cases.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    static let expectedSuffix = ".expected.txt"

    /// The cases under `folder`, sorted by name. A message without its expected text, or an expected text
    /// without its message, is an error: a half-written case must not silently drop out of the figures.
    public static func load(from folder: URL) throws -> [QualityCase] {
        let root = folder.standardizedFileURL.resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else {
            throw Failure(description: "cannot read \(folder.path)")
        }
        var messages: [String: URL] = [:]
        var expectations: [String: URL] = [:]
        for case let file as URL in walker {
            let relative = String(file.resolvingSymlinksInPath().path.dropFirst(root.path.count + 1))
            if relative.hasSuffix(expectedSuffix) {
                expectations[String(relative.dropLast(expectedSuffix.count))] = file
            } else if file.pathExtension == "eml" {
                messages[String(relative.dropLast(".eml".count))] = file
            }
        }
        let orphans = Set(messages.keys).symmetricDifference(expectations.keys).sorted()
        guard orphans.isEmpty else {
            let list = orphans.prefix(10).map {
                messages[$0] == nil ? "\($0)\(expectedSuffix) has no .eml" : "\($0).eml has no \(expectedSuffix)"
            }
            throw Failure(description: "incomplete cases in \(folder.path): " + list.joined(separator: "; "))
        }
        guard !messages.isEmpty else {
            throw Failure(description: "no cases (.eml + .expected.txt) under \(folder.path)")
        }
        return messages.keys.sorted().map { name in
            let category = name.contains("/") ? String(name.prefix { $0 != "/" }) : "(top level)"
            return QualityCase(name: name, category: category, message: messages[name]!, expected: expectations[name]!)
        }
    }
}

/// How one bubble compares with its expected text.
public struct QualityScore: Sendable, Equatable {
    /// Equal once line endings and trailing whitespace are normalized.
    public var isExact: Bool
    /// Edit distance over the longer text's length, after ``QualityMetrics/lenientForm(_:)``.
    public var distance: Double
    /// Words of the expected text the bubble lacks (counted with multiplicity, in expected order).
    public var lostWords: [String]

    public var isLenient: Bool { distance <= QualityMetrics.lenientThreshold }
    /// The bubble dropped text the sender wrote: the worst failure, worse than showing a quote.
    public var isOverStripped: Bool { !lostWords.isEmpty }
}

/// The comparison rules, kept free of I/O so they can be checked on tiny inputs.
public enum QualityMetrics {
    /// A bubble within this share of edits of its expected text counts as leniently right.
    public static let lenientThreshold = 0.10

    public static func score(bubble: String, expected: String) -> QualityScore {
        let exact = exactForm(bubble) == exactForm(expected)
        let left = Array(lenientForm(bubble).unicodeScalars)
        let right = Array(lenientForm(expected).unicodeScalars)
        let longest = max(left.count, right.count)
        let distance = longest == 0 ? 0 : Double(editDistance(left, right)) / Double(longest)
        return QualityScore(isExact: exact, distance: distance, lostWords: missingWords(of: expected, in: bubble))
    }

    /// CRLF and CR made LF, trailing whitespace removed from every line and from the end.
    static func exactForm(_ text: String) -> String {
        String(trimmingTrailing(Substring(lines(of: text).map(trimmingTrailing).joined(separator: "\n"))))
    }

    /// ``exactForm(_:)`` plus: every line trimmed at both ends, runs of blank lines made one, blank lines at
    /// both ends dropped.
    static func lenientForm(_ text: String) -> String {
        var output: [Substring] = []
        var pendingBlank = false
        for line in lines(of: text) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty {
                pendingBlank = !output.isEmpty
                continue
            }
            if pendingBlank { output.append("") }
            pendingBlank = false
            output.append(Substring(trimmed))
        }
        return output.joined(separator: "\n")
    }

    /// Levenshtein distance over Unicode scalars, two rows at a time.
    static func editDistance(_ left: [Unicode.Scalar], _ right: [Unicode.Scalar]) -> Int {
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        var previous = Array(0...right.count)
        var current = [Int](repeating: 0, count: right.count + 1)
        for i in 1...left.count {
            current[0] = i
            let scalar = left[i - 1]
            for j in 1...right.count {
                let substitution = previous[j - 1] + (scalar == right[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }

    /// Lowercased runs of letters and digits: punctuation, spacing and line joins do not change them.
    /// Invisible format characters (zero-width joiners, bidi marks) are skipped, not word breaks: the
    /// pipeline may drop them, and a word without them is the same word.
    static func words(of text: String) -> [String] {
        var result: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.generalCategory == .format {
                continue
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                word.append(scalar)
            } else if !word.isEmpty {
                result.append(String(word))
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { result.append(String(word)) }
        return result
    }

    /// The expected text's words that the bubble does not have as often.
    static func missingWords(of expected: String, in bubble: String) -> [String] {
        var available: [String: Int] = [:]
        for word in words(of: bubble) { available[word, default: 0] += 1 }
        var missing: [String] = []
        for word in words(of: expected) {
            if let count = available[word], count > 0 {
                available[word] = count - 1
            } else {
                missing.append(word)
            }
        }
        return missing
    }

    private static func lines(of text: String) -> [Substring] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
    }

    private static func trimmingTrailing(_ line: Substring) -> Substring {
        var end = line.endIndex
        while end > line.startIndex, let last = line[..<end].last, last.isWhitespace { end = line.index(before: end) }
        return line[..<end]
    }
}

/// A line diff small enough to read in a terminal: the lines only one side has, with their side marked.
public enum CompactDiff {
    /// `- ` lines the expected text has and the bubble lacks, `+ ` lines only the bubble has, in order,
    /// long lines cut at `width`, at most `limit` lines.
    public static func lines(expected: String, bubble: String, limit: Int = 12, width: Int = 100) -> [String] {
        let old = QualityMetrics.lenientForm(expected).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        let new = QualityMetrics.lenientForm(bubble).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
        // Longest common subsequence table, from the ends, so the walk below goes forwards.
        var table = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var output: [String] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count && j < new.count && old[i] == new[j] {
                i += 1
                j += 1
            } else if i < old.count && (j == new.count || table[i + 1][j] >= table[i][j + 1]) {
                output.append("- " + old[i])
                i += 1
            } else {
                output.append("+ " + new[j])
                j += 1
            }
        }
        let shown = output.prefix(limit).map { $0.count > width ? String($0.prefix(width - 1)) + "…" : $0 }
        return output.count > limit ? shown + ["  … \(output.count - limit) more changed lines"] : shown
    }
}
