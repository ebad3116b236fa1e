import ArgumentParser
import Foundation
import MailText

/// `chatmail-bench quality`: how close the bubble text comes to what the sender wrote, per category of an
/// evaluation set (`Fixtures/quality`, described in `Docs/TEXT-QUALITY.md`).
struct TextQualityBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quality",
        abstract: "Score the bubble text of an evaluation set against its expected texts, per category.",
        discussion: """
            Each case is <name>.eml with <name>.expected.txt beside it; its category is its first folder. \
            Exact: equal after normalizing line endings and trailing whitespace. Lenient: edit distance at most \
            10% of the longer text after trimming lines and collapsing blank-line runs. Over-stripped: the bubble \
            lacks words the expected text has.
            """)

    @Option(help: "The evaluation set: a folder of <name>.eml + <name>.expected.txt cases.") var cases =
        "Fixtures/quality"
    @Flag(help: "Print one JSON object (per-category figures and every case's result) instead of a table.") var json =
        false
    @Option(help: "Print the first N failing cases with a compact diff.") var showFailures = 0
    @Flag(help: "Only check that the set loads; print the case count per category.") var check = false

    func run() throws {
        let loaded = try QualityCaseLoader.load(from: URL(fileURLWithPath: cases))
        if check {
            try printCheck(loaded)
            return
        }
        let pipeline = TextPipeline()
        var results: [QualityResult] = []
        for qualityCase in loaded {
            let raw = [UInt8](try Data(contentsOf: qualityCase.message))
            let expected = try String(contentsOf: qualityCase.expected, encoding: .utf8)
            // The same entry point import and sync use: parse, choose the body, strip, unwrap.
            let bubble = pipeline.process(raw: raw).text.text
            results.append(
                QualityResult(
                    qualityCase: qualityCase, bubble: bubble, expected: expected,
                    score: QualityMetrics.score(bubble: bubble, expected: expected)))
        }
        let report = QualityReport(results: results)
        if json {
            try printJSON(report)
        } else {
            print("text quality: \(results.count) cases in \(cases)")
            print(report.table())
            if showFailures > 0 { print(report.failures(limit: showFailures)) }
        }
    }

    private func printCheck(_ loaded: [QualityCase]) throws {
        let counts = Dictionary(grouping: loaded, by: \.category).mapValues(\.count)
        if json {
            let object: [String: Any] = ["cases": loaded.count, "categories": counts]
            print(
                String(
                    decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            )
        } else {
            for category in counts.keys.sorted() { print("\(category): \(counts[category]!)") }
            print("total: \(loaded.count) cases")
        }
    }

    private func printJSON(_ report: QualityReport) throws {
        var object = report.summary.jsonObject
        object["categories"] = report.categories.mapValues(\.jsonObject)
        object["results"] = report.results.map { result -> [String: Any] in
            [
                "case": result.qualityCase.name, "category": result.qualityCase.category,
                "exact": result.score.isExact, "lenient": result.score.isLenient,
                "distance": (result.score.distance * 10_000).rounded() / 10_000,
                "overStripped": result.score.isOverStripped, "lostWords": result.score.lostWords,
            ]
        }
        print(
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
    }
}

/// One case's bubble and how it scored.
struct QualityResult {
    var qualityCase: QualityCase
    var bubble: String
    var expected: String
    var score: QualityScore
}

/// Counts for a group of cases.
struct QualityFigures {
    var cases = 0, exact = 0, lenient = 0, overStripped = 0

    mutating func add(_ score: QualityScore) {
        cases += 1
        if score.isExact { exact += 1 }
        if score.isLenient { lenient += 1 }
        if score.isOverStripped { overStripped += 1 }
    }

    func percent(_ count: Int) -> Double { cases == 0 ? 0 : (Double(count) * 1000 / Double(cases)).rounded() / 10 }

    var jsonObject: [String: Any] {
        [
            "cases": cases, "exactPercent": percent(exact), "lenientPercent": percent(lenient),
            "overStripped": overStripped,
            "exact": exact, "lenient": lenient,
        ]
    }
}

/// Per-category and overall figures, as a table and as failure listings.
struct QualityReport {
    var results: [QualityResult]
    var categories: [String: QualityFigures] = [:]
    var summary = QualityFigures()

    init(results: [QualityResult]) {
        self.results = results
        for result in results {
            categories[result.qualityCase.category, default: QualityFigures()].add(result.score)
            summary.add(result.score)
        }
    }

    func table() -> String {
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
    func failures(limit: Int) -> String {
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

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
