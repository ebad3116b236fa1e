import Foundation
import MailText
import Testing

@Suite struct CorpusPipelineTests {
    /// The scalars no pipeline output may contain (item 9 of the mail-text issue).
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    @Test(
        "every corpus message goes through parse → text → sanitize: no crash, no hang, text whenever the body has text")
    func wholeCorpus() async throws {
        let files = Corpus.emlFiles()
        try #require(files.count > 2000, "the corpus must be in Fixtures/corpus (found \(files.count) files)")
        let pipeline = TextPipeline()
        var bytesTotal = 0
        var withText = 0
        var removedQuotes = 0
        let start = ContinuousClock.now
        for file in files {
            let raw = [UInt8](try Data(contentsOf: file))
            bytesTotal += raw.count
            let name = file.lastPathComponent
            // 120 s is ~10,000× the typical cost: only a runaway loop or recursion can reach it, however
            // busy the machine.
            guard
                let outcome = await withDeadline(
                    seconds: 120,
                    { () -> (ProcessedMessage, Bool) in
                        let processed = pipeline.process(raw: raw)
                        let message = processed.message
                        let plainHasText =
                            message.plainPart.map { !$0.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
                            ?? false
                        let htmlHasText =
                            message.htmlPart.map {
                                !HTMLToText.convert($0.text).fullText.trimmingCharacters(in: .whitespacesAndNewlines)
                                    .isEmpty
                            } ?? false
                        return (processed, plainHasText || htmlHasText)
                    })
            else {
                Issue.record("\(name): did not finish within 120 s")
                return  // the runaway thread keeps running; stop before piling up more
            }
            let (processed, bodyHasText) = outcome
            let text = processed.text
            if bodyHasText {
                #expect(!text.text.isEmpty, "\(name): the body has text but the bubble is empty")
                withText += 1
            }
            #expect(!text.text.unicodeScalars.contains(where: Self.isForbidden), "\(name): unsafe scalar in the text")
            #expect(
                !text.originalText.unicodeScalars.contains(where: Self.isForbidden),
                "\(name): unsafe scalar in the original")
            #expect(
                !processed.message.subject.unicodeScalars.contains(where: Self.isForbidden),
                "\(name): unsafe scalar in the subject")
            if let html = text.sanitizedHTML {
                #expect(!html.lowercased().contains("<script"), "\(name): script survived sanitizing")
            }
            if text.quotedTextRemoved { removedQuotes += 1 }
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        print(
            "corpus: \(files.count) messages, \(bytesTotal / 1024) KiB, \(withText) with body text, \(removedQuotes) with quotes removed, \(String(format: "%.2f", seconds)) s (debug)"
        )
    }
}
