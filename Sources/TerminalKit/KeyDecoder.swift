/// Turns the bytes a terminal sends in raw mode into `Key`s.
///
/// A read can end anywhere: in the middle of a UTF-8 character, of an escape sequence or of a bracketed
/// paste. The decoder keeps the unfinished tail and completes it on the next `feed`, so keys never depend
/// on how the kernel split the input. The one ambiguity bytes cannot settle is a lone ESC: it is the Esc
/// key, or the start of a sequence still in flight. The caller settles it with time, calling
/// `flushPending()` when no byte has followed for a few tens of milliseconds (`hasPendingInput` says when
/// that matters).
///
/// Nothing unknown reaches the app as characters: an unrecognised escape sequence is swallowed whole, and
/// stray control bytes and invalid UTF-8 are dropped.
public struct KeyDecoder: Sendable {
    /// Bytes received but not yet decoded: the unfinished start of a character or a sequence.
    private var pending: [UInt8] = []
    /// The text of a bracketed paste seen so far, or `nil` outside a paste.
    private var paste: [UInt8]?

    public init() {}

    /// Whether undecoded bytes wait for more input (or for `flushPending()`), which is when the caller
    /// should arm its lone-ESC timer. Inside a paste it is `false`: a paste ends only with its end marker.
    public var hasPendingInput: Bool { paste == nil && !pending.isEmpty }

    /// Decodes as many keys as `bytes` complete, keeping any unfinished tail for the next call.
    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            if paste != nil {
                guard let next = consumePaste(from: index, into: &keys) else { break }
                index = next
                continue
            }
            guard let step = EscapeGrammar.decode(pending, at: index) else { break }
            switch step.token {
            case .key(let key): keys.append(key)
            case .pasteStart: paste = []
            case .ignored: break
            }
            index += step.length
        }
        pending.removeFirst(index)
        return keys
    }

    /// Settles what is pending once the input has gone quiet: a lone ESC is the Esc key, ESC `[` and
    /// ESC `O` are Alt-`[` and Alt-`O`, and the start of a longer sequence or of a character that never
    /// finished is dropped. A paste in progress is kept: only its end marker ends it.
    public mutating func flushPending() -> [Key] {
        guard hasPendingInput else { return [] }
        defer { pending.removeAll() }
        guard pending[0] == EscapeGrammar.escape else { return [] }
        switch pending.count {
        case 1: return [.escape]
        case 2 where pending[1] == UInt8(ascii: "[") || pending[1] == UInt8(ascii: "O"):
            return [.alt(Character(Unicode.Scalar(pending[1])))]
        default: return []
        }
    }

    /// Moves paste bytes from `pending` into `paste` up to the end marker, returning the index after what
    /// it used, or `nil` when the rest of `pending` might be the start of the end marker.
    private mutating func consumePaste(from index: Int, into keys: inout [Key]) -> Int? {
        let marker = EscapeGrammar.pasteEnd
        var cursor = index
        while cursor < pending.count {
            if pending[cursor] == EscapeGrammar.escape {
                let available = min(marker.count, pending.count - cursor)
                if pending[cursor..<cursor + available].elementsEqual(marker.prefix(available)) {
                    guard available == marker.count else { break }
                    paste?.append(contentsOf: pending[index..<cursor])
                    keys.append(.paste(Self.pastedText(paste ?? [])))
                    paste = nil
                    return cursor + marker.count
                }
            }
            cursor += 1
        }
        paste?.append(contentsOf: pending[index..<cursor])
        return cursor == index ? nil : cursor
    }

    /// The pasted bytes as text: CR LF and lone CR become `\n`, and control characters other than tab
    /// and line feed are dropped, since they would act on the terminal when the composer draws them.
    static func pastedText(_ bytes: [UInt8]) -> String {
        var normalized: [UInt8] = []
        normalized.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0D {
                normalized.append(0x0A)
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
            } else if byte == 0x09 || byte == 0x0A || (byte >= 0x20 && byte != 0x7F) {
                normalized.append(byte)
            }
            index += 1
        }
        let text = String(decoding: normalized, as: UTF8.self)
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !(0x80...0x9F).contains($0.value) }))
    }
}
