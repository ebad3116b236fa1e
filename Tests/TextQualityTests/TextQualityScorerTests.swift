import Foundation
import MailText
import Testing
import TextQuality

/// The scorer behind `chatmail-bench quality`: the evaluation set in `Fixtures/quality` loads, and the
/// metrics are right. The bubbles of the tiny cases below are one-line bodies that the text pipeline
/// passes through unchanged.
@Suite struct TextQualityScorerTests {
    static let evaluationSet = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/quality")

    /// A folder of cases: each entry is (name, message body, expected text).
    final class CaseFolder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chatmail-quality-\(UUID().uuidString)")

        init(_ cases: [(name: String, body: String, expected: String)]) throws {
            for entry in cases {
                let message = url.appendingPathComponent(entry.name + ".eml")
                try FileManager.default.createDirectory(
                    at: message.deletingLastPathComponent(), withIntermediateDirectories: true)
                let raw =
                    "From: Bob <bob@example.com>\r\nTo: Ann <ann@example.com>\r\nSubject: Re: test\r\n"
                    + "Date: Tue, 05 Mar 2024 11:15:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
                    + entry.body
                try Data(raw.utf8).write(to: message)
                try Data(entry.expected.utf8).write(to: url.appendingPathComponent(entry.name + ".expected.txt"))
            }
        }

