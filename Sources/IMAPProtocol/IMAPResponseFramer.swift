/// Splits the bytes an IMAP server sends into complete responses, ready for ``IMAPResponseParser``.
///
/// A response is one line ending in CRLF (a bare LF is tolerated), unless that line ends with a literal
/// announcement `{n}` or `{n+}` (or `~{n}` for BINARY): then the next `n` bytes are the literal, whatever
/// they contain, and the response continues with the line after them, until a line that announces no
/// literal.
///
/// Work is linear in the bytes appended: the framer remembers where it stopped scanning, skips literal
/// bytes by counting instead of looking at them, and compacts its buffer only once the consumed part is
/// at least as large as what remains.
///
/// Invariants: `frameStart <= lineStart <= scanPosition <= buffer.count`; while `literalRemaining > 0`,
/// `scanPosition` is inside that literal and no line is being scanned. Once a limit is exceeded the framer
/// keeps throwing the same error, since the stream can no longer be framed.
public struct IMAPResponseFramer: Sendable {
    /// The largest literal accepted, in bytes.
    public let maximumLiteralSize: Int
    /// The longest line accepted outside literals, in bytes, including its line ending.
    public let maximumLineLength: Int

    private var buffer: [UInt8] = []
    /// Where the response being assembled starts.
    private var frameStart = 0
    /// Where the line being scanned starts (after the last literal of this response, if any).
    private var lineStart = 0
    /// The first byte not yet looked at.
    private var scanPosition = 0
    /// Bytes of the current literal still to come.
    private var literalRemaining = 0
    private var failure: IMAPProtocolError?

    public init(maximumLiteralSize: Int = 256 << 20, maximumLineLength: Int = 1 << 20) {
        self.maximumLiteralSize = maximumLiteralSize
        self.maximumLineLength = maximumLineLength
    }

    /// Bytes received but not yet returned as part of a frame.
    public var bufferedByteCount: Int { buffer.count - frameStart }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete response, line ending(s) and literals included, or nil until more bytes arrive.
    public mutating func nextFrame() throws(IMAPProtocolError) -> [UInt8]? {
        if let failure { throw failure }
        do {
            return try scan()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func scan() throws(IMAPProtocolError) -> [UInt8]? {
        while true {
            if literalRemaining > 0 {
                let available = min(literalRemaining, buffer.count - scanPosition)
                scanPosition += available
                literalRemaining -= available
                if literalRemaining > 0 { return nil }
                lineStart = scanPosition
            }
            guard let lineFeed = buffer[scanPosition...].firstIndex(of: UInt8(ascii: "\n")) else {
                scanPosition = buffer.count
                if buffer.count - lineStart > maximumLineLength { throw .lineTooLong(maximumLineLength) }
                return nil
            }
            if lineFeed + 1 - lineStart > maximumLineLength { throw .lineTooLong(maximumLineLength) }
            scanPosition = lineFeed + 1
            if let size = try literalAnnouncement(endingBefore: lineFeed) {
                literalRemaining = size
                lineStart = scanPosition
                continue
            }
            let frame = Array(buffer[frameStart..<scanPosition])
            frameStart = scanPosition
            lineStart = scanPosition
            return frame
        }
    }

    /// The size announced by `{n}` or `{n+}` right before the line ending at `lineFeed`, if any.
    private func literalAnnouncement(endingBefore lineFeed: Int) throws(IMAPProtocolError) -> Int? {
        var index = lineFeed
        if index > lineStart, buffer[index - 1] == UInt8(ascii: "\r") { index -= 1 }
        guard index > lineStart, buffer[index - 1] == UInt8(ascii: "}") else { return nil }
        index -= 1
        if index > lineStart, buffer[index - 1] == UInt8(ascii: "+") { index -= 1 }
        let digitsEnd = index
        while index > lineStart, buffer[index - 1] >= UInt8(ascii: "0"), buffer[index - 1] <= UInt8(ascii: "9") {
            index -= 1
        }
        guard index < digitsEnd, index > lineStart, buffer[index - 1] == UInt8(ascii: "{") else { return nil }
        var size = 0
        for digit in buffer[index..<digitsEnd] {
            let (times10, overflowA) = size.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times10.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            guard !overflowA, !overflowB, sum <= maximumLiteralSize else {
                throw .literalTooLarge(overflowA || overflowB ? Int.max : sum)
            }
            size = sum
        }
        return size
    }

    /// Drops the bytes of frames already returned, once they are at least half the buffer: each byte is
    /// then moved at most a bounded number of times, keeping appends amortized linear.
    private mutating func compactIfWorthwhile() {
        guard frameStart > 0, frameStart >= buffer.count - frameStart || frameStart == buffer.count else { return }
        buffer.removeSubrange(0..<frameStart)
        lineStart -= frameStart
        scanPosition -= frameStart
        frameStart = 0
    }
}
