import Foundation
import MailText
import Testing

/// Runs the sanitizer and the text converter over every HTML-looking mail in the corpus (`Fixtures/corpus`).
///
/// The input is crude on purpose (raw bytes from the first `<html`, `<body` or `<div` to the end, MIME
/// boundaries and quoted-printable included): it checks robustness, not output quality.
@Suite struct HTMLCorpusSweepTests {
    static let corpus = Corpus.root

    /// Crude HTML inputs: one per `.eml` file whose bytes mention `<html` or `<body`.
    static func inputs() -> [String] {
        guard let files = FileManager.default.enumerator(at: self.corpus, includingPropertiesForKeys: nil) else {
            return []
        }
        var inputs: [String] = []
        for case let file as URL in files where file.pathExtension == "eml" {
            guard let data = try? Data(contentsOf: file) else { continue }  // unreadable file: nothing to sweep
            let text = String(decoding: data, as: UTF8.self)
            let lowered = text.lowercased()
            guard lowered.contains("<html") || lowered.contains("<body") else { continue }
            let starts = ["<html", "<body", "<div"].compactMap { lowered.range(of: $0)?.lowerBound }
            guard let start = starts.min() else { continue }
            // `lowercased()` keeps the offsets of ASCII markers; map through UTF-8 offsets to be safe.
            let offset = lowered.utf8.distance(from: lowered.startIndex, to: start)
            let utf8 = text.utf8
            let index = utf8.index(utf8.startIndex, offsetBy: min(offset, utf8.count))
            inputs.append(String(decoding: utf8[index...], as: UTF8.self))
        }
        return inputs
    }

    @Test("sanitizes and converts every HTML mail in the corpus without leaving active content")
    func sweep() throws {
        let inputs = Self.inputs()
        try #require(!inputs.isEmpty, "no HTML mail found under \(Self.corpus.path)")
        let sanitizer = HTMLSanitizer()
        let totalBytes = inputs.reduce(0) { $0 + $1.utf8.count }
        let clock = ContinuousClock()
        var sanitized: [String] = []
        let sanitizeTime = clock.measure {
            sanitized = inputs.map { sanitizer.sanitize($0) }
        }
        var converted: [HTMLConversion] = []
        let convertTime = clock.measure {
            converted = inputs.map { HTMLToText.convert($0) }
        }
        let eventAttribute = #/<[a-zA-Z][^>]*\s[oO][nN][a-zA-Z]+\s*=/#  // a start tag with an on… attribute
        for (index, output) in sanitized.enumerated() {
            let lowered = output.lowercased()
            #expect(!lowered.contains("<script"), "input \(index)")
            #expect(!lowered.contains("javascript:"), "input \(index)")
            #expect(output.firstMatch(of: eventAttribute) == nil, "input \(index)")
        }
        #expect(converted.count == inputs.count)
        #expect(converted.contains { !$0.fullText.isEmpty })
        let megabytes = Double(totalBytes) / 1_000_000
        func rate(_ duration: Duration) -> String {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return String(Int((megabytes / max(seconds, 1e-9)).rounded())) + " MB/s in \(duration)"
        }
        print(
            "HTML corpus sweep: \(inputs.count) inputs, \(totalBytes) bytes; "
                + "sanitize \(rate(sanitizeTime)); convert \(rate(convertTime)) (debug build)"
        )
    }
}

extension HTMLCorpusSweepTests {
    @Test("sanitizing any corpus mail twice gives the same HTML as sanitizing it once")
    func idempotentOnCorpus() throws {
        let inputs = Self.inputs()
        try #require(!inputs.isEmpty)
        for options in [HTMLSanitizer.Options(blockRemoteImages: true), .init(blockRemoteImages: false)] {
            let sanitizer = HTMLSanitizer(options: options)
            var unstable: [Int] = []
            for (index, input) in inputs.enumerated() {
                let once = sanitizer.sanitize(input)
                if sanitizer.sanitize(once) != once { unstable.append(index) }
            }
            #expect(unstable.isEmpty, "unstable inputs: \(unstable.prefix(20))")
        }
    }

    @Test("no sanitized corpus mail keeps a remote image URL when remote images are blocked")
    func noRemoteImageURLs() throws {
        let inputs = Self.inputs()
        try #require(!inputs.isEmpty)
        let sanitizer = HTMLSanitizer()
        let imageURL = #/<img[^>]*(src|data-blocked-src)\s*=\s*["']?https?:/#.ignoresCase()
        for (index, input) in inputs.enumerated() {
            #expect(sanitizer.sanitize(input).firstMatch(of: imageURL) == nil, "input \(index)")
        }
    }
}
