import Foundation
import MailText
import Testing

@Suite struct TransferDecodingTests {
    @Test(
        "base64 survives the damage found in real mail",
        arguments: [
            ("SGVsbG8gd29ybGQ=", "Hello world"),  // well-formed
            ("SGVsbG8gd29ybGQ", "Hello world"),  // missing padding
            ("SGVs\r\nbG8g\nd29y bGQ=", "Hello world"),  // line breaks and spaces inside
            ("SGVs!!bG8g*d29ybGQ=", "Hello world"),  // garbage characters skipped
            ("SGVsbG8gd29ybGQ=\r\n\r\n-- trailer", "Hello world"),  // text after the padding ignored
            ("SGk_IQ", "Hi?!"),  // base64url alphabet ("_" is "/"), unpadded
            ("", ""),  // empty
        ])
    func base64(input: String, expected: String) {
        #expect(String(decoding: TransferDecoding.base64(Array(input.utf8)), as: UTF8.self) == expected)
    }

    @Test(
        "quoted-printable soft breaks, escapes and malformed escapes",
        arguments: [
            ("caf=C3=A9", "café"),  // UTF-8 bytes escaped
            ("caf=c3=a9", "café"),  // lowercase hex is tolerated
            ("long line=\r\ncontinues", "long linecontinues"),  // CRLF soft break
            ("long line=\ncontinues", "long linecontinues"),  // LF soft break
            ("trailing=  \r\nspace", "trailingspace"),  // whitespace after the soft-break "="
            ("a = b", "a = b"),  // "=" followed by space is literal
            ("100%=ZZ", "100%=ZZ"),  // invalid hex kept literally
            ("ends with =", "ends with "),  // "=" at the very end is a soft break
            ("=3D=3D", "=="),  // escaped equals signs
        ])
    func quotedPrintable(input: String, expected: String) {
        #expect(String(decoding: TransferDecoding.quotedPrintable(Array(input.utf8)), as: UTF8.self) == expected)
    }

    @Test(
        "unknown transfer encodings are identity", arguments: ["8bit", "binary", "7BIT", "x-uuencode", "", "  Base64 "])
    func encodingNames(name: String) {
        let expected: TransferDecoding.Encoding =
            name.trimmingCharacters(in: .whitespaces).lowercased() == "base64" ? .base64 : .identity
        #expect(TransferDecoding.Encoding(headerValue: name) == expected)
    }
}
