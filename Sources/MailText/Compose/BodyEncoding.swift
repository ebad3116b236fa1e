import Foundation

/// The Content-Transfer-Encoding of an outgoing text body.
enum BodyTransferEncoding: String, Sendable, Equatable {
    /// The text as it is: printable ASCII in short lines.
    case sevenBit = "7bit"
    /// Mostly-ASCII text with a few escapes, such as accented Latin; still readable raw.
    case quotedPrintable = "quoted-printable"
    /// Text that quoted-printable would make much larger than base64: Cyrillic, Greek, CJK, emoji.
    case base64
}

/// Encodes a text/plain body for sending.
///
/// The body's line breaks (CRLF, LF or a lone CR) all become CRLF, the canonical form RFC 2045 §6.1 asks for,
/// and a body that does not end with a line break gets one, as SMTP needs. The encoding is then chosen to
/// survive every hop unchanged:
///
/// - `7bit` when every byte is printable ASCII or a tab, no line is longer than 78 octets, no line ends in
///   whitespace (RFC 2045 §6.7 warns that relays strip it) and none starts with `From ` (mbox-based relays
///   turn that into `>From `). Such a body reads the same raw and decoded. The signature separator `-- `
///   is the one line allowed its trailing space: it is everywhere, and losing the space costs only the
///   separator's meaning, not text.
/// - otherwise quoted-printable, whose lines stay at 76 octets with soft breaks (RFC 2045 §6.7), with
///   trailing whitespace and a line-initial `From ` escaped;
/// - or base64 when quoted-printable would be more than a quarter larger, which happens when most characters
///   are not ASCII: quoted-printable triples every non-ASCII byte, base64 adds a third to all of them. The
///   margin keeps short mostly-Latin text in the form that stays readable raw.
///
/// 8bit is never used: it needs 8BITMIME on every hop, and the encoded forms cost little for plain text.
enum BodyEncoder {
    static let sevenBitLineLimit = 78
    static let quotedPrintableLineLimit = 76
    static let base64LineLength = 76

    /// The encoding chosen for `body` and the body's bytes in it, ending with CRLF unless empty.
    static func encode(_ body: String) -> (encoding: BodyTransferEncoding, bytes: [UInt8]) {
        let lines = lines(of: body)
        if lines.allSatisfy(isSevenBitSafe) {
            return (.sevenBit, lines.flatMap { Array($0) + crlf })
        }
        let quoted = lines.flatMap(quotedPrintable)
        let base64 = base64Lines(lines.flatMap { Array($0) + crlf })
        return quoted.count > base64.count + base64.count / 4 ? (.base64, base64) : (.quotedPrintable, quoted)
    }

    static let crlf: [UInt8] = [0x0D, 0x0A]

    /// The body's lines without their breaks; a final break ends the last line rather than starting another.
    static func lines(of body: String) -> [ArraySlice<UInt8>] {
        let bytes = Array(body.utf8)
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                lines.append(bytes[start..<index])
                index += byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        if start < bytes.count { lines.append(bytes[start...]) }
        return lines
    }

    static func isSevenBitSafe(_ line: ArraySlice<UInt8>) -> Bool {
        line.count <= sevenBitLineLimit && !startsWithFrom(line[...])
            && line.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x09 }
            && (line.last != 0x20 && line.last != 0x09 || line.elementsEqual("-- ".utf8))
    }

    /// `true` when `bytes` start with `From `, the mbox separator relays may rewrite.
    static func startsWithFrom(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.starts(with: "From ".utf8)
    }

    /// One hard line in quoted-printable, ending with CRLF, split by soft breaks into lines of at most 76.
    ///
    /// A soft break goes after the last space of the line when there is one, so words stay whole in the
    /// raw text, else where the line is full; it never splits an escape.
    static func quotedPrintable(_ line: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        var current: [QuotedPiece] = []
        var width = 0
        for index in line.indices {
            let byte = line[index]
            let isLast = index == line.endIndex - 1
            var piece = QuotedPiece(byte: byte, source: index, literal: isLiteral(byte, isLast: isLast))
            // The last piece may fill the line; any other must leave room for the soft break's `=`.
            let limit = isLast ? quotedPrintableLineLimit : quotedPrintableLineLimit - 1
            if width + piece.width > limit {
                var kept = current[...]
                var moved: ArraySlice<QuotedPiece> = []
                if let space = current.lastIndex(where: \.isSpace), space > 0 {
                    let tail = current[(space + 1)...]
                    let tailWidth = tail.reduce(0) { $0 + $1.width }
                    let opensWithFrom = tail.first.map { startsWithFrom(line[$0.source...]) } ?? false
                    if tailWidth + piece.width <= limit, !opensWithFrom {
                        kept = current[...space]
                        moved = tail
                    }
                }
                output += kept.flatMap(\.bytes) + [UInt8(ascii: "=")] + crlf
                current = Array(moved)
                width = moved.reduce(0) { $0 + $1.width }
            }
            // A line may not start with `From `, whether the text put it there or a soft break did.
            if current.isEmpty, piece.literal, startsWithFrom(line[index...]) { piece.literal = false }
            current.append(piece)
            width += piece.width
        }
        return output + current.flatMap(\.bytes) + crlf
    }

    /// `true` when a byte may stand for itself in quoted-printable: printable ASCII but `=`, and a space or
    /// tab that does not end the line (RFC 2045 §6.7 rule 3).
    static func isLiteral(_ byte: UInt8, isLast: Bool) -> Bool {
        if byte == 0x20 || byte == 0x09 { return !isLast }
        return (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=")
    }

    /// One byte of a line and how it is written.
    struct QuotedPiece {
        var byte: UInt8
        /// Its index in the line.
        var source: Int
        var literal: Bool

        var bytes: [UInt8] { literal ? [byte] : Array(("=" + Hex.byte(byte)).utf8) }
        var width: Int { literal ? 1 : 3 }
        var isSpace: Bool { literal && (byte == 0x20 || byte == 0x09) }
    }

    /// Base64 of `bytes` in lines of 76 characters, each ending with CRLF.
    static func base64Lines(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        let encoded = Array(Data(bytes).base64EncodedString().utf8)
        var output: [UInt8] = []
        output.reserveCapacity(encoded.count + encoded.count / base64LineLength * 2 + 2)
        var start = 0
        while start < encoded.count {
            let end = min(start + base64LineLength, encoded.count)
            output += encoded[start..<end] + crlf
            start = end
        }
        return output
    }
}
