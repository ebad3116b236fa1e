import MailText
import Testing

@Suite struct HeaderParametersTests {
    @Test(
        "Parses Content-Type and Content-Disposition parameters",
        arguments: [
            // Simple, with case folding of value and names but not parameter values.
            ("Text/Plain; Charset=\"UTF-8\"", "text/plain", ["charset": "UTF-8"]),
            // Several parameters, unquoted.
            (
                "text/plain; charset=utf-8; format=flowed; delsp=yes", "text/plain",
                ["charset": "utf-8", "format": "flowed", "delsp": "yes"]
            ),
            // Quoted value with escapes and a semicolon inside.
            ("attachment; filename=\"a \\\"b\\\"; c.txt\"", "attachment", ["filename": "a \"b\"; c.txt"]),
            // RFC 2231 extended value with charset and language.
            ("attachment; filename*=utf-8'en'caf%C3%A9.txt", "attachment", ["filename": "café.txt"]),
            // RFC 2231 continuations, out of order, charset from section 0.
            (
                "attachment; filename*1*=%A9.txt; filename*0*=iso-8859-1''caf%E9%20", "attachment",
                ["filename": "café ©.txt"]
            ),
            // Mixed encoded and plain continuations.
            ("attachment; name*0*=utf-8''%C3%A9t%C3%A9; name*1=\" long.pdf\"", "attachment", ["name": "été long.pdf"]),
            // RFC 2047 words inside a quoted value (non-standard, Outlook and Gmail send it).
            ("attachment; filename=\"=?UTF-8?B?Q2Fmw6kucGRm?=\"", "attachment", ["filename": "Café.pdf"]),
            // Missing semicolon before a parameter.
            ("text/plain charset=utf-8", "text/plain", ["charset": "utf-8"]),
            // Missing semicolon between parameters.
            ("text/plain; charset=utf-8 format=flowed", "text/plain", ["charset": "utf-8", "format": "flowed"]),
            // Stray and doubled semicolons.
            ("text/plain;; ;charset=utf-8;", "text/plain", ["charset": "utf-8"]),
            // Unquoted value with spaces.
            ("attachment; filename=my file.pdf", "attachment", ["filename": "my file.pdf"]),
            // Duplicate parameter: first wins.
            ("text/plain; charset=utf-8; charset=iso-8859-1", "text/plain", ["charset": "utf-8"]),
            // RFC 2231 form wins over the plain one.
            (
                "attachment; filename=\"fallback.txt\"; filename*=utf-8''r%C3%A9el.txt", "attachment",
                ["filename": "réel.txt"]
            ),
            // Spaces around = and the value.
            ("text/html ; charset = \"utf-8\" ", "text/html", ["charset": "utf-8"]),
            // Value only.
            ("inline", "inline", [:]),
            // Empty.
            ("", "", [:]),
            // Parameters without a main value.
            ("charset=utf-8", "", ["charset": "utf-8"]),
            // Unterminated quote runs to the end.
            ("text/plain; name=\"abc", "text/plain", ["name": "abc"]),
            // Junk words without = are skipped.
            ("text/plain; junk; charset=utf-8", "text/plain", ["charset": "utf-8"]),
            // Folded header.
            ("multipart/mixed;\r\n\tboundary=\"----=_Part_1\"", "multipart/mixed", ["boundary": "----=_Part_1"]),
            // Raw UTF-8 in a quoted value.
            ("attachment; filename=\"résumé.pdf\"", "attachment", ["filename": "résumé.pdf"]),
        ] as [(String, String, [String: String])])
    func parses(raw: String, value: String, parameters: [String: String]) {
        let parsed = HeaderParameters.parse(Array(raw.utf8))
        #expect(parsed == HeaderParameters(value: value, parameters: parameters))
    }

    @Test("Random input never crashes or hangs")
    func fuzz() {
        var generator = SplitMix64(seed: 2231)
        let alphabet = Array("ab*0=;\"'\\% \t/".utf8) + [0xC3]
        for _ in 0..<2000 {
            let length = Int(generator.next() % 40)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            _ = HeaderParameters.parse(bytes)
        }
    }
}
