import Testing

@testable import IMAPProtocol

/// The framer must cut the same responses out of the stream however the network splits it.
@Suite struct FramerTests {
    static let stream = Transcripts.all.flatMap { $0 }

    /// Feeds `chunks` in order, collecting every frame as soon as it is complete.
    static func frames(of chunks: [ArraySlice<UInt8>], framer: IMAPResponseFramer = IMAPResponseFramer())
        throws(IMAPProtocolError) -> [[UInt8]]
    {
        var framer = framer
        var frames: [[UInt8]] = []
        for chunk in chunks {
            framer.append(chunk)
            while let frame = try framer.nextFrame() { frames.append(frame) }
        }
        return frames
    }

    @Test func wholeStreamGivesTheTranscriptFrames() throws {
        #expect(try Self.frames(of: [Self.stream[...]]) == Transcripts.all)
    }

    @Test func splitAtEveryByteBoundary() throws {
        let stream = Self.stream
        for split in 0...stream.count {
            let frames = try Self.frames(of: [stream[..<split], stream[split...]])
            #expect(frames == Transcripts.all, "split at \(split)")
            if frames != Transcripts.all { return }
        }
    }

    @Test func randomChunkings() throws {
        var random = SplitMix64(state: 0x1A2B_3C4D)
        let stream = Self.stream
        for _ in 0..<200 {
            var chunks: [ArraySlice<UInt8>] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + 1 + random.next(random.next(2) == 0 ? 8 : 300))
                chunks.append(stream[start..<end])
                start = end
            }
            #expect(try Self.frames(of: chunks) == Transcripts.all)
        }
    }

    @Test func byteByByteReturnsNilUntilComplete() throws {
        let frame = Transcripts.dovecot[Transcripts.dovecot.count - 2]
        var framer = IMAPResponseFramer()
        for (index, byte) in frame.enumerated() {
            framer.append(CollectionOfOne(byte))
            let next = try framer.nextFrame()
            #expect((next != nil) == (index == frame.count - 1), "at byte \(index)")
            if index == frame.count - 1 { #expect(next == frame) }
        }
        #expect(try framer.nextFrame() == nil)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func bareLineFeedsAndLiteralPlusAndEmptyLiteral() throws {
        let input = Array("* OK hi\n* 1 FETCH (BODY[] {3+}\nab\n)\n* 2 FETCH (BODY[] {0}\r\n)\r\n* 3 EXISTS".utf8)
        var framer = IMAPResponseFramer()
        framer.append(input)
        #expect(try framer.nextFrame() == Array("* OK hi\n".utf8))
        #expect(try framer.nextFrame() == Array("* 1 FETCH (BODY[] {3+}\nab\n)\n".utf8))
        #expect(try framer.nextFrame() == Array("* 2 FETCH (BODY[] {0}\r\n)\r\n".utf8))
        #expect(try framer.nextFrame() == nil)
        #expect(framer.bufferedByteCount == Array("* 3 EXISTS".utf8).count)
    }

    @Test func braceTextThatIsNotAnAnnouncementEndsTheLine() throws {
        let input = Array("* OK {abc}\r\n* OK {}\r\n* OK x{5\r\n".utf8)
        #expect(try Self.frames(of: [input[...]]).count == 3)
    }

    @Test func overlongLineIsRejectedAndStaysRejected() throws {
        var framer = IMAPResponseFramer(maximumLineLength: 100)
        framer.append(Array(repeating: UInt8(ascii: "x"), count: 80))
        #expect(try framer.nextFrame() == nil)
        framer.append(Array(repeating: UInt8(ascii: "x"), count: 80))
        #expect(throws: IMAPProtocolError.lineTooLong(100)) { try framer.nextFrame() }
        framer.append(Array("\r\n".utf8))
        #expect(throws: IMAPProtocolError.lineTooLong(100)) { try framer.nextFrame() }
        // A line of exactly the limit, line ending included, is fine; the limit is per line, not per frame.
        var exact = IMAPResponseFramer(maximumLineLength: 20)
        exact.append(Array("* 1 FETCH (X {2}\r\n".utf8) + Array("ab".utf8) + Array(" Y 12345678901234)\r\n".utf8))
        #expect(throws: Never.self) { try exact.nextFrame() }
    }

    @Test func oversizeLiteralIsRejected() {
        var framer = IMAPResponseFramer(maximumLiteralSize: 1000)
        framer.append(Array("* 1 FETCH (BODY[] {1001}\r\n".utf8))
        #expect(throws: IMAPProtocolError.literalTooLarge(1001)) { try framer.nextFrame() }
        var overflow = IMAPResponseFramer()
        overflow.append(Array("* 1 FETCH (BODY[] {99999999999999999999999999}\r\n".utf8))
        #expect(throws: IMAPProtocolError.self) { try overflow.nextFrame() }
    }

    /// A 16 MiB literal in 64 KiB chunks, as a large message arrives: framed intact, and parsed.
    @Test func largeLiteralInChunks() throws {
        var body: [UInt8] = []
        var random = SplitMix64(state: 7)
        body.reserveCapacity(16 << 20)
        for _ in 0..<(16 << 20) / 8 {
            let word = random.next()
            for shift in stride(from: 0, to: 64, by: 8) {
                body.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        let frame = Array("* 1 FETCH (UID 7 BODY[] {\(body.count)}\r\n".utf8) + body + Array(")\r\n".utf8)
        let stream = frame + Array("* 2 EXISTS\r\n".utf8)
        var framer = IMAPResponseFramer()
        var frames: [[UInt8]] = []
        for start in stride(from: 0, to: stream.count, by: 65536) {
            framer.append(stream[start..<min(start + 65536, stream.count)])
            while let next = try framer.nextFrame() { frames.append(next) }
        }
        #expect(frames.count == 2)
        #expect(frames.first == frame)
        guard let first = frames.first else { return }
        #expect(
            try IMAPResponseParser.parse(first)
                == .untagged(.fetch(sequence: 1, IMAPFetchAttributes(uid: 7, body: body))))
    }
}
