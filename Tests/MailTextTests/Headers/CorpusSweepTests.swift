import Foundation
import MailText
import Testing

@Suite struct CorpusSweepTests {
    /// What the sweep found, for the summary line and the lower bounds.
    struct Tally {
        var messages = 0
        var withHeaders = 0
        var fromHeaders = 0
        var fromWithAddress = 0
        var dateHeaders = 0
        var datesParsed = 0
        var subjects = 0
        var contentTypes = 0
        var contentTypesWithSlash = 0
        var recipients = 0
        var unparsedDates: [String] = []
        var fromWithoutAddress: [String] = []
    }

    @Test("Every corpus message's headers decode without crashing and within sensible bounds")
    func sweep() throws {
        var tally = Tally()
        for url in Corpus.emlFiles() {
            let bytes = [UInt8](try Data(contentsOf: url))
            let (fields, bodyStart) = HeaderBlock.parse(bytes[...])
            tally.messages += 1
            #expect(bodyStart >= 0 && bodyStart <= bytes.count)
            if !fields.fields.isEmpty { tally.withHeaders += 1 }
            if let subject = fields.first("Subject") {
                tally.subjects += 1
                let text = EncodedWords.decode(subject)
                let hasControl = text.unicodeScalars.contains {
                    ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value)
                }
                #expect(!hasControl, "\(url.lastPathComponent): \(text.debugDescription)")
            }
            if let from = fields.first("From") {
                tally.fromHeaders += 1
                if AddressListParser.parse(from).isEmpty {
                    tally.fromWithoutAddress.append(
                        "\(url.lastPathComponent): \(String(decoding: from, as: UTF8.self))")
                } else {
                    tally.fromWithAddress += 1
                }
            }
            for name in ["To", "Cc"] {
                for value in fields.all(name) { tally.recipients += AddressListParser.parse(value).count }
            }
            if let date = fields.first("Date") {
                tally.dateHeaders += 1
                let text = String(decoding: date, as: UTF8.self)
                if MailDate.parse(text) != nil {
                    tally.datesParsed += 1
                } else {
                    tally.unparsedDates.append(text)
                }
            }
            if let contentType = fields.first("Content-Type") {
                tally.contentTypes += 1
                if HeaderParameters.parse(contentType).value.contains("/") { tally.contentTypesWithSlash += 1 }
            }
        }
        print(
            """
            corpus sweep: \(tally.messages) messages, \(tally.withHeaders) with headers; \
            From: \(tally.fromWithAddress)/\(tally.fromHeaders) yield an address; \
            Date: \(tally.datesParsed)/\(tally.dateHeaders) parsed; subjects: \(tally.subjects); \
            To+Cc addresses: \(tally.recipients); Content-Type with type/subtype: \
            \(tally.contentTypesWithSlash)/\(tally.contentTypes)
            unparsed dates: \(tally.unparsedDates.prefix(40))
            From without address: \(tally.fromWithoutAddress.prefix(40))
            """)
        #expect(tally.messages >= 2000)
        #expect(Double(tally.fromWithAddress) >= 0.95 * Double(tally.fromHeaders))
        #expect(Double(tally.datesParsed) >= 0.95 * Double(tally.dateHeaders))
        #expect(Double(tally.contentTypesWithSlash) >= 0.95 * Double(tally.contentTypes))
        #expect(Double(tally.withHeaders) >= 0.95 * Double(tally.messages))
    }
}
