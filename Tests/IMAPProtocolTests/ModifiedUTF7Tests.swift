import Testing

@testable import IMAPProtocol

@Suite struct ModifiedUTF7Tests {
    @Test func rfcExamples() throws {
        #expect(ModifiedUTF7.encode("~peter/mail/台北/日本語") == "~peter/mail/&U,BTFw-/&ZeVnLIqe-")
        #expect(try ModifiedUTF7.decode("~peter/mail/&U,BTFw-/&ZeVnLIqe-") == "~peter/mail/台北/日本語")
        #expect(ModifiedUTF7.encode("&") == "&-")
        #expect(try ModifiedUTF7.decode("&-") == "&")
        #expect(ModifiedUTF7.encode("Tom & Jerry.") == "Tom &- Jerry.")
        #expect(try ModifiedUTF7.decode("Project &AOk-t&AOk-") == "Project été")
        #expect(ModifiedUTF7.encode("😀") == "&2D3eAA-")
        #expect(ModifiedUTF7.encode("") == "")
    }

    @Test(arguments: [
        "&Jjo!",  // not base64
        "&U,BTFw",  // unterminated
        "&AGE-",  // printable ASCII "a" encoded
        "&2D0-",  // an unpaired high surrogate
        "&AOkA-",  // an odd number of bytes
        "&AOl-",  // non-zero leftover bits
        "caf\u{E9}",  // raw 8-bit text
        "tab\there",  // a raw control character
    ])
    func invalidInputIsRejected(_ text: String) {
        #expect(throws: IMAPProtocolError.self) { try ModifiedUTF7.decode(text) }
    }

    @Test func randomStringsRoundTrip() throws {
        var random = SplitMix64(state: 0xC0FFEE)
        let ranges: [ClosedRange<UInt32>] = [
            0x00...0x7F, 0x20...0x7E, 0x80...0x7FF, 0x4E00...0x9FFF, 0xE000...0xFFFD, 0x1F300...0x1FAFF,
            0x10000...0x10FFFF,
        ]
        var sawShifted = false
        for _ in 0..<3000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<random.next(12) {
                let range = ranges[random.next(ranges.count)]
                let value = range.lowerBound + UInt32(random.next(Int(range.upperBound - range.lowerBound) + 1))
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
                if random.next(5) == 0 { scalars.append(["&", "~", "/", ".", "-"][random.next(5)]) }
            }
            let string = String(scalars)
            let encoded = ModifiedUTF7.encode(string)
            #expect(encoded.utf8.allSatisfy { (0x20...0x7E).contains($0) })
            sawShifted = sawShifted || string.unicodeScalars.contains { !(0x20...0x7E).contains($0.value) }
            let decoded = try ModifiedUTF7.decode(encoded)
            #expect(Array(decoded.unicodeScalars) == Array(string.unicodeScalars), "\(encoded)")
        }
        #expect(sawShifted)
    }
}
