// SCRATCH — not to be committed.
import Foundation
import MailText
import Testing

@Suite struct ScratchEvalTests {
    static func squash(_ s: String) -> String {
        s.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    @Test func cases() throws {
        let root = URL(fileURLWithPath: "/tmp/qeval")
        let sets = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var report = ""
        for set in sets.sorted() where set != "out" && set != "corpus" {
            let dir = root.appendingPathComponent(set)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
                .filter { $0.hasSuffix(".in.txt") }.sorted()
            var exact = 0, over = 0, under = 0
            for name in names {
                let base = String(name.dropLast(".in.txt".count))
                let input = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
                let expected = (try? String(contentsOf: dir.appendingPathComponent(base + ".expected.txt"), encoding: .utf8)) ?? ""
                let got = TextPipeline().text(ofPlain: input).text
                let a = Self.squash(got), b = Self.squash(expected)
                if a == b { exact += 1; continue }
                let kind: String
                if b.contains(a) || a.count < b.count { kind = "OVER"; over += 1 } else { kind = "UNDER"; under += 1 }
                report += "=== \(set)/\(base) [\(kind)]\n--- got:\n\(got)\n--- expected:\n\(expected)\n\n"
            }
            report += "## \(set): \(exact)/\(names.count) exact, over \(over), under \(under)\n"
            print("## \(set): \(exact)/\(names.count) exact, over \(over), under \(under)")
        }
        try report.write(toFile: "/tmp/qeval/out/report.txt", atomically: true, encoding: .utf8)
    }

    /// Dumps the bubble text of every corpus reply for eyeballing.
    @Test func corpusReplies() throws {
        var dump = ""
        let pipeline = TextPipeline()
        let root = URL(fileURLWithPath: "/work/wt-q-plain/Fixtures/corpus")
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return }
        for case let url as URL in walker where url.pathExtension == "eml" {
            guard let data = try? Data(contentsOf: url) else { continue }
            let processed = pipeline.process(raw: [UInt8](data))
            let subject = processed.message.subject
            _ = subject
            dump += "######## \(url.path.replacingOccurrences(of: root.path + "/", with: "")) removed=\(processed.text.quotedTextRemoved)\n\(processed.text.text)\n\n"
        }
        try dump.write(toFile: "/tmp/qeval/out/corpus.txt", atomically: true, encoding: .utf8)
    }
}
