import Testing

@testable import IMAPProtocol

/// Mutated and random server bytes through the framer and the parser: each input must parse or throw
/// ``IMAPProtocolError``; a crash or a hang fails the run. Seeded, so a failure replays exactly.
@Suite struct FuzzTests {
    enum Outcome { case parsed, failed }

    /// Bytes that matter to IMAP's grammar, so insertions hit the parser's edges more often than chance.
    static let interesting = Array("(){}[]<>\"\\ \r\n*+~&-:,0123456789NILUIDBODY".utf8)

    static func mutate(_ input: [UInt8], with random: inout SplitMix64, lines: [[UInt8]]) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + random.next(4)) {
            let position = bytes.isEmpty ? 0 : random.next(bytes.count)
            switch random.next(7) {
            case 0 where !bytes.isEmpty:
                bytes[position] ^= UInt8(1 << random.next(8))
            case 1:
                let byte = random.next(2) == 0 ? interesting[random.next(interesting.count)] : UInt8(random.next(256))
                bytes.insert(byte, at: position)
            case 2 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + 1 + random.next(8)))
            case 3:
                bytes.removeSubrange(position..<bytes.count)
            case 4 where !bytes.isEmpty:
                let slice = bytes[position..<min(bytes.count, position + 1 + random.next(16))]
                bytes.insert(contentsOf: slice, at: position)
            case 5:
                let line = lines[random.next(lines.count)]
                let cut = line.isEmpty ? 0 : random.next(line.count)
                bytes.insert(contentsOf: line[cut...], at: position)
            default:
                let digits = Array(String(random.next() >> UInt64(random.next(64))).utf8)
                bytes.insert(contentsOf: digits, at: position)
            }
        }
        return bytes
    }

    /// Frames `input` in random chunks and parses every frame; also parses the raw input as one frame.
    static func run(_ input: [UInt8], chunking random: inout SplitMix64) -> Outcome {
        var framer = IMAPResponseFramer(maximumLiteralSize: 1 << 16, maximumLineLength: 4096)
        var outcome = Outcome.parsed
        do {
            var start = 0
            while start < input.count {
                let end = min(input.count, start + 1 + random.next(64))
                framer.append(input[start..<end])
                start = end
                while let frame = try framer.nextFrame() { _ = try IMAPResponseParser.parse(frame) }
            }
        } catch {
            outcome = .failed
        }
        do { _ = try IMAPResponseParser.parse(input) } catch { _ = error }
        return outcome
    }

    @Test func mutatedTranscripts() {
        let lines = Transcripts.all
        var random = SplitMix64(state: 0xF00D_FACE)
        var parsed = 0
        var failed = 0
        for iteration in 0..<20_000 {
            // Mostly single responses, sometimes a run of several, so mutations also cross frame boundaries.
            let base =
                iteration % 4 == 0
                ? (0..<(2 + random.next(4))).flatMap { _ in lines[random.next(lines.count)] }
                : lines[random.next(lines.count)]
            let mutated = Self.mutate(base, with: &random, lines: lines)
            switch Self.run(mutated, chunking: &random) {
            case .parsed: parsed += 1
            case .failed: failed += 1
            }
        }
        // Both outcomes must be common, or the mutations are not reaching the parser's edges.
        #expect(parsed > 2000, "parsed \(parsed)")
        #expect(failed > 2000, "failed \(failed)")
    }

    @Test func randomGarbage() {
        var random = SplitMix64(state: 0xBAD_5EED)
        var failed = 0
        for _ in 0..<3000 {
            let length = random.next(random.next(3) == 0 ? 4000 : 100)
            let pool = random.next(2) == 0 ? Self.interesting : nil
            let bytes = (0..<length).map { _ in pool.map { $0[random.next($0.count)] } ?? UInt8(random.next(256)) }
            _ = Self.run(bytes, chunking: &random)
            if Self.run(bytes + Array("\r\n".utf8), chunking: &random) == .failed { failed += 1 }
        }
        // Garbage ending in a line break is framed, so most of it must reach the parser and be refused.
        #expect(failed > 1500, "failed \(failed)")
    }

    /// Modified UTF-7 decoding and UID-set parsing see server bytes too.
    @Test func randomNamesAndSets() {
        var random = SplitMix64(state: 0x5E7)
        let alphabet = Array("&-+,AZaz09:*,/ ~\u{7F}".utf8)
        var decoded = 0
        for _ in 0..<20_000 {
            let bytes = (0..<random.next(16)).map { _ in alphabet[random.next(alphabet.count)] }
            do {
                _ = try ModifiedUTF7.decode(bytes)
                decoded += 1
            } catch {
                _ = error
            }
            do { _ = try IMAPUIDSet(parsing: String(decoding: bytes, as: UTF8.self)) } catch { _ = error }
        }
        #expect(decoded > 100 && decoded < 19_000, "decoded \(decoded)")
    }
}
