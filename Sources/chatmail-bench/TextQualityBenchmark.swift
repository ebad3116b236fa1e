import ArgumentParser
import Foundation
import MailText
import TextQuality

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
        let report = try QualityReport(scoring: loaded, with: TextPipeline())
        if json {
            try printJSON(report)
        } else {
            print("text quality: \(report.results.count) cases in \(cases)")
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
        print(
            String(
                decoding: try JSONSerialization.data(withJSONObject: report.jsonObject, options: [.sortedKeys]),
                as: UTF8.self))
    }
}
