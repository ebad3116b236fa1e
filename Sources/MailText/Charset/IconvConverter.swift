import Glibc

/// A one-shot conversion of bytes in some charset to UTF-8 through glibc's iconv.
///
/// iconv reports trouble through `errno`; this type turns every failure into replacement characters so a
/// message with a few bad bytes still shows its text. It is internal: callers go through ``CharsetDecoder``.
struct IconvConverter: ~Copyable {
    /// The open conversion descriptor; `iconv_open` signals failure with `(iconv_t)-1`.
    private let descriptor: iconv_t

    /// Opens a converter from `charset` (an iconv name) to UTF-8, or returns `nil` when iconv does not know it.
    init?(from charset: String) {
        let opened = iconv_open("UTF-8", charset)
        guard let opened, opened != IconvConverter.invalidDescriptor else { return nil }
        self.descriptor = opened
    }

    deinit {
        iconv_close(descriptor)
    }

    /// `true` when iconv can open a conversion from `charset` to UTF-8.
    static func canOpen(_ charset: String) -> Bool {
        IconvConverter(from: charset) != nil
    }

    /// The value `iconv_open` returns on failure.
    private static var invalidDescriptor: iconv_t? {
        iconv_t(bitPattern: -1)
    }

    /// Converts `bytes` to UTF-8 bytes.
    ///
    /// Undecodable input (`EILSEQ`) and a truncated trailing sequence (`EINVAL`) each emit U+FFFD and skip one
    /// byte, then conversion resumes; a full output buffer (`E2BIG`) grows it. The loop always advances.
    /// - returns: the UTF-8 bytes and how many replacement characters were emitted.
    func convert(_ bytes: [UInt8]) -> (utf8: [UInt8], replacements: Int) {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2 + 16)
        var replacements = 0
        var chunk = [UInt8](repeating: 0, count: max(64, bytes.count * 3 + 16))
        var input = bytes
        input.withUnsafeMutableBufferPointer { inBuffer in
            guard let inBase = inBuffer.baseAddress else { return }
            var inOffset = 0
            while inOffset < inBuffer.count {
                var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBase + inOffset)
                    .assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count - inOffset
                let (result, produced, savedErrno) = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress)?
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = outBuffer.count
                    let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                    return (result, outBuffer.count - outLeft, errno)
                }
                output.append(contentsOf: chunk[0..<produced])
                inOffset = inBuffer.count - inLeft
                if result != -1 { break }
                switch savedErrno {
                case E2BIG:
                    if produced == 0 { chunk = [UInt8](repeating: 0, count: chunk.count * 2) }
                case EILSEQ, EINVAL:
                    output.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    replacements += 1
                    inOffset += 1
                default:
                    // An error iconv does not document for conversion: give up on the rest rather than loop.
                    output.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    replacements += 1
                    inOffset = inBuffer.count
                }
            }
        }
        // Flush the shift state of stateful encodings (ISO-2022-JP, UTF-7).
        var flushed = [UInt8](repeating: 0, count: 32)
        let flushedCount = flushed.withUnsafeMutableBufferPointer { outBuffer in
            var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress)?
                .assumingMemoryBound(to: CChar.self)
            var outLeft = outBuffer.count
            _ = iconv(descriptor, nil, nil, &outPointer, &outLeft)
            return outBuffer.count - outLeft
        }
        output.append(contentsOf: flushed[0..<flushedCount])
        return (output, replacements)
    }
}