        deinit {
            try? FileManager.default.removeItem(at: url)  // best-effort cleanup of a scratch folder
        }
    }

    @Test("every message of the evaluation set has its expected text, and there are at least 300 cases")
    func evaluationSetIsComplete() throws {
        let walker = try #require(
            FileManager.default.enumerator(at: Self.evaluationSet, includingPropertiesForKeys: nil))
        var messages: Set<String> = []
        var expectations: Set<String> = []
        for case let file as URL in walker {
            let path = file.path
            if path.hasSuffix(".expected.txt") {
                expectations.insert(String(path.dropLast(".expected.txt".count)))
            } else if path.hasSuffix(".eml") {
                messages.insert(String(path.dropLast(".eml".count)))
            }
        }
        #expect(
            messages.subtracting(expectations).isEmpty,
            "without expected text: \(messages.subtracting(expectations).sorted())")
        #expect(
            expectations.subtracting(messages).isEmpty,
            "without message: \(expectations.subtracting(messages).sorted())")
        #expect(messages.count >= 300)
    }

    @Test("the scorer loads the evaluation set, category by category")
    func scorerLoadsTheSet() throws {
        let loaded = try QualityCaseLoader.load(from: Self.evaluationSet)
        let categories = Dictionary(grouping: loaded, by: \.category).mapValues(\.count)
        #expect(loaded.count >= 300)
        #expect(categories.values.reduce(0, +) == loaded.count)
        for category in [
            "attribution-languages", "outlook-header-block", "html-quotes", "interleaved", "keep", "corpus-top",
        ] {
            #expect(categories[category] ?? 0 >= 5, "\(category) has \(categories[category] ?? 0) cases")
        }
    }

    @Test("a message without its expected text is an error, not a silently skipped case")
    func incompleteCaseFails() throws {
        let folder = try CaseFolder([(name: "a/complete", body: "Hello", expected: "Hello")])
        try Data("From: x@example.com\r\n\r\nOrphan".utf8).write(to: folder.url.appendingPathComponent("a/orphan.eml"))
        let error = try #require(throws: QualityCaseLoader.Failure.self) {
            try QualityCaseLoader.load(from: folder.url)
        }
        #expect(error.description.contains("a/orphan.eml has no .expected.txt"), "\(error)")
    }

    @Test("exact, lenient, edit distance and over-stripping on hand-made cases")
    func metrics() throws {
        let folder = try CaseFolder([
            // Exact ignores trailing whitespace and CRLF, nothing else.
            (name: "plain/exact", body: "Hello world", expected: "Hello world  \r\n\r\n"),
            // Leading spaces and a run of blank lines: not exact, but the lenient form is identical.
            (
                name: "plain/whitespace", body: "Hello there\r\n\r\n\r\n\r\nGeneral Kenobi",
                expected: "  Hello there\n\nGeneral Kenobi"
            ),
            // Levenshtein("kitten", "sitting") = 3, over the longer length 7; "sitting" is lost.
            (name: "plain/kitten", body: "kitten", expected: "sitting"),
            // One edit in ten characters is exactly the 10% threshold: lenient.
            (name: "threshold/at", body: "abcdefghij", expected: "abcdefghiX"),
            // Two edits in ten: not lenient.
            (name: "threshold/over", body: "abcdefghij", expected: "abcdefghXY"),
            // Extra words in the bubble are under-stripping, not over-stripping.
            (name: "strip/extra", body: "Yes, Tuesday works. Quoted words here", expected: "Yes, Tuesday works."),
            // Words count with multiplicity.
            (name: "strip/lost", body: "ok", expected: "ok ok ok"),
        ])
        // Read back as the bench prints it, so the figures are checked in the JSON scripts read.
        let report = try Self.score(folder)
        let data = try JSONSerialization.data(withJSONObject: report.jsonObject, options: [.sortedKeys])
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let results = try #require(object["results"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: results.map { ($0["case"] as? String ?? "", $0) })

        func check(_ name: String, exact: Bool, lenient: Bool, distance: Double, lost: [String]) {
            let entry = byName[name] ?? [:]
            #expect(entry["exact"] as? Bool == exact, "\(name) exact")
            #expect(entry["lenient"] as? Bool == lenient, "\(name) lenient")
            #expect(
                abs((entry["distance"] as? Double ?? -1) - distance) < 0.0001,
                "\(name) distance \(entry["distance"] ?? "nil")")
            #expect(entry["lostWords"] as? [String] == lost, "\(name) lost words")
            #expect(entry["overStripped"] as? Bool == !lost.isEmpty, "\(name) over-stripped")
        }
        check("plain/exact", exact: true, lenient: true, distance: 0, lost: [])
        check("plain/whitespace", exact: false, lenient: true, distance: 0, lost: [])
        check("plain/kitten", exact: false, lenient: false, distance: 3.0 / 7.0, lost: ["sitting"])
        check("threshold/at", exact: false, lenient: true, distance: 0.1, lost: ["abcdefghix"])
        check("threshold/over", exact: false, lenient: false, distance: 0.2, lost: ["abcdefghxy"])
        check("strip/extra", exact: false, lenient: false, distance: 18.0 / 37.0, lost: [])
        check("strip/lost", exact: false, lenient: false, distance: 6.0 / 8.0, lost: ["ok", "ok"])

        #expect(object["cases"] as? Int == 7)
        #expect(object["exact"] as? Int == 1)
        #expect(object["lenient"] as? Int == 3)
        #expect(object["overStripped"] as? Int == 4)
        let categories = try #require(object["categories"] as? [String: [String: Any]])
        #expect(categories["plain"]?["cases"] as? Int == 3)
        #expect(categories["threshold"]?["lenientPercent"] as? Double == 50)
        #expect(categories["strip"]?["overStripped"] as? Int == 1)
    }

    @Test("--show-failures lists failing cases, over-stripped first, with a compact diff")
    func showFailures() throws {
        let folder = try CaseFolder([
            (name: "x/extra", body: "Yes.\r\n\r\nMore", expected: "Yes."),
            (name: "x/kitten", body: "kitten", expected: "sitting"),
            (name: "x/same", body: "Same", expected: "Same"),
        ])
        let failures = try Self.score(folder).failures(limit: 5)
        #expect(failures.contains("2 cases are not exact"))
        let kitten = try #require(failures.range(of: "x/kitten"))
        let extra = try #require(failures.range(of: "x/extra  ("))
        #expect(kitten.lowerBound < extra.lowerBound, "over-stripped cases come first")
        #expect(failures.contains("OVER-STRIPPED, lost: sitting"))
        #expect(failures.contains("  - sitting\n  + kitten"))
        #expect(failures.contains("  + More"))
        #expect(!failures.contains("x/same"))
    }

    /// Loads the cases of `folder` and scores them as `chatmail-bench quality` does.
    static func score(_ folder: CaseFolder) throws -> QualityReport {
        try QualityReport(scoring: QualityCaseLoader.load(from: folder.url), with: TextPipeline())
    }
}
