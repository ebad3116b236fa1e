import Foundation
import MailText

/// One case's bubble and how it scored.
public struct QualityResult: Sendable {
    public var qualityCase: QualityCase
    /// The text the pipeline shows in the bubble.
    public var bubble: String
    /// The case's expected text.
    public var expected: String
    public var score: QualityScore
}

/// Counts for a group of cases.
public struct QualityFigures: Sendable {
    /// How many cases, and how many of them were exact, lenient and over-stripped.
    public var cases = 0, exact = 0, lenient = 0, overStripped = 0

    mutating func add(_ score: QualityScore) {
        cases += 1
        if score.isExact { exact += 1 }
        if score.isLenient { lenient += 1 }
        if score.isOverStripped { overStripped += 1 }
    }

    /// `count` as a percentage of the cases, to one decimal.
    public func percent(_ count: Int) -> Double {
        cases == 0 ? 0 : (Double(count) * 1000 / Double(cases)).rounded() / 10
    }

    var jsonObject: [String: Any] {
        [
            "cases": cases, "exactPercent": percent(exact), "lenientPercent": percent(lenient),
            "overStripped": overStripped,
            "exact": exact, "lenient": lenient,
        ]
    }
}

/// Per-category and overall figures, as a table and as failure listings.
public struct QualityReport: Sendable {
    public var results: [QualityResult]
    public var categories: [String: QualityFigures] = [:]
    public var summary = QualityFigures()

    public init(results: [QualityResult]) {
        self.results = results
        for result in results {
            categories[result.qualityCase.category, default: QualityFigures()].add(result.score)
            summary.add(result.score)
        }
    }

    /// Cases, exact, lenient and over-stripped per category, then overall.
    public func table() -> String {
        let width = max(24, (categories.keys.map(\.count).max() ?? 0) + 2)
        func row(_ name: String, _ figures: QualityFigures) -> String {
            name.padding(toLength: width, withPad: " ", startingAt: 0)
                + pad(String(figures.cases), 6) + pad(String(format: "%.1f%%", figures.percent(figures.exact)), 9)
                + pad(String(format: "%.1f%%", figures.percent(figures.lenient)), 9)
                + pad(String(figures.overStripped), 15)
        }
        var lines = [
            "category".padding(toLength: width, withPad: " ", startingAt: 0)
                + pad("cases", 6) + pad("exact", 9) + pad("lenient", 9) + pad("over-stripped", 15)
        ]
        lines += categories.keys.sorted().map { row($0, categories[$0]!) }
        lines.append(row("overall", summary))
        return lines.joined(separator: "\n")
    }

    /// The first `limit` cases that are not exact, over-stripped ones first (they are the worst).
    public func failures(limit: Int) -> String {
        let failing = results.filter { !$0.score.isExact }
        let ordered = failing.filter(\.score.isOverStripped) + failing.filter { !$0.score.isOverStripped }
        var lines = ["", "\(failing.count) cases are not exact; the first \(min(limit, failing.count)):"]
        for result in ordered.prefix(limit) {
            let score = result.score
            var flags = [String(format: "distance %.1f%%", score.distance * 100)]
            if score.isOverStripped {
                flags.append("OVER-STRIPPED, lost: " + score.lostWords.prefix(8).joined(separator: " "))
            }
            lines.append("")
            lines.append("\(result.qualityCase.name)  (\(flags.joined(separator: "; ")))")
            lines += CompactDiff.lines(expected: result.expected, bubble: result.bubble).map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// The figures overall (`cases`, `exact`, `exactPercent`, …), per category under `categories`, and
    /// every case's result under `results`: what `chatmail-bench quality --json` prints.
    public var jsonObject: [String: Any] {
        var object = summary.jsonObject
        object["categories"] = categories.mapValues(\.jsonObject)
        object["results"] = results.map { result -> [String: Any] in
            [
                "case": result.qualityCase.name, "category": result.qualityCase.category,
                "exact": result.score.isExact, "lenient": result.score.isLenient,
                "distance": (result.score.distance * 10_000).rounded() / 10_000,
                "overStripped": result.score.isOverStripped, "lostWords": result.score.lostWords,
            ]
        }
        return object
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}

extension QualityReport {
    /// Runs each case's message through `pipeline`, the same entry point import and sync use (parse,
    /// choose the body, strip, unwrap), and scores the bubble against the expected text.
    public init(scoring cases: [QualityCase], with pipeline: TextPipeline) throws {
        var results: [QualityResult] = []
        for qualityCase in cases {
            let raw = [UInt8](try Data(contentsOf: qualityCase.message))
            let expected = try String(contentsOf: qualityCase.expected, encoding: .utf8)
            let bubble = pipeline.process(raw: raw).text.text
            results.append(
                QualityResult(
                    qualityCase: qualityCase, bubble: bubble, expected: expected,
                    score: QualityMetrics.score(bubble: bubble, expected: expected)))
        }
        self.init(results: results)
    }
}
