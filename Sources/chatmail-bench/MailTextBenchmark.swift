import ArgumentParser
import Foundation
import MailText

/// `chatmail-bench mailtext`: the text pipeline, the sanitizer and `chatmail import` over a corpus.
struct MailTextBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mailtext",
        abstract: "Time the text pipeline (one core), the HTML sanitizer and `chatmail import` over a corpus.")

    @Option(help: "The corpus directory (.eml files, searched recursively).") var corpus: String
    @Option(help: "Timed runs of each measurement; the median is reported.") var runs = 5
    @Option(help: "Whole-process runs of `chatmail import` into a fresh home.") var importRuns = 3
    @Option(help: "Write the HTML bodies used for the sanitizer figures here (for peer tools).") var exportHtml: String?
    @Flag(help: "Print one JSON object instead of text.") var json = false
    @Flag(help: "Only time the sanitizer (for profiling it).") var sanitizerOnly = false

    func run() throws {
        let files = try corpusFiles()
        let messages = try files.map { [UInt8](try Data(contentsOf: $0)) }
        let totalBytes = messages.reduce(0) { $0 + $1.count }
        let pipeline = TextPipeline()

        if sanitizerOnly {
            let bodies = messages.compactMap { ParsedMessage(raw: $0).htmlPart?.text }
            let bytes = bodies.reduce(0) { $0 + $1.utf8.count }
            let seconds = (0..<runs).map { _ in timed { for html in bodies { _ = HTMLSanitizer().sanitize(html) } } }
                .median
            print(
                "sanitizer: \(bodies.count) bodies, \(String(format: "%.1f", Double(bytes) / 1_048_576 / seconds)) MB/s"
            )
            return
        }
        // The pipeline: parse → text → sanitize, one message after another on one core.
        let pipelineSeconds = (0..<runs).map { _ in
            timed { for raw in messages { _ = pipeline.process(raw: raw) } }
        }.median

        // The sanitizer alone, on every HTML body of the corpus.
        let htmlBodies = messages.compactMap { ParsedMessage(raw: $0).htmlPart?.text }
        let htmlBytes = htmlBodies.reduce(0) { $0 + $1.utf8.count }
        let sanitizer = HTMLSanitizer()
        let sanitizerSeconds = (0..<runs).map { _ in
            timed { for html in htmlBodies { _ = sanitizer.sanitize(html) } }
        }.median
        if let exportHtml {
            try FileManager.default.createDirectory(atPath: exportHtml, withIntermediateDirectories: true)
            for (index, html) in htmlBodies.enumerated() {
                try Data(html.utf8).write(
                    to: URL(fileURLWithPath: exportHtml).appendingPathComponent(String(format: "%05d.html", index)))
            }
        }

        // `chatmail import` end to end, as a user runs it, into a fresh home each time.
        let chatmail = try ProcessTimer.siblingExecutable(named: "chatmail")
        var importTimes: [Double] = []
        for _ in 0..<max(1, importRuns) {
            let home = FileManager.default.temporaryDirectory.appendingPathComponent(
                "chatmail-bench-import-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: home) }  // best-effort cleanup of a scratch home
            let scratch = home.appendingPathComponent("out.txt").path
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let start = ContinuousClock.now
            let status = try ProcessTimer.spawnAndWait(
                chatmail.path, arguments: ["import", corpus, "--me", "bench@example.org", "--home", home.path],
                environment: ProcessInfo.processInfo.environment, outputPath: scratch)
            importTimes.append((ContinuousClock.now - start).seconds)
            guard status == 0 else { throw ProcessTimer.Failure(description: "chatmail import exited \(status)") }
        }
        let importSeconds = importTimes.median

        let figures: [String: Double] = [
            "messages": Double(messages.count), "megabytes": Double(totalBytes) / 1_048_576,
            "pipelineSeconds": pipelineSeconds, "pipelineMBps": Double(totalBytes) / 1_048_576 / pipelineSeconds,
            "pipelineMessagesPerSecond": Double(messages.count) / pipelineSeconds,
            "htmlBodies": Double(htmlBodies.count), "htmlMegabytes": Double(htmlBytes) / 1_048_576,
            "sanitizerSeconds": sanitizerSeconds, "sanitizerMBps": Double(htmlBytes) / 1_048_576 / sanitizerSeconds,
            "importSeconds": importSeconds, "importMessagesPerSecond": Double(messages.count) / importSeconds,
        ]
        if json {
            let data = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("corpus: \(messages.count) messages, \(String(format: "%.2f", Double(totalBytes) / 1_048_576)) MB")
            print(
                "pipeline (one core, median of \(runs)): \(String(format: "%.3f", pipelineSeconds)) s = \(String(format: "%.1f", figures["pipelineMBps"]!)) MB/s, \(Int(figures["pipelineMessagesPerSecond"]!)) messages/s"
            )
            print(
                "sanitizer (\(htmlBodies.count) HTML bodies, \(String(format: "%.2f", figures["htmlMegabytes"]!)) MB): \(String(format: "%.1f", figures["sanitizerMBps"]!)) MB/s"
            )
            print(
                "chatmail import (whole process, median of \(importRuns)): \(String(format: "%.2f", importSeconds)) s = \(Int(figures["importMessagesPerSecond"]!)) messages/s"
            )
        }
    }

    func corpusFiles() throws -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: URL(fileURLWithPath: corpus), includingPropertiesForKeys: nil)
        else {
            throw ValidationError("cannot read \(corpus)")
        }
        let files = walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "eml" }.sorted { $0.path < $1.path }
        guard !files.isEmpty else { throw ValidationError("no .eml files under \(corpus)") }
        return files
    }

    func timed(_ work: () -> Void) -> Double {
        let start = ContinuousClock.now
        work()
        return (ContinuousClock.now - start).seconds
    }

}
