import Foundation
import MailText
import Testing

@Suite struct MessageValidationTests {
    @Test("every message of the corpus is accepted as an email message, by its header block alone and once parsed")
    func corpusIsMail() throws {
        var rejected: [String] = []
        for file in Corpus.emlFiles() {
            let bytes = [UInt8](try Data(contentsOf: file))
            if let rejection = MessageValidation.rejection(of: bytes) {
                rejected.append("\(file.path.dropFirst(Corpus.root.path.count + 1)): \(rejection)")
            } else if MessageValidation.rejection(of: ParsedMessage(raw: bytes), bytes: bytes) != nil {
                rejected.append("\(file.path.dropFirst(Corpus.root.path.count + 1)): rejected once parsed")
            }
        }
        #expect(rejected.isEmpty, "\(rejected)")
    }

    @Test(
        "text that is not mail is rejected with the reason",
        arguments: [
            (
                "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n",
                MessageValidation.Rejection.noMessageHeaderFields
            ),
            ("[section]\nkey: value\n", .noHeaderFields),
            ("Dear Bob: see you at noon.\n", .noHeaderFields),
            ("title: Notes\ntags: a, b\n\nSome text.\n", .noMessageHeaderFields),
            (" \r\n\t\n", .empty),
            ("", .empty),
        ])
    func rejected(text: String, expected: MessageValidation.Rejection) {
        #expect(MessageValidation.rejection(of: Array(text.utf8)) == expected)
    }

    @Test("binary data without a header block is called binary")
    func binary() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]
        #expect(MessageValidation.rejection(of: png) == .binary)
    }

    @Test(
        "one email field is enough, in any case, after other fields, or after an mbox From line",
        arguments: [
            "Subject: hi\n\nbody\n",
            "X-Custom: 1\nfrom: a@example.org\n\nbody\n",
            "From a@example.org Tue Mar  3 14:02:00 2025\nMESSAGE-ID: <1@example.org>\n\n",
            "Content-Type: text/plain\n",
        ])
    func accepted(text: String) {
        #expect(MessageValidation.rejection(of: Array(text.utf8)) == nil)
    }
}
