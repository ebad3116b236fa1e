import Testing

@testable import TerminalKit

/// Decodes `input` three ways (in one feed, split in two at every byte boundary, and byte by byte),
/// each followed by the flush the runtime does after a quiet spell, and checks all agree with `expected`.
private func expectDecodes(
    _ input: String,
    to expected: [Key],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let bytes = Array(input.utf8)
    var whole = KeyDecoder()
    #expect(whole.feed(bytes) + whole.flushPending() == expected, "in one feed", sourceLocation: sourceLocation)
    for split in 1..<max(1, bytes.count) {
        var decoder = KeyDecoder()
        let keys = decoder.feed(Array(bytes[..<split])) + decoder.feed(Array(bytes[split...])) + decoder.flushPending()
        #expect(keys == expected, "split after byte \(split)", sourceLocation: sourceLocation)
    }
    var byByte = KeyDecoder()
    let keys = bytes.flatMap { byByte.feed([$0]) } + byByte.flushPending()
    #expect(keys == expected, "byte by byte", sourceLocation: sourceLocation)
}

@Suite struct KeyDecoderTests {
    @Test func printableASCIIAndSpace() {
        expectDecodes("aZ 9~", to: ["a", "Z", " ", "9", "~"].map { .character($0) })
    }

    @Test func multiByteUTF8() {
        expectDecodes("é€😀日", to: [.character("é"), .character("€"), .character("😀"), .character("日")])
    }

    @Test func enterBackspaceTab() {
        expectDecodes("\r\n\u{7F}\u{08}\t", to: [.enter, .enter, .backspace, .backspace, .tab])
    }

    @Test func controlLetters() {
        for letter in "abcdefgklnopqrstuvwxyz" {
            let byte = UInt8(letter.asciiValue! - 0x60)
            var decoder = KeyDecoder()
            #expect(decoder.feed([byte]) == [.control(letter)], "Ctrl-\(letter)")
        }
        // Ctrl-H, Ctrl-I, Ctrl-J and Ctrl-M are the Backspace, Tab and Enter bytes (tested above).
        expectDecodes("\u{03}", to: [.control("c")])
        expectDecodes("\u{1A}", to: [.control("z")])
    }

    @Test func cursorKeysInBothForms() {
        expectDecodes("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D", to: [.up, .down, .right, .left])
        expectDecodes("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD", to: [.up, .down, .right, .left])
        expectDecodes("\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF", to: [.home, .end, .home, .end])
    }

    @Test func tildeKeys() {
        expectDecodes(
            "\u{1B}[1~\u{1B}[7~\u{1B}[4~\u{1B}[8~\u{1B}[3~\u{1B}[5~\u{1B}[6~",
            to: [.home, .home, .end, .end, .delete, .pageUp, .pageDown]
        )
    }

    @Test func modifiersGiveThePlainKey() {
        expectDecodes("\u{1B}[1;5A\u{1B}[1;2D\u{1B}[3;5~\u{1B}[5;3~", to: [.up, .left, .delete, .pageUp])
        expectDecodes("\u{1B}O5C", to: [.right])
    }

    @Test func shiftTab() {
        expectDecodes("\u{1B}[Z", to: [.backTab])
    }

    @Test func functionKeys() {
        let xterm =
            "\u{1B}OP\u{1B}OQ\u{1B}OR\u{1B}OS\u{1B}[15~\u{1B}[17~\u{1B}[18~\u{1B}[19~\u{1B}[20~\u{1B}[21~"
            + "\u{1B}[23~\u{1B}[24~"
        expectDecodes(xterm, to: (1...12).map { .function($0) })
        expectDecodes("\u{1B}[11~\u{1B}[12~\u{1B}[13~\u{1B}[14~", to: (1...4).map { .function($0) })
        expectDecodes("\u{1B}[[A\u{1B}[[E", to: [.function(1), .function(5)])
        expectDecodes("\u{1B}[1;2P", to: [.function(1)])
    }

    @Test func altCharactersAndAltEnter() {
        expectDecodes("\u{1B}x\u{1B}é\u{1B}\r\u{1B}\n", to: [.alt("x"), .alt("é"), .altEnter, .altEnter])
    }

