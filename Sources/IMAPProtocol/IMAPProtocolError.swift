import Foundation

/// Why bytes from an IMAP server could not be framed or parsed.
///
/// Every failure of the protocol layer is one of these: a malicious or broken server can make a response
/// fail, but never crash the client or make it loop.
public enum IMAPProtocolError: Error, Sendable, Equatable, LocalizedError {
    /// The bytes break IMAP's grammar. The reason is short and quotes at most a few dozen bytes of the
    /// input, with control and 8-bit bytes escaped, so it is safe to log and to show.
    case malformed(String)
    /// A line (outside literals) grew past the framer's limit, in bytes.
    case lineTooLong(Int)
    /// A literal announced more bytes than the framer's limit.
    case literalTooLarge(Int)

    public var errorDescription: String? {
        switch self {
        case .malformed(let reason):
            "The IMAP server sent a malformed response: \(reason)."
        case .lineTooLong(let limit):
            "The IMAP server sent a line longer than \(limit) bytes."
        case .literalTooLarge(let size):
            "The IMAP server announced a literal of \(size) bytes, more than this client accepts."
        }
    }
}

/// Quoting server input in error reasons: bounded and escaped, so a reason never carries a terminal
/// escape sequence, a line break or megabytes of literal.
enum Excerpt {
    /// The longest excerpt, in input bytes.
    static let maximumLength = 60

    /// `bytes` (at most ``maximumLength`` of them) as a double-quoted, escaped string.
    static func quote(_ bytes: some Collection<UInt8>) -> String {
        var text = "\""
        for byte in bytes.prefix(maximumLength) {
            switch byte {
            case UInt8(ascii: "\r"): text += "\\r"
            case UInt8(ascii: "\n"): text += "\\n"
            case UInt8(ascii: "\t"): text += "\\t"
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + hex(byte)
            }
        }
        if bytes.count > maximumLength { text += "…" }
        return text + "\""
    }

    static func quote(_ string: String) -> String { quote(Array(string.utf8)) }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
