import Foundation
import MailText
import Testing

/// Runs the cleaner over every message body in the corpus (`Fixtures/corpus`): no crash, never blank for visible input.
@Suite struct PlainCorpusSweepTests {
    static let corpus = Corpus.root

    static func bodies() -> [String] {
        guard let walker = FileManager.default.enumerator(at: corpus, includingPropertiesForKeys: nil) else {
            return []
        }
        var bodies: [String] = []
        for case let url as URL in walker where url.pathExtension == "eml" {
            guard let data = try? Data(contentsOf: url) else { continue }  // unreadable file: nothing to sweep
            bodies.append(body(of: [UInt8](data)))
        }
        return bodies
    }

    /// The bytes after the first blank line, decoded as lossy UTF-8 with CRLF normalized to LF.
    static func body(of bytes: [UInt8]) -> String {
        var start = bytes.count
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 10 && bytes[index + 1] == 10 {
                start = index + 2
                break
            }
            if index + 3 < bytes.count && bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13
                && bytes[index + 3] == 10
            {
                start = index + 4
                break
            }
            index += 1
        }
        let text = String(decoding: bytes[min(start, bytes.count)...], as: UTF8.self)
        return text.replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test("cleans every corpus body without crashing or blanking it")
    func sweep() throws {
        let bodies = Self.bodies()
        try #require(!bodies.isEmpty, "the corpus in Fixtures/corpus is missing")
        var quotes = 0
        var signatures = 0
        var forwards = 0
        var bytes = 0
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for body in bodies {
                bytes += body.utf8.count
                let cleaned = PlainTextCleaner.clean(body)
                if cleaned.removedQuote { quotes += 1 }
                if cleaned.removedSignature { signatures += 1 }
                if cleaned.forwarded { forwards += 1 }
                let visibleInput = body.contains { !$0.isWhitespace }
                #expect(!visibleInput || !cleaned.text.isEmpty, "blank output for a non-blank body")
            }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let megabytes = Double(bytes) / 1_000_000
        print(
            "corpus sweep: \(bodies.count) messages, \(String(format: "%.1f", megabytes)) MB, quote removed in \(quotes), "
                + "signature removed in \(signatures), forwards \(forwards), "
                + "\(String(format: "%.1f", megabytes / max(seconds, 1e-9))) MB/s"
        )
    }
}