    @Test func loneEscapeIsEscapeOnlyAfterTheFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.hasPendingInput)
        #expect(decoder.flushPending() == [.escape])
        #expect(!decoder.hasPendingInput)
        #expect(decoder.flushPending().isEmpty)
        // The same ESC followed in time by `x` is Alt-x, by `[A` the Up arrow.
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.feed(Array("x".utf8)) == [.alt("x")])
        #expect(decoder.feed([0x1B]).isEmpty)
        #expect(decoder.feed([UInt8(ascii: "[")]).isEmpty)
        #expect(decoder.feed([UInt8(ascii: "A")]) == [.up])
    }

    @Test func escapeThenEscapeIsTwoEscapes() {
        expectDecodes("\u{1B}\u{1B}", to: [.escape, .escape])
        expectDecodes("\u{1B}\u{1B}[A", to: [.escape, .up])
    }

    @Test func flushSettlesAltBracketAndAltO() {
        expectDecodes("\u{1B}[", to: [.alt("[")])
        expectDecodes("\u{1B}O", to: [.alt("O")])
        // A sequence cut short is dropped rather than shown.
        expectDecodes("\u{1B}[1;5", to: [])
    }

    @Test func bracketedPasteIsOneEventWithNormalisedLineBreaks() {
        let input = "\u{1B}[200~Hello\r\nwörld\rthird\nlast\u{1B}[201~x"
        expectDecodes(input, to: [.paste("Hello\nwörld\nthird\nlast"), .character("x")])
    }

    @Test func pasteKeepsEscapesAndPrefixesOfTheEndMarkerAsText() {
        // Escape bytes inside a paste are dropped as controls, but the text around them stays, and a
        // partial end marker is ordinary text.
        let input = "\u{1B}[200~a\u{1B}[20b\u{1B}[201c\tz\u{1B}[201~"
        expectDecodes(input, to: [.paste("a[20b[201c\tz")])
    }

    @Test func pasteAcrossManyFeedsWaitsForItsEnd() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~one ".utf8)).isEmpty)
        #expect(decoder.feed(Array("two\r\n".utf8)).isEmpty)
        #expect(decoder.flushPending().isEmpty, "a slow paste is not cut by the lone-ESC timer")
        #expect(decoder.feed(Array("three\u{1B}[2".utf8)).isEmpty)
        #expect(decoder.feed(Array("01~\u{1B}[A".utf8)) == [.paste("one two\nthree"), .up])
    }

    @Test func emptyPaste() {
        expectDecodes("\u{1B}[200~\u{1B}[201~", to: [.paste("")])
    }

    @Test func unknownSequencesAreSwallowed() {
        // Insert, a focus report, a window size reply, a DEC private reply, an SS3 key we do not know.
        // (A cursor position reply, `ESC[12;40R`, reads as F3 with modifiers: the app never asks for one.)
        expectDecodes("\u{1B}[2~\u{1B}[I\u{1B}[8;24;80t\u{1B}[?1;2c\u{1B}Oz\u{1B}[99~a", to: [.character("a")])
        // A stray end-of-paste marker.
        expectDecodes("\u{1B}[201~b", to: [.character("b")])
    }

    @Test func brokenSequencesNeverLeakEscapeBytes() {
        // A control byte inside a CSI sequence ends it; the control is decoded on its own.
        expectDecodes("\u{1B}[1\u{03}", to: [.control("c")])
        // An overlong parameter run is dropped without waiting forever for its final byte.
        let long = "\u{1B}[" + String(repeating: "1;", count: 40) + "A"
        var decoder = KeyDecoder()
        let keys = decoder.feed(Array(long.utf8)) + decoder.flushPending()
        #expect(!keys.contains(.escape))
        #expect(keys.allSatisfy { if case .character(let c) = $0 { c == "A" || c == "1" || c == ";" } else { false } })
    }

    @Test func invalidUTF8AndC1ControlsAreDropped() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xFF, 0x80, UInt8(ascii: "a")]) == [.character("a")])
        #expect(decoder.feed([0xC3, UInt8(ascii: "b")]) == [.character("b")])
        #expect(decoder.feed([0xC2, 0x9B, UInt8(ascii: "c")]) == [.character("c")], "U+009B, the 8-bit CSI")
        #expect(decoder.feed([0x00, 0x1C, 0x1F]).isEmpty)
    }

    @Test func unfinishedCharacterIsDroppedByTheFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xE2, 0x82]).isEmpty)
        #expect(decoder.hasPendingInput)
        #expect(decoder.flushPending().isEmpty)
        #expect(decoder.feed(Array("a".utf8)) == [.character("a")])
    }

    @Test func keypadEnterAndAltWithControls() {
        expectDecodes("\u{1B}OM", to: [.enter])
        expectDecodes("\u{1B}\u{7F}\u{1B}\t", to: [.backspace, .tab])
    }

    @Test func mixedStreamSplitEverywhere() {
        let input = "hi\u{1B}[1;5C€\u{1B}OP\u{1B}[200~x\r\ny\u{1B}[201~\u{1B}q\u{1B}[6~\r"
        expectDecodes(
            input,
            to: [
                .character("h"), .character("i"), .right, .character("€"), .function(1), .paste("x\ny"), .alt("q"),
                .pageDown, .enter,
            ]
        )
    }
}
