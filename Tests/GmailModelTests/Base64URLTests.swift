import GmailModel
import Testing

@Suite struct Base64URLTests {
    /// 0xFB 0xFF 0xBF encodes to `+/+/` in standard base64: every byte of it exercises both url letters.
    static let urlLetters: [UInt8] = [0xFB, 0xFF, 0xBF]

    @Test("encodes with '-' and '_' where standard base64 has '+' and '/'")
    func alphabet() {
        #expect(Base64URL.encode(Self.urlLetters, padded: true) == "-_-_")
        #expect(Base64URL.decode("-_-_") == Self.urlLetters)
    }

    @Test(
        "padding is written on request and read either way",
        arguments: [
            ("H", "SA==", "SA"), ("Hi", "SGk=", "SGk"), ("Hi!", "SGkh", "SGkh"), ("", "", ""),
        ])
    func padding(text: String, padded: String, unpadded: String) {
        let bytes = Array(text.utf8)
        #expect(Base64URL.encode(bytes, padded: true) == padded)
        #expect(Base64URL.encode(bytes, padded: false) == unpadded)
        #expect(Base64URL.decode(padded) == bytes)
        #expect(Base64URL.decode(unpadded) == bytes)
    }

    @Test(
        "what is not base64url is refused, not half-decoded",
        arguments: [
            "+/+/",  // the standard alphabet
            "SGk h",  // whitespace
            "SGkhS",  // a length no encoding produces
            "SA==SA==",  // padding before the end
            "S===",  // more padding than any group has
            "SGk\u{E9}",  // a non-ASCII letter
        ])
    func invalid(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("every byte value survives a round trip, padded and unpadded")
    func roundTrip() {
        let bytes = (0...255).map(UInt8.init)
        for length in [0, 1, 2, 3, 4, 254, 255, 256] {
            let slice = Array(bytes.prefix(length))
            #expect(Base64URL.decode(Base64URL.encode(slice, padded: true)) == slice)
            #expect(Base64URL.decode(Base64URL.encode(slice, padded: false)) == slice)
        }
    }
}
